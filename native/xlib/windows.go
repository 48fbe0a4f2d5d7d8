//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

import (
	"os"
	"slices"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// How top-levels are found:
//
// With a window manager that speaks EWMH (its _NET_SUPPORTING_WM_CHECK
// window names itself), its _NET_CLIENT_LIST_STACKING (bottom to top) is the
// list, or _NET_CLIENT_LIST ordered by where each client's frame sits among
// the root's children. Without one, the root's viewable children (XQueryTree
// lists them bottom to top) are the list, each replaced by the window inside
// it that carries WM_STATE when a window manager reparented it.
// Override-redirect windows (menus, tooltips) and the driver's own windows
// are left out.

// queryTree returns a window's parent and children (bottom to top).
func (d *Display) queryTree(w C.Window) (parent C.Window, children []C.Window, ok bool) {
	var root, par C.Window
	var kids *C.Window
	var n C.uint
	if C.XQueryTree(d.dpy, w, &root, &par, &kids, &n) == 0 {
		return 0, nil, false
	}
	if kids != nil {
		children = slices.Clone(unsafe.Slice(kids, int(n)))
		C.XFree(unsafe.Pointer(kids))
	}
	return par, children, true
}

// attrs reads a window's attributes; ok is false when it is gone.
func (d *Display) attrs(w C.Window) (a C.nx_attrs, ok bool) {
	ok = C.nx_get_attrs(d.dpy, w, &a) != 0
	return a, ok
}

func (d *Display) hasWMState(w C.Window) bool {
	_, ok := d.getProp(w, d.atom("WM_STATE"), anyPropertyType, 8)
	return ok
}

// clientIn finds the window carrying WM_STATE at or below w (breadth
// first, a few levels deep), or returns 0.
func (d *Display) clientIn(w C.Window) C.Window {
	level := []C.Window{w}
	for depth := 0; depth < 4 && len(level) > 0; depth++ {
		var next []C.Window
		for _, c := range level {
			if d.hasWMState(c) {
				return c
			}
			if _, kids, ok := d.queryTree(c); ok {
				next = append(next, kids...)
			}
		}
		level = next
	}
	return 0
}

// wmPresent reports whether an EWMH window manager is running.
func (d *Display) wmPresent() bool {
	check, ok := d.windowList(d.root, "_NET_SUPPORTING_WM_CHECK")
	if !ok || len(check) == 0 || check[0] == 0 {
		return false
	}
	self, ok := d.windowList(check[0], "_NET_SUPPORTING_WM_CHECK")
	return ok && len(self) > 0 && self[0] == check[0]
}

// topLevelOf walks up from w to the root's child that holds it.
func (d *Display) topLevelOf(w C.Window) (C.Window, bool) {
	for i := 0; i < 64; i++ {
		parent, _, ok := d.queryTree(w)
		if !ok {
			return 0, false
		}
		if parent == d.root || parent == 0 {
			return w, true
		}
		w = parent
	}
	return 0, false
}

// candidate is a client window in stacking order.
type candidate struct {
	client C.Window
	frame  C.Window // the root's child holding it (the client itself without a WM)
}

// stack lists client windows topmost first; fromWM says the list came from
// the window manager (and so may include unmapped clients).
func (d *Display) stack() (list []candidate, fromWM bool) {
	if d.wmPresent() {
		if ids, ok := d.windowList(d.root, "_NET_CLIENT_LIST_STACKING"); ok {
			for i := len(ids) - 1; i >= 0; i-- {
				frame, ok := d.topLevelOf(ids[i])
				if ok {
					list = append(list, candidate{client: ids[i], frame: frame})
				}
			}
			return list, true
		}
		if ids, ok := d.windowList(d.root, "_NET_CLIENT_LIST"); ok {
			_, children, _ := d.queryTree(d.root)
			pos := map[C.Window]int{}
			for i, c := range children {
				pos[c] = i
			}
			for _, id := range ids {
				if frame, ok := d.topLevelOf(id); ok {
					list = append(list, candidate{client: id, frame: frame})
				}
			}
			slices.SortStableFunc(list, func(a, b candidate) int { return pos[b.frame] - pos[a.frame] })
			return list, true
		}
	}
	_, children, _ := d.queryTree(d.root)
	for i := len(children) - 1; i >= 0; i-- {
		c := children[i]
		a, ok := d.attrs(c)
		if !ok || a.map_state != isViewable || a.override_redirect != 0 || a.input_only != 0 {
			continue
		}
		client := d.clientIn(c)
		if client == 0 {
			client = c
		}
		list = append(list, candidate{client: client, frame: c})
	}
	return list, false
}

// describe reads what Window reports about a client. ok is false when the
// window vanished, or (with listing set) when it is override-redirect and
// so no top-level.
func (d *Display) describe(c candidate, listing bool) (Window, bool) {
	xconn.ResetErrors()
	a, ok := d.attrs(c.client)
	if !ok || a.input_only != 0 {
		return Window{}, false
	}
	if listing {
		if a.override_redirect != 0 {
			return Window{}, false
		}
		if c.frame != c.client {
			if fa, ok := d.attrs(c.frame); !ok || fa.override_redirect != 0 {
				return Window{}, false
			}
		}
	}
	w := Window{ID: uint64(c.client), Mapped: a.map_state == isViewable, Stacking: -1}
	var inst, cls [256]C.char
	if C.nx_class_hint(d.dpy, c.client, &inst[0], C.int(len(inst)), &cls[0], C.int(len(cls))) != 0 {
		w.Instance, w.Class = C.GoString(&inst[0]), C.GoString(&cls[0])
	}
	if t, ok := d.text(c.client, d.atom("_NET_WM_NAME"), 4096); ok {
		w.Title = t
	} else if t, ok := d.text(c.client, xaWMName, 4096); ok {
		w.Title = t
	}
	w.Pid = d.pid(c.client)
	var x, y C.int
	var child C.Window
	C.XTranslateCoordinates(d.dpy, c.client, d.root, 0, 0, &x, &y, &child)
	w.Frame = Rect{X: int(x), Y: int(y), W: int(a.width), H: int(a.height)}
	if d.xerr(false) != nil {
		return Window{}, false
	}
	return w, true
}

// pid is the process behind a window: X-Resource's client id (the X
// server's own knowledge), else the window's _NET_WM_PID, else 0.
func (d *Display) pid(w C.Window) int {
	if d.xresIDs {
		if p := int(C.nx_client_pid(d.dpy, w)); p > 0 {
			return p
		}
	}
	if p, ok := d.cardinal(w, "_NET_WM_PID"); ok && p > 0 && p < 1<<31 {
		return int(p)
	}
	return 0
}

// isDriverClass reports whether a window claims to be one of the driver's.
func isDriverClass(w Window) bool {
	for _, s := range []string{w.Class, w.Instance} {
		if s == DriverClass || s == IndicatorClass {
			return true
		}
	}
	return false
}

// listed is a described client and the outer rectangle of the frame that
// holds it (the client itself without a window manager), in root
// coordinates: what a click at a point would hit.
type listed struct {
	Window
	outer Rect
}

// scan lists described clients topmost first, the driver's own included;
// callers filter.
func (d *Display) scan() []listed {
	list, fromWM := d.stack()
	var out []listed
	for _, c := range list {
		w, ok := d.describe(c, true)
		if !ok || (!fromWM && !w.Mapped) {
			continue
		}
		outer := w.Frame
		if c.frame != c.client {
			if fa, ok := d.attrs(c.frame); ok {
				b := int(fa.border)
				outer = Rect{X: int(fa.x), Y: int(fa.y), W: int(fa.width) + 2*b, H: int(fa.height) + 2*b}
			}
		}
		out = append(out, listed{Window: w, outer: outer})
	}
	return out
}

// TopLevels lists the desktop's top-level client windows, topmost first
// (Stacking 0 is the top). Without a window manager only viewable windows
// are listed; with one, its whole client list (Mapped says which are
// viewable). Override-redirect windows and every window whose WM_CLASS is
// one of the driver's are left out.
func (d *Display) TopLevels() ([]Window, error) {
	var out []Window
	err := d.do(func() error {
		for _, l := range d.scan() {
			if isDriverClass(l.Window) {
				continue
			}
			w := l.Window
			w.Stacking = len(out)
			out = append(out, w)
		}
		return nil
	})
	return out, err
}

// Describe reads one window as TopLevels would describe it (Stacking -1),
// whatever kind of window it is. A window that does not exist is
// ErrWindowGone.
func (d *Display) Describe(id uint64) (Window, error) {
	var w Window
	err := d.do(func() error {
		var ok bool
		w, ok = d.describe(candidate{client: C.Window(id), frame: C.Window(id)}, false)
		if !ok {
			return ErrWindowGone
		}
		return nil
	})
	return w, err
}

// FocusedTopLevel returns the top-level client window holding keyboard
// focus, or 0 for none. When focus follows the pointer (PointerRoot), it is
// the top-level under the pointer.
func (d *Display) FocusedTopLevel() (uint64, error) {
	var out uint64
	err := d.do(func() error {
		var focus C.Window
		var revert C.int
		C.XGetInputFocus(d.dpy, &focus, &revert)
		switch focus {
		case 0: // None
			return nil
		case 1: // PointerRoot
			var root, child C.Window
			var rx, ry, wx, wy C.int
			var mask C.uint
			C.XQueryPointer(d.dpy, d.root, &root, &child, &rx, &ry, &wx, &wy, &mask)
			if child == 0 {
				return nil
			}
			focus = child
		}
		if focus == d.root {
			return nil
		}
		w := focus
		for i := 0; i < 64; i++ {
			if d.hasWMState(w) {
				out = uint64(w)
				return nil
			}
			parent, _, ok := d.queryTree(w)
			if !ok {
				return nil // the focus window vanished
			}
			if parent == d.root || parent == 0 {
				if c := d.clientIn(w); c != 0 {
					w = c
				}
				out = uint64(w)
				return nil
			}
			w = parent
		}
		return nil
	})
	return out, err
}

// Pointer returns the pointer's position in root coordinates.
func (d *Display) Pointer() (x, y int, err error) {
	err = d.do(func() error {
		var root, child C.Window
		var rx, ry, wx, wy C.int
		var mask C.uint
		C.XQueryPointer(d.dpy, d.root, &root, &child, &rx, &ry, &wx, &wy, &mask)
		x, y = int(rx), int(ry)
		return nil
	})
	return x, y, err
}

// TopmostAt returns the topmost viewable top-level whose frame (with a
// window manager, the decorated frame round the client) holds the root
// point (x, y), or 0. It looks through windows this process made
// with the driver's classes (the consent dialog, the indicator) and every
// window skip reports. A window of another process that claims a driver
// class is not looked through: it may be hiding the target.
func (d *Display) TopmostAt(x, y int, skip func(uint64) bool) (uint64, error) {
	var out uint64
	me := os.Getpid()
	err := d.do(func() error {
		for _, l := range d.scan() {
			if !l.Mapped || !l.outer.Contains(x, y) {
				continue
			}
			if isDriverClass(l.Window) && l.Pid == me {
				continue
			}
			if skip != nil && skip(l.ID) {
				continue
			}
			out = l.ID
			return nil
		}
		return nil
	})
	return out, err
}

// Raise raises a window and gives it keyboard focus. With a window manager
// it asks the manager (_NET_ACTIVE_WINDOW); without one it raises the
// window's top-level and sets the focus itself.
func (d *Display) Raise(id uint64) error {
	return d.do(func() error {
		w := C.Window(id)
		frame, ok := d.topLevelOf(w)
		if !ok {
			if err := d.xerr(false); err != nil {
				return err
			}
			return ErrWindowGone
		}
		if d.wmPresent() {
			const sourcePager = 2
			const mask = C.SubstructureRedirectMask | C.SubstructureNotifyMask
			d.conn.x.SendClientMessage(uint64(d.root), uint64(w), uint64(d.atom("_NET_ACTIVE_WINDOW")), [5]int64{sourcePager}, mask)
			C.XRaiseWindow(d.dpy, frame)
			return d.xerr(true)
		}
		C.XRaiseWindow(d.dpy, frame)
		C.XSetInputFocus(d.dpy, w, C.RevertToParent, C.CurrentTime)
		return d.xerr(true)
	})
}
