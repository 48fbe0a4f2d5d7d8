//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

// wmStub plays the parts of an EWMH window manager that the window code
// reads: the _NET_SUPPORTING_WM_CHECK window, frames that clients are
// reparented into (with WM_STATE on the client), the client lists, and
// receiving _NET_ACTIVE_WINDOW. The tests use it because the test desktop
// has no window manager; it does not manage anything by itself.
type wmStub struct {
	d           *Display
	check       C.Window
	activations chan uint64 // windows _NET_ACTIVE_WINDOW asked for
}

// startWMStub connects to the display and announces itself.
func startWMStub(display string) (*wmStub, error) {
	s := &wmStub{activations: make(chan uint64, 16)}
	d, err := open(display, s.handle)
	if err != nil {
		return nil, err
	}
	s.d = d
	err = d.do(func() error {
		s.check = C.nx_create_window(d.dpy, -10, -10, 1, 1, 0, 1, 0)
		self := []uint64{uint64(s.check)}
		d.setLongs(s.check, d.atom("_NET_SUPPORTING_WM_CHECK"), xaWindow, self)
		d.setLongs(d.root, d.atom("_NET_SUPPORTING_WM_CHECK"), xaWindow, self)
		d.setUTF8(s.check, "_NET_WM_NAME", "nish-wm-stub")
		C.XSelectInput(d.dpy, d.root, C.SubstructureRedirectMask|C.SubstructureNotifyMask)
		return d.xerr(true)
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	return s, nil
}

// handle records _NET_ACTIVE_WINDOW requests.
func (s *wmStub) handle(d *Display, ev *C.nx_event) {
	if int(ev._type) == evClientMessage && C.Atom(ev.message_type) == d.atom("_NET_ACTIVE_WINDOW") {
		select {
		case s.activations <- uint64(ev.window):
		default:
		}
	}
}

// frame reparents a client into a new frame at frame's position, the client
// titleBar pixels below the frame's top, and marks it managed.
func (s *wmStub) frame(client uint64, frame Rect, titleBar int) (uint64, error) {
	var f C.Window
	err := s.d.do(func() error {
		d := s.d
		f = C.nx_create_window(d.dpy, C.int(frame.X), C.int(frame.Y), C.int(frame.W), C.int(frame.H),
			C.nx_pixel(d.dpy, 0x404040), 0, 0)
		C.XAddToSaveSet(d.dpy, C.Window(client))
		C.XReparentWindow(d.dpy, C.Window(client), f, 0, C.int(titleBar))
		wmState := d.atom("WM_STATE")
		d.setLongs(C.Window(client), wmState, wmState, []uint64{1, 0}) // NormalState
		C.XMapWindow(d.dpy, f)
		return d.xerr(true)
	})
	return uint64(f), err
}

// setClients publishes the client lists, bottom to top. Without stacking
// only _NET_CLIENT_LIST is set (and _NET_CLIENT_LIST_STACKING removed).
func (s *wmStub) setClients(bottomToTop []uint64, stacking bool) error {
	return s.d.do(func() error {
		d := s.d
		d.setLongs(d.root, d.atom("_NET_CLIENT_LIST"), xaWindow, bottomToTop)
		if stacking {
			d.setLongs(d.root, d.atom("_NET_CLIENT_LIST_STACKING"), xaWindow, bottomToTop)
		} else {
			C.XDeleteProperty(d.dpy, d.root, d.atom("_NET_CLIENT_LIST_STACKING"))
		}
		return d.xerr(true)
	})
}

// close removes the stub's root properties and disconnects; the save set
// puts framed clients back on the root.
func (s *wmStub) close() {
	_ = s.d.do(func() error {
		d := s.d
		for _, p := range []string{"_NET_SUPPORTING_WM_CHECK", "_NET_CLIENT_LIST", "_NET_CLIENT_LIST_STACKING"} {
			C.XDeleteProperty(d.dpy, d.root, d.atom(p))
		}
		C.XSync(d.dpy, C.False)
		return nil
	})
	s.d.Close()
}
