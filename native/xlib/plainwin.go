//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

import (
	"os"
	"time"
	"unsafe"
)

// plainWindow describes a window newPlainWindow makes.
type plainWindow struct {
	Frame            Rect
	RGB              uint32 // its background colour, which the server paints
	Class, Title     string
	OverrideRedirect bool
}

// newPlainWindow creates and maps a top-level filled with one colour, with
// WM_CLASS, WM_NAME, _NET_WM_NAME and _NET_WM_PID set, and waits until it
// is viewable. The tests use it as an app window that needs no toolkit.
func (d *Display) newPlainWindow(p plainWindow) (uint64, error) {
	var id C.Window
	err := d.do(func() error {
		r := p.Frame
		id = C.nx_create_window(d.dpy, C.int(r.X), C.int(r.Y), C.int(r.W), C.int(r.H),
			C.nx_pixel(d.dpy, C.uint(p.RGB)), cBool(p.OverrideRedirect), C.StructureNotifyMask)
		cls := C.CString(p.Class)
		defer C.free(unsafe.Pointer(cls))
		C.nx_set_class(d.dpy, id, cls, cls)
		title := C.CString(p.Title)
		defer C.free(unsafe.Pointer(title))
		C.XStoreName(d.dpy, id, title)
		d.setUTF8(id, "_NET_WM_NAME", p.Title)
		d.setLongs(id, d.atom("_NET_WM_PID"), xaCardinal, []uint64{uint64(os.Getpid())})
		C.nx_set_fixed_size(d.dpy, id, C.int(r.X), C.int(r.Y), C.int(r.W), C.int(r.H))
		C.XMapWindow(d.dpy, id)
		return d.xerr(true)
	})
	if err != nil {
		return 0, err
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		w, err := d.Describe(uint64(id))
		if err == nil && w.Mapped {
			return uint64(id), nil
		}
		if time.Now().After(deadline) {
			_ = d.destroyWindow(uint64(id))
			return 0, errNotViewable
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// destroyWindow destroys a window this connection made.
func (d *Display) destroyWindow(id uint64) error {
	return d.do(func() error {
		C.XDestroyWindow(d.dpy, C.Window(id))
		return d.xerr(true)
	})
}

// sendSyntheticClick sends a SendEvent ButtonPress and ButtonRelease of
// button 1 to a window at window coordinates (x, y): what any X client can
// forge, and what the consent dialog must ignore.
func (d *Display) sendSyntheticClick(id uint64, x, y int) error {
	return d.do(func() error {
		C.nx_send_button(d.dpy, C.Window(id), 1, C.int(x), C.int(y), 1)
		C.nx_send_button(d.dpy, C.Window(id), 0, C.int(x), C.int(y), 1)
		return d.xerr(true)
	})
}

// unmapWindow unmaps a window.
func (d *Display) unmapWindow(id uint64) error {
	return d.do(func() error {
		C.XUnmapWindow(d.dpy, C.Window(id))
		return d.xerr(true)
	})
}

// cWindow converts a window id for the C side.
func cWindow(id uint64) C.Window { return C.Window(id) }

// sendDeleteWindow asks a window to close the way a window manager does
// (WM_PROTOCOLS / WM_DELETE_WINDOW).
func (d *Display) sendDeleteWindow(id uint64) error {
	return d.do(func() error {
		C.nx_send_client_message(d.dpy, C.Window(id), C.Window(id), d.atom("WM_PROTOCOLS"),
			C.long(d.atom("WM_DELETE_WINDOW")), C.CurrentTime, 0, 0, 0, 0)
		return d.xerr(true)
	})
}

// pointerButtons returns the pointer's button state mask (Button1Mask is
// 1<<8, Button3Mask 1<<10).
func (d *Display) pointerButtons() (uint, error) {
	var mask C.uint
	err := d.do(func() error {
		var root, child C.Window
		var rx, ry, wx, wy C.int
		C.XQueryPointer(d.dpy, d.root, &root, &child, &rx, &ry, &wx, &wy, &mask)
		return nil
	})
	return uint(mask), err
}

// keyDown reports whether the key of a keysym name is down.
func (d *Display) keyDown(name string) (bool, error) {
	var down bool
	err := d.do(func() error {
		code := C.XKeysymToKeycode(d.dpy, d.keysym(name))
		var keys [32]C.char
		C.XQueryKeymap(d.dpy, &keys[0])
		down = code != 0 && keys[code/8]&(1<<(code%8)) != 0
		return nil
	})
	return down, err
}
