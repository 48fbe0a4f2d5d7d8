//go:build cgo

package xtest

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include "xt.h"
*/
import "C"

import (
	"os"
	"slices"
	"time"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// viewableWait bounds NewPlainWindow's wait for its window to show.
const viewableWait = 3 * time.Second

// NewPlainWindow creates and maps a top-level window filled with one
// colour, with WM_CLASS, WM_NAME, _NET_WM_NAME, _NET_WM_PID (this process)
// and a fixed size at a program-chosen place, and waits until it is
// viewable. The window lasts until DestroyWindow or Close.
func (d *Display) NewPlainWindow(p PlainWindow) (uint64, error) {
	var id C.Window
	err := d.call(func() {
		r := p.Frame
		var a C.XSetWindowAttributes
		a.background_pixel = d.pixel(p.RGB)
		a.override_redirect = cBool(p.OverrideRedirect)
		id = C.XCreateWindow(d.dpy, d.root, C.int(r.X), C.int(r.Y), C.uint(r.W), C.uint(r.H), 0,
			C.CopyFromParent, C.InputOutput, nil, C.CWBackPixel|C.CWOverrideRedirect, &a)
		cls := C.CString(p.Class)
		defer C.free(unsafe.Pointer(cls))
		hint := C.XClassHint{res_name: cls, res_class: cls}
		C.XSetClassHint(d.dpy, id, &hint)
		title := C.CString(p.Title)
		defer C.free(unsafe.Pointer(title))
		C.XStoreName(d.dpy, id, title)
		d.setBytes(id, "_NET_WM_NAME", "UTF8_STRING", []byte(p.Title))
		d.setLongs(id, "_NET_WM_PID", C.XA_CARDINAL, []uint64{uint64(os.Getpid())})
		if h := C.XAllocSizeHints(); h != nil {
			h.flags = C.PPosition | C.USPosition | C.PSize | C.PMinSize | C.PMaxSize
			h.x, h.y = C.int(r.X), C.int(r.Y)
			h.width, h.min_width, h.max_width = C.int(r.W), C.int(r.W), C.int(r.W)
			h.height, h.min_height, h.max_height = C.int(r.H), C.int(r.H), C.int(r.H)
			C.XSetWMNormalHints(d.dpy, id, h)
			C.XFree(unsafe.Pointer(h))
		}
		C.XMapWindow(d.dpy, id)
	})
	if err != nil {
		return 0, err
	}
	deadline := time.Now().Add(viewableWait)
	for {
		if ok, err := d.viewable(uint64(id)); err == nil && ok {
			return uint64(id), nil
		}
		if time.Now().After(deadline) {
			_ = d.DestroyWindow(uint64(id))
			return 0, ErrTimeout
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pixel is the pixel value of an RGB colour in the default colormap
// (loop only).
func (d *Display) pixel(rgb uint32) C.ulong {
	c := C.XColor{
		red:   C.ushort((rgb >> 16 & 0xff) * 257),
		green: C.ushort((rgb >> 8 & 0xff) * 257),
		blue:  C.ushort((rgb & 0xff) * 257),
		flags: C.DoRed | C.DoGreen | C.DoBlue,
	}
	C.XAllocColor(d.dpy, C.XDefaultColormap(d.dpy, C.XDefaultScreen(d.dpy)), &c)
	return c.pixel
}

// viewable reports whether a window is mapped and all its ancestors are.
func (d *Display) viewable(id uint64) (bool, error) {
	var ok bool
	err := d.call(func() {
		var a C.XWindowAttributes
		ok = C.XGetWindowAttributes(d.dpy, C.Window(id), &a) != 0 && a.map_state == C.IsViewable
	})
	return ok, err
}

// setBytes sets a format-8 property (loop only).
func (d *Display) setBytes(w C.Window, prop, typ string, b []byte) {
	d.conn.SetProperty8(uint64(w), uint64(d.atom(prop)), uint64(d.atom(typ)), b)
}

// setLongs sets a format-32 property (loop only).
func (d *Display) setLongs(w C.Window, prop string, typ C.Atom, vals []uint64) {
	d.conn.SetProperty32(uint64(w), uint64(d.atom(prop)), uint64(typ), vals)
}

// DestroyWindow destroys any client's window, as any X client may.
func (d *Display) DestroyWindow(id uint64) error {
	return d.call(func() {
		C.XDestroyWindow(d.dpy, C.Window(id))
	})
}

// UnmapWindow unmaps any client's window.
func (d *Display) UnmapWindow(id uint64) error {
	return d.call(func() {
		C.XUnmapWindow(d.dpy, C.Window(id))
	})
}

// MoveWindow moves a top-level window, as any client may when no window
// manager redirects the request.
func (d *Display) MoveWindow(id uint64, x, y int) error {
	return d.call(func() {
		C.XMoveWindow(d.dpy, C.Window(id), C.int(x), C.int(y))
	})
}

// KillClient closes the connection of the client that made a window, as
// xkill does.
func (d *Display) KillClient(id uint64) error {
	return d.call(func() {
		C.XKillClient(d.dpy, C.XID(id))
	})
}

// SendSyntheticClick sends a SendEvent ButtonPress and ButtonRelease of
// button 1 to a window at window coordinates (x, y): what any X client can
// forge, and what the driver's own windows must ignore.
func (d *Display) SendSyntheticClick(id uint64, x, y int) error {
	return d.call(func() {
		C.xt_send_button(d.dpy, C.Window(id), 1, C.int(x), C.int(y), 1)
		C.xt_send_button(d.dpy, C.Window(id), 0, C.int(x), C.int(y), 1)
	})
}

// SendDeleteWindow asks a window to close the way a window manager does
// (WM_PROTOCOLS / WM_DELETE_WINDOW).
func (d *Display) SendDeleteWindow(id uint64) error {
	return d.call(func() {
		d.conn.SendClientMessage(id, id, uint64(d.atom("WM_PROTOCOLS")), [5]int64{int64(d.atom("WM_DELETE_WINDOW")), C.CurrentTime}, C.NoEventMask)
	})
}

// children lists a window's children, bottom to top (loop only); ok is
// false when the window is gone.
func (d *Display) children(w C.Window) (kids []C.Window, ok bool) {
	var root, parent C.Window
	var list *C.Window
	var n C.uint
	if C.XQueryTree(d.dpy, w, &root, &parent, &list, &n) == 0 {
		return nil, false
	}
	if list != nil {
		kids = slices.Clone(unsafe.Slice(list, int(n)))
		C.XFree(unsafe.Pointer(list))
	}
	return kids, true
}

// StackIndex returns a root child's place in the stacking order (0 is the
// bottom), or -1 when it is not a child of the root.
func (d *Display) StackIndex(id uint64) (int, error) {
	i := -1
	err := d.call(func() {
		kids, _ := d.children(d.root)
		i = slices.Index(kids, C.Window(id))
	})
	return i, err
}

// FindByClass lists the top-level windows whose WM_CLASS class or instance
// is class, topmost first, mapped or not and override-redirect included:
// how tests find the driver's own windows (the consent dialog, the
// indicator), which the driver's window list leaves out. The X11 test
// desktop has no window manager, so they are children of the root; on the
// Wayland one mutter manages Xwayland and puts a window it decorates in a
// frame of its own, so a root child without a class is looked into too.
func (d *Display) FindByClass(class string) ([]uint64, error) {
	var out []uint64
	err := d.call(func() {
		kids, _ := d.children(d.root)
		for i := len(kids) - 1; i >= 0; i-- {
			cls, inst, ok := d.classOf(kids[i])
			if !ok {
				inner, _ := d.children(kids[i])
				for j := len(inner) - 1; j >= 0; j-- {
					if cls, inst, ok := d.classOf(inner[j]); ok && (cls == class || inst == class) {
						out = append(out, uint64(inner[j]))
					}
				}
				continue
			}
			if cls == class || inst == class {
				out = append(out, uint64(kids[i]))
			}
		}
		xconn.ResetErrors() // windows vanishing mid-walk are not errors
	})
	return out, err
}

// classOf is a window's WM_CLASS class and instance; ok is false when it
// has none.
func (d *Display) classOf(w C.Window) (cls, inst string, ok bool) {
	var h C.XClassHint
	if C.XGetClassHint(d.dpy, w, &h) == 0 {
		return "", "", false
	}
	inst, cls = C.GoString(h.res_name), C.GoString(h.res_class)
	C.XFree(unsafe.Pointer(h.res_name))
	C.XFree(unsafe.Pointer(h.res_class))
	return cls, inst, true
}

// maxText bounds TextProperty's read.
const maxText = 1 << 16

// TextProperty reads a window's UTF8_STRING property by name; ok is false
// when the window has no such property.
func (d *Display) TextProperty(id uint64, name string) (value string, ok bool, err error) {
	err = d.call(func() {
		var typ C.Atom
		var format C.int
		var n, after C.ulong
		var data *C.uchar
		if C.XGetWindowProperty(d.dpy, C.Window(id), d.atom(name), 0, maxText/4, C.False, d.atom("UTF8_STRING"),
			&typ, &format, &n, &after, &data) != C.Success {
			return
		}
		if data != nil {
			defer C.XFree(unsafe.Pointer(data))
		}
		if typ == d.atom("UTF8_STRING") && format == 8 {
			ok = true
			value = C.GoStringN((*C.char)(unsafe.Pointer(data)), C.int(n))
		}
	})
	return value, ok, err
}

// InputShapeRects returns how many rectangles make a window's input shape
// (0: clicks pass through it).
func (d *Display) InputShapeRects(id uint64) (int, error) {
	var n int
	err := d.call(func() {
		n = int(C.xt_shape_input_count(d.dpy, C.Window(id)))
	})
	return n, err
}

func cBool(b bool) C.Bool {
	if b {
		return C.True
	}
	return C.False
}

// RootWindows reads a window-typed property of the root (an EWMH window
// manager's _NET_SUPPORTING_WM_CHECK, _NET_ACTIVE_WINDOW,
// _NET_CLIENT_LIST), up to 1024 windows; nil when it is not set.
func (d *Display) RootWindows(name string) (ids []uint64, err error) {
	err = d.call(func() {
		var typ C.Atom
		var format C.int
		var n, after C.ulong
		var data *C.uchar
		if C.XGetWindowProperty(d.dpy, d.root, d.atom(name), 0, 1024, C.False, C.XA_WINDOW,
			&typ, &format, &n, &after, &data) != C.Success {
			return
		}
		if data != nil {
			defer C.XFree(unsafe.Pointer(data))
		}
		if typ != C.XA_WINDOW || format != 32 {
			return
		}
		for _, w := range unsafe.Slice((*C.ulong)(unsafe.Pointer(data)), int(n)) {
			ids = append(ids, uint64(w))
		}
	})
	return ids, err
}
