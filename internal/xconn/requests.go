//go:build cgo

package xconn

/*
#cgo pkg-config: x11
#include "xc.h"
*/
import "C"

import "unsafe"

// The requests below are the ones both X clients of the process send alike
// (a window's properties, a message to a window manager or a client). Each
// has a detail that is easy to get wrong once in two places: format-32
// data is handed to Xlib as C longs whatever the platform's long size, and
// a ClientMessage is a union whose unused words must be zero. Like every
// call on a Conn they run on its owner's thread; what they get wrong the
// server answers with a protocol error that TakeError returns.

// SetProperty8 replaces win's property prop (of type typ) with the bytes b,
// format 8: text such as UTF8_STRING or a JSON document.
func (c *Conn) SetProperty8(win, prop, typ uint64, b []byte) {
	var p *C.uchar
	if len(b) > 0 {
		p = (*C.uchar)(unsafe.Pointer(&b[0]))
	}
	C.XChangeProperty(c.c.dpy, C.Window(win), C.Atom(prop), C.Atom(typ), 8, C.PropModeReplace, p, C.int(len(b)))
}

// SetProperty32 replaces win's property prop (of type typ) with vals,
// format 32: cardinals, atoms or window ids.
func (c *Conn) SetProperty32(win, prop, typ uint64, vals []uint64) {
	l := make([]C.long, len(vals))
	for i, v := range vals {
		l[i] = C.long(v)
	}
	var p *C.uchar
	if len(l) > 0 {
		p = (*C.uchar)(unsafe.Pointer(&l[0]))
	}
	C.XChangeProperty(c.c.dpy, C.Window(win), C.Atom(prop), C.Atom(typ), 32, C.PropModeReplace, p, C.int(len(l)))
}

// SendClientMessage sends dest a format-32 ClientMessage of type typ about
// win, carrying data, selected by mask (0: only dest's owner gets it):
// _NET_ACTIVE_WINDOW to the root for a window manager, WM_PROTOCOLS to a
// client.
func (c *Conn) SendClientMessage(dest, win, typ uint64, data [5]int64, mask int64) {
	var l [5]C.long
	for i, v := range data {
		l[i] = C.long(v)
	}
	C.xc_send_client_message(c.c.dpy, C.Window(dest), C.Window(win), C.Atom(typ), &l[0], C.long(mask))
}
