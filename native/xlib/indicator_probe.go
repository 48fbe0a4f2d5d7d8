//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

// Probes the indicator's tests use from a second connection: what another
// client on the desktop can see of, and do to, the indicator.

// inputRects returns how many rectangles make a window's input shape.
func (d *Display) inputRects(id uint64) (int, error) {
	var n int
	err := d.do(func() error {
		n = int(C.nx_shape_input_count(d.dpy, C.Window(id)))
		return d.xerr(true)
	})
	return n, err
}

// stackIndex returns a root child's place in the stacking order (0 is the
// bottom), or -1 when it is not a child of the root.
func (d *Display) stackIndex(id uint64) (int, error) {
	i := -1
	err := d.do(func() error {
		_, children, ok := d.queryTree(d.root)
		if !ok {
			return d.xerr(false)
		}
		for k, c := range children {
			if uint64(c) == id {
				i = k
			}
		}
		return nil
	})
	return i, err
}

// killClient closes the connection of the client that made a window, as
// xkill does.
func (d *Display) killClient(id uint64) error {
	return d.do(func() error {
		C.XKillClient(d.dpy, C.XID(id))
		return d.xerr(true)
	})
}
