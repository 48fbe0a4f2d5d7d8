//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
*/
import "C"

import "github.com/nish-driver/nish-driver/internal/xconn"

// KeyEcho predicts the echo of FakeKey(name, true), or of FakeChar(r, true)
// when name is "". Call it right before the press: the answer follows the
// keymap and the keys this Display holds at that moment.
func (d *Display) KeyEcho(name string, r rune) (KeyEcho, error) {
	var out KeyEcho
	err := d.do(func() error {
		var ks C.KeySym
		if name != "" {
			ks = d.keysym(name)
		} else {
			var ok bool
			if ks, ok = keysymForRune(r); !ok {
				return ErrUnknownKey
			}
		}
		if ks == noSymbol {
			return ErrUnknownKey
		}
		d.keys.init()
		if kp, held := d.keys.pressed[ks]; held { // a repeat of a held key
			out.Keysym = d.levelZero(kp.code)
			return nil
		}
		if _, lent := d.keys.spares[ks]; lent {
			out.Keysym = xconn.KeysymName(uint64(ks))
			return nil
		}
		code, level := d.keycodeFor(ks)
		if code == 0 || level > 1 {
			// sendKeysym lends a spare keycode holding ks at every level.
			out.Keysym = xconn.KeysymName(uint64(ks))
			return nil
		}
		out.Keysym = d.levelZero(code)
		if level == 1 && !d.shiftHeld() {
			if sc := C.XKeysymToKeycode(d.dpy, ksShiftL); sc != 0 {
				out.Shift = d.levelZero(sc)
			}
		}
		return nil
	})
	return out, err
}

// levelZero names the keysym at group 0, level 0 of a keycode, as the
// watcher does.
func (d *Display) levelZero(code C.KeyCode) string {
	return xconn.KeysymName(uint64(C.XkbKeycodeToKeysym(d.dpy, code, 0, 0)))
}
