// Package xlib is the driver's cgo layer over libX11 and its extensions:
// listing top-level windows and the process behind each (X-Resource),
// capturing a window's own pixels (Composite), synthetic pointer and
// keyboard input (XTEST), the monitors (RandR 1.5), the CLIPBOARD selection (reading it, and owning
// it to answer other clients), the consent dialog and the takeover indicator
// (click-through override-redirect windows, XShape input shapes), drawn with
// core Xlib and core fonts, no toolkit. It speaks Go types only; the C it needs lives in
// the nx_*.c files, each helper freeing what it allocates.
//
// Xlib is not safe to share between threads, so each Display is one
// connection owned by one goroutine locked to its OS thread; the methods
// hand it closures and wait. The consent dialog and the indicator each open
// a connection of their own, so a dialog waiting for the person never holds
// up the main one, and the indicator's event loop runs beside it. The
// hand-back input watcher (WatchInput) likewise reads XInput 2 raw events on
// a connection of its own and hands them to its sink from another goroutine.
// Each clipboard read and each clipboard owner has its own connection too,
// so an owner that never answers, or a text owned for a whole session,
// never holds up the main one.
//
// Every connection is opened through internal/xconn, which owns what Xlib
// keeps once per process: XInitThreads, the error handler and its
// thread-local slot, the I/O error handler and the guarded open. X protocol
// errors are trapped per call (that slot, read after an XSync where a
// request can fail) and returned as *XError. A broken connection raises a
// flag through the connection's I/O exit handler (libX11 1.8 and later)
// instead of ending the process; every later call on that Display returns
// ErrDisplayLost. A connection that breaks while XOpenDisplay is still
// making it (no per-connection handler exists yet, and Xlib's default would
// exit the process from that thread, under the others' feet) makes Open
// fail. This package adds to each connection only a wake-up descriptor for
// its loop (nx_conn.c).
//
// Built without cgo, the package keeps its API and every call returns
// ErrNotBuilt, so the rest of the driver still compiles and says why.
package xlib
