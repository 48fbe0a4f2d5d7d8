//go:build cgo

package xtest

/*
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include "xt.h"
*/
import "C"

import "time"

// WM plays the parts of an EWMH window manager that the driver's window
// code reads: the _NET_SUPPORTING_WM_CHECK window, frames that clients are
// reparented into (with WM_STATE on the client), the client lists, and
// receiving _NET_ACTIVE_WINDOW. The test desktop has no window manager;
// this one manages nothing by itself. It is a client of its own: it
// redirects the root's structure requests to itself and never answers
// them.
type WM struct {
	d     *Display
	check C.Window
}

// StartWM connects to the display and announces itself.
func StartWM(display string) (*WM, error) {
	d, err := Open(display)
	if err != nil {
		return nil, err
	}
	wm := &WM{d: d}
	err = d.call(func() {
		wm.check = C.XCreateSimpleWindow(d.dpy, d.root, -10, -10, 1, 1, 0, 0, 0)
		self := []uint64{uint64(wm.check)}
		d.setLongs(wm.check, "_NET_SUPPORTING_WM_CHECK", C.XA_WINDOW, self)
		d.setLongs(d.root, "_NET_SUPPORTING_WM_CHECK", C.XA_WINDOW, self)
		d.setBytes(wm.check, "_NET_WM_NAME", "UTF8_STRING", []byte("nish-wm-stub"))
		C.XSelectInput(d.dpy, d.root, C.SubstructureRedirectMask|C.SubstructureNotifyMask)
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	return wm, nil
}

// Frame reparents a client into a new frame at frame's place, the client
// titleBar pixels below the frame's top, marks it managed (WM_STATE
// NormalState) and returns the frame.
func (wm *WM) Frame(client uint64, frame Rect, titleBar int) (uint64, error) {
	var f C.Window
	d := wm.d
	err := d.call(func() {
		f = C.XCreateSimpleWindow(d.dpy, d.root, C.int(frame.X), C.int(frame.Y), C.uint(frame.W), C.uint(frame.H),
			0, 0, d.pixel(0x404040))
		C.XAddToSaveSet(d.dpy, C.Window(client))
		C.XReparentWindow(d.dpy, C.Window(client), f, 0, C.int(titleBar))
		d.setLongs(C.Window(client), "WM_STATE", d.atom("WM_STATE"), []uint64{1, 0})
		C.XMapWindow(d.dpy, f)
	})
	return uint64(f), err
}

// SetClients publishes the client lists, bottom to top. Without stacking
// only _NET_CLIENT_LIST is set (and _NET_CLIENT_LIST_STACKING removed).
func (wm *WM) SetClients(bottomToTop []uint64, stacking bool) error {
	d := wm.d
	return d.call(func() {
		d.setLongs(d.root, "_NET_CLIENT_LIST", C.XA_WINDOW, bottomToTop)
		if stacking {
			d.setLongs(d.root, "_NET_CLIENT_LIST_STACKING", C.XA_WINDOW, bottomToTop)
		} else {
			C.XDeleteProperty(d.dpy, d.root, d.atom("_NET_CLIENT_LIST_STACKING"))
		}
	})
}

// Activation waits up to limit for a client to ask, with a
// _NET_ACTIVE_WINDOW message, for a window to be activated, and returns
// that window; ErrTimeout when none asked.
func (wm *WM) Activation(limit time.Duration) (uint64, error) {
	d := wm.d
	var w C.Window
	err := d.call(func() {
		w = C.xt_wait_client_message(d.dpy, (*C.int)(d.conn.LostFlag()), d.atom("_NET_ACTIVE_WINDOW"), C.int(limit.Milliseconds()))
	})
	if err == nil && w == 0 {
		err = ErrTimeout
	}
	return uint64(w), err
}

// Close removes the manager's root properties and disconnects; the save
// set puts framed clients back on the root.
func (wm *WM) Close() {
	d := wm.d
	_ = d.call(func() {
		for _, p := range []string{"_NET_SUPPORTING_WM_CHECK", "_NET_CLIENT_LIST", "_NET_CLIENT_LIST_STACKING"} {
			C.XDeleteProperty(d.dpy, d.root, d.atom(p))
		}
	})
	d.Close()
}
