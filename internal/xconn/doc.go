// Package xconn owns what Xlib keeps once per process, for every package
// that opens X connections in it (native/xlib, the driver's; internal/xtest,
// the tests' other client): XInitThreads, the one protocol-error handler and
// its thread-local slot, the one I/O error handler, and the open guarded by
// it; and what both do alike (a property's format-8 or format-32 data and
// a ClientMessage: requests.go; keysym names: keysym.go), so each detail
// of it is written once. Xlib's handlers are process-global, so two packages that each
// installed their own would displace each other; here there is one of each,
// and each package opens its connections through Open.
//
// Each connection is used by one OS thread only (its owner's goroutine is
// locked to it), so the error handler records the first protocol error in
// a slot of the thread that made the failing call: ResetErrors empties it
// and Conn.TakeError reads it back, on that same thread.
//
// A broken connection goes to the I/O error handler, which returns, and
// then to the connection's own exit handler (libX11 1.8 and later), which
// raises the flag Conn.Lost reads and returns too, so the call that met the
// broken connection unwinds and its owner turns the flag into an error.
// Xlib's defaults would end the process instead.
//
// A connection that breaks inside XOpenDisplay, after the handshake, has no
// exit handler of ours yet, and Xlib's default calls exit(1) from the
// opening thread, whose libX11 destructor then frees Xlib's global mutexes
// under the other threads still in Xlib. So while a thread is in
// XOpenDisplay the I/O error handler jumps back out of it, and Open returns
// an error (xc_conn.c).
//
// The package speaks Go types only: cgo's C types belong to one package, so
// a Conn hands out its Display as an unsafe.Pointer that each caller
// converts to its own *C.Display, and a caller's C helpers that must see the
// lost flag between Xlib calls get its address (LostFlag). No other
// package's C calls this package's C. Built without cgo only XError is
// left; the packages that open connections have their own no-cgo builds.
package xconn
