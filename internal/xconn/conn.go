//go:build cgo

package xconn

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include "xc.h"
*/
import "C"

import (
	"fmt"
	"os"
	"unsafe"
)

// Conn is one display connection opened through the guarded open, with the
// flag its exit handler raises when the connection breaks. Every call on it
// (and on its Display) belongs to the one OS thread that opened it.
type Conn struct {
	c *C.xc_conn
}

// Open connects to an X display ("" means $DISPLAY). Call it on the locked
// thread that will own the connection. A display that cannot be opened,
// also one whose server dies before XOpenDisplay has finished, is an error.
func Open(display string) (*Conn, error) {
	var name *C.char
	if display != "" {
		name = C.CString(display)
		defer C.free(unsafe.Pointer(name))
	}
	c := C.xc_open(name)
	if c == nil {
		if display == "" {
			display = os.Getenv("DISPLAY")
		}
		return nil, fmt.Errorf("cannot open X display %q", display)
	}
	return &Conn{c: c}, nil
}

// Display is the connection's Xlib Display, for the caller to convert to
// its own *C.Display (cgo's C types are per package).
func (c *Conn) Display() unsafe.Pointer { return unsafe.Pointer(c.c.dpy) }

// LostFlag is the address of the flag Lost reads (a C volatile int), for
// the owner's C helpers that must look at it between Xlib calls. It is
// valid until Close.
func (c *Conn) LostFlag() unsafe.Pointer { return unsafe.Pointer(&c.c.lost) }

// Lost reports whether the connection broke; once it has, only Close may
// be called.
func (c *Conn) Lost() bool { return c.c.lost != 0 }

// Close closes the connection (also after it was lost) and frees it.
func (c *Conn) Close() { C.xc_close(c.c) }

// ResetErrors empties the calling thread's error slot: what TakeError
// returns next is an error of a request made after this.
func ResetErrors() { C.xc_err_reset() }

// TakeError returns the first X protocol error trapped on the calling
// thread since ResetErrors (or the last TakeError), or nil, and empties the
// slot. With sync set it first waits (XSync) until the server has answered
// every request sent so far, so their errors are in.
func (c *Conn) TakeError(sync bool) *XError {
	s := C.int(0)
	if sync {
		s = 1
	}
	var e C.xc_xerror
	if C.xc_err_take(c.c.dpy, s, &e) == 0 {
		return nil
	}
	var buf [128]C.char
	C.XGetErrorText(c.c.dpy, e.code, &buf[0], C.int(len(buf)))
	return &XError{
		Code:     int(e.code),
		Request:  int(e.request),
		Minor:    int(e.minor),
		Resource: uint64(e.resource),
		Text:     C.GoString(&buf[0]),
	}
}
