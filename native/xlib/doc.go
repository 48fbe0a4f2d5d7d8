// Package xlib will wrap libX11 and its extensions with cgo: XTEST for
// synthetic pointer and keyboard input, XInput2 raw events for noticing the
// person's own input during a takeover, XRes for the process behind a window,
// Composite for capturing a window's own contents, and XShape for the
// click-through takeover indicator. It also draws the driver's own consent
// dialog and indicator windows with plain Xlib, without a toolkit.
//
// Xlib is not safe to call from several threads at once, so every call on the
// driver's display connection runs on one goroutine locked to its OS thread;
// other goroutines hand it work and wait for the answer. The input watcher
// has a connection (and goroutine) of its own, so it can report the person's
// input while a call on the main connection is still running.
package xlib
