// Package xtest is the rest of the X desktop for tests: a second X client
// that does what other programs on a person's screen do, and looks at what
// any client can see. It makes plain windows (an app window that needs no
// toolkit), destroys, unmaps, moves and kills other clients' windows,
// sends the synthetic events any client can forge, owns the clipboard
// without ever answering, plays a window manager (StartWM), and reads
// what the driver publishes: windows by class, text properties, input
// shapes, stacking, and which keys and buttons are down; and, for tests
// that C code frees what it allocates, how much the C heap holds.
//
// It is for tests only; the binary never links it (ci/ships_test.go). It
// is a client of its own rather than hooks into native/xlib, so the
// driver's X code is checked through another connection, as the rest of
// the desktop sees it, and native/xlib keeps no code that only tests run.
//
// Like native/xlib it is thin cgo: Go types in and out, the C it needs in
// xt_*.c, each helper freeing what it allocates, and one goroutine locked
// to its OS thread per connection (Xlib is not safe to share between
// threads). Every call waits until the server has handled its requests
// (XSync) and returns the first X protocol error they caused as *XError.
// Xlib's handlers are one for the whole process, so this package installs
// none: it opens its connections through internal/xconn, as native/xlib
// does, whose error handler keeps each thread's errors apart and whose
// guarded open turns a server dying mid-open into an error.
//
// Built without cgo, Open returns ErrNotBuilt, so packages that use it
// still compile.
package xtest
