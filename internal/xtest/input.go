//go:build cgo

package xtest

/*
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
*/
import "C"

import (
	"fmt"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// HeldInput lists the keys (by the keysym at group 0, level 0, or
// "keycode N") and pointer buttons (1-5) that are down right now, as any
// client can see: what a takeover must never leave held.
func (d *Display) HeldInput() (keys []string, buttons []int, err error) {
	err = d.call(func() {
		var bits [32]C.char
		C.XQueryKeymap(d.dpy, &bits[0])
		for code := 8; code < 256; code++ {
			if bits[code/8]&(1<<(code%8)) == 0 {
				continue
			}
			name := xconn.KeysymName(uint64(C.XkbKeycodeToKeysym(d.dpy, C.KeyCode(code), 0, 0)))
			if name == "" {
				name = fmt.Sprintf("keycode %d", code)
			}
			keys = append(keys, name)
		}
		mask := d.pointerMask()
		for b := 1; b <= 5; b++ {
			if mask&(1<<(7+b)) != 0 {
				buttons = append(buttons, b)
			}
		}
	})
	return keys, buttons, err
}

// PointerButtons returns the pointer's button state mask (Button1Mask is
// 1<<8, Button3Mask 1<<10).
func (d *Display) PointerButtons() (uint, error) {
	var mask uint
	err := d.call(func() {
		mask = d.pointerMask()
	})
	return mask, err
}

// pointerMask reads the pointer's modifier and button mask (loop only).
func (d *Display) pointerMask() uint {
	var root, child C.Window
	var rx, ry, wx, wy C.int
	var mask C.uint
	C.XQueryPointer(d.dpy, d.root, &root, &child, &rx, &ry, &wx, &wy, &mask)
	return uint(mask)
}

// KeyDown reports whether the key of a keysym name ("Shift_L") is down.
func (d *Display) KeyDown(name string) (bool, error) {
	var down bool
	err := d.call(func() {
		code := C.XKeysymToKeycode(d.dpy, C.KeySym(xconn.Keysym(name)))
		var keys [32]C.char
		C.XQueryKeymap(d.dpy, &keys[0])
		down = code != 0 && keys[code/8]&(1<<(code%8)) != 0
	})
	return down, err
}
