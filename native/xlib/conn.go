//go:build cgo

package xlib

/*
#include "nx.h"
*/
import "C"

import (
	"errors"
	"fmt"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// conn is one of the package's X connections: the display internal/xconn
// opened (through the process's one guarded open, with its lost flag and
// the thread's error slot) and the wake-up descriptor this package's loops
// wait on beside it. Everything but wake runs on the thread that opened it.
type conn struct {
	x   *xconn.Conn
	c   *C.nx_conn
	dpy *C.Display
}

// errNoWakeFD is why a connection could not be made ready after its open.
var errNoWakeFD = errors.New("xlib: cannot make a wake-up descriptor")

// openConn opens a connection to display ("" = $DISPLAY). Call it on the
// locked thread that will own the connection.
func openConn(display string) (*conn, error) {
	x, err := xconn.Open(display)
	if err != nil {
		return nil, fmt.Errorf("xlib: %w", err)
	}
	dpy := (*C.Display)(x.Display())
	c := C.nx_conn_new(dpy, (*C.int)(x.LostFlag()))
	if c == nil {
		x.Close()
		return nil, errNoWakeFD
	}
	return &conn{x: x, c: c, dpy: dpy}, nil
}

// close closes the connection (also after it was lost).
func (k *conn) close() {
	C.nx_conn_free(k.c)
	k.x.Close()
}

// lost reports whether the connection broke.
func (k *conn) lost() bool { return k.x.Lost() }

// wake makes a pending wait return. Safe from any thread while the
// connection is open.
func (k *conn) wake() { C.nx_wake(k.c) }

// wait blocks until the connection has input, wake was called, or
// timeoutMS passed (-1: no timeout).
func (k *conn) wait(timeoutMS int) { C.nx_wait(k.c, C.int(timeoutMS)) }

// next reads one waiting event into ev; false when none is waiting or the
// connection is lost.
func (k *conn) next(ev *C.nx_event) bool { return C.nx_next_event(k.c, ev) == 1 }

// xerr returns the X error trapped on this thread since the last reset
// (waiting for the server's answers first when sync is set), or nil.
func (k *conn) xerr(sync bool) error {
	if e := k.x.TakeError(sync); e != nil {
		return &XError{XError: *e}
	}
	return nil
}
