//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include "nx.h"
*/
import "C"

import "fmt"

// What any X client can see of the driver's takeover: which keys and
// buttons are down on the server, and a window's input shape. Tests use
// them from a connection of their own to check that nothing stays held and
// that the indicator lets clicks through.

// HeldInput lists the keys (by their level-0 keysym name, or "keycode N")
// and pointer buttons (1-5) that are down right now.
func (d *Display) HeldInput() (keys []string, buttons []int, err error) {
	err = d.do(func() error {
		var bits [32]C.char
		C.XQueryKeymap(d.dpy, &bits[0])
		for code := 8; code < 256; code++ {
			if bits[code/8]&(1<<(code%8)) == 0 {
				continue
			}
			name := d.levelZero(C.KeyCode(code))
			if name == "" {
				name = fmt.Sprintf("keycode %d", code)
			}
			keys = append(keys, name)
		}
		var root, child C.Window
		var rx, ry, wx, wy C.int
		var mask C.uint
		C.XQueryPointer(d.dpy, d.root, &root, &child, &rx, &ry, &wx, &wy, &mask)
		for b := 1; b <= 5; b++ {
			if mask&(1<<(7+b)) != 0 {
				buttons = append(buttons, b)
			}
		}
		return nil
	})
	return keys, buttons, err
}

// InputShapeRects returns how many rectangles make a window's input shape
// (0: clicks pass through it).
func (d *Display) InputShapeRects(id uint64) (int, error) {
	return d.inputRects(id)
}

// DestroyWindow destroys any client's window, as any X client may: the
// tests play another app taking the takeover indicator down.
func (d *Display) DestroyWindow(id uint64) error {
	return d.destroyWindow(id)
}

// MoveWindow moves a top-level window, as any X client may when no window
// manager redirects the request: the tests put an app on a second monitor.
func (d *Display) MoveWindow(id uint64, x, y int) error {
	return d.do(func() error {
		C.XMoveWindow(d.dpy, C.Window(id), C.int(x), C.int(y))
		return d.xerr(true)
	})
}
