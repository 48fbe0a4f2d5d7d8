//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
*/
import "C"

import (
	"slices"
	"time"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// Synthetic input through XTEST. The X server treats these events as real
// device input (their send_event flag is false), which is what a takeover
// needs and what tests playing the person use.
//
// A keysym with no keycode in the current keymap (a rare symbol, a letter of
// another script) is mapped onto a spare keycode (one with no keysyms) for
// the press and restored shortly after the release. The restore waits a
// moment because the receiving app looks the keycode up when it handles the
// event, which may be after the release was sent.

// spareRestoreDelay is how long a spare keycode keeps its borrowed keysym
// after the release.
const spareRestoreDelay = 200 * time.Millisecond

// keyboard is a Display's key and button bookkeeping (loop only).
type keyboard struct {
	pressed map[C.KeySym]keyPress // keysyms held down, and how
	spares  map[C.KeySym]*spare   // keysyms borrowing a spare keycode
	buttons map[int]bool          // buttons held down
	gen     int
}

// keyPress is how a held keysym was pressed.
type keyPress struct {
	code  C.KeyCode
	shift C.KeyCode // the Shift key pressed with it, or 0
}

// spare is a keycode lent to a keysym; gen tells a pending restore whether
// the keycode was pressed again since.
type spare struct {
	code C.KeyCode
	gen  int
}

func (k *keyboard) init() {
	if k.pressed == nil {
		k.pressed = map[C.KeySym]keyPress{}
		k.spares = map[C.KeySym]*spare{}
		k.buttons = map[int]bool{}
	}
}

// Keysyms the package names itself.
const (
	noSymbol   = C.KeySym(0)
	ksShiftL   = C.KeySym(0xffe1)
	ksShiftR   = C.KeySym(0xffe2)
	ksReturn   = C.KeySym(0xff0d)
	ksTab      = C.KeySym(0xff09)
	ksBack     = C.KeySym(0xff08)
	ksEscape   = C.KeySym(0xff1b)
	ksDelete   = C.KeySym(0xffff)
	unicodeKey = xconn.UnicodeKeysym
)

// FakeMotion moves the pointer to root coordinates (x, y).
func (d *Display) FakeMotion(x, y int) error {
	return d.do(func() error {
		C.XTestFakeMotionEvent(d.dpy, -1, C.int(x), C.int(y), C.CurrentTime)
		C.XFlush(d.dpy)
		return nil
	})
}

// FakeButton presses or releases a pointer button (1 left, 3 right, 4-7
// scroll, 8-9 back and forward). Button 2 is refused with ErrMiddleButton.
func (d *Display) FakeButton(button int, press bool) error {
	if button == 2 {
		return ErrMiddleButton
	}
	if button < 1 || button > 9 {
		return ErrUnknownButton
	}
	return d.do(func() error {
		d.keys.init()
		C.XTestFakeButtonEvent(d.dpy, C.uint(button), cBool(press), C.CurrentTime)
		C.XFlush(d.dpy)
		if press {
			d.keys.buttons[button] = true
		} else {
			delete(d.keys.buttons, button)
		}
		return nil
	})
}

// FakeKey presses or releases the key of an X keysym name ("Return", "a",
// "F5", "plus"). A keysym that sits at the shift level is sent with Shift.
func (d *Display) FakeKey(keysym string, press bool) error {
	return d.do(func() error {
		ks := d.keysym(keysym)
		if ks == noSymbol {
			return ErrUnknownKey
		}
		return d.sendKeysym(ks, press)
	})
}

// FakeChar presses or releases the key that types r: its Latin-1 keysym or
// its Unicode keysym (0x01000000 + r), with Shift when the keysym sits at
// the shift level, on a borrowed spare keycode when the keymap lacks it.
// Newline, tab, backspace, escape and delete map to their keys; other
// control characters are ErrUnknownKey.
func (d *Display) FakeChar(r rune, press bool) error {
	ks, ok := keysymForRune(r)
	if !ok {
		return ErrUnknownKey
	}
	return d.do(func() error { return d.sendKeysym(ks, press) })
}

// HasKeysym reports whether name is an X keysym name this display can send
// (it has a keycode, or a spare keycode is free to lend).
func (d *Display) HasKeysym(name string) bool {
	var ok bool
	_ = d.do(func() error {
		ks := d.keysym(name)
		if ks == noSymbol {
			return nil
		}
		d.keys.init()
		_, lent := d.keys.spares[ks]
		ok = lent || C.XKeysymToKeycode(d.dpy, ks) != 0 || d.freeSpare() != 0
		return nil
	})
	return ok
}

// keysymForRune returns the keysym that types r.
func keysymForRune(r rune) (C.KeySym, bool) {
	switch {
	case r == '\n' || r == '\r':
		return ksReturn, true
	case r == '\t':
		return ksTab, true
	case r == '\b':
		return ksBack, true
	case r == 0x1b:
		return ksEscape, true
	case r == 0x7f:
		return ksDelete, true
	case r < 0x20 || (r >= 0x80 && r < 0xa0) || r > 0x10ffff || (r >= 0xd800 && r < 0xe000):
		return noSymbol, false
	case r < 0x100:
		return C.KeySym(r), true
	default:
		return C.KeySym(unicodeKey + r), true
	}
}

// keysym looks up a keysym name (noSymbol for "" or an unknown name).
func (d *Display) keysym(name string) C.KeySym { return C.KeySym(xconn.Keysym(name)) }

// sendKeysym presses or releases a keysym (loop only).
func (d *Display) sendKeysym(ks C.KeySym, press bool) error {
	d.keys.init()
	if !press {
		d.releaseKeysym(ks)
		C.XFlush(d.dpy)
		return nil
	}
	if kp, ok := d.keys.pressed[ks]; ok { // pressed again while held: a repeat
		C.XTestFakeKeyEvent(d.dpy, C.uint(kp.code), C.True, C.CurrentTime)
		C.XFlush(d.dpy)
		return nil
	}
	code, level := d.keycodeFor(ks)
	if code == 0 || level > 1 {
		var err error
		if code, err = d.lendSpare(ks); err != nil {
			return err
		}
		level = 0
	}
	if sp, ok := d.keys.spares[ks]; ok {
		d.keys.gen++
		sp.gen = d.keys.gen
	}
	kp := keyPress{code: code}
	if level == 1 && !d.shiftHeld() {
		kp.shift = C.XKeysymToKeycode(d.dpy, ksShiftL)
		if kp.shift != 0 {
			C.XTestFakeKeyEvent(d.dpy, C.uint(kp.shift), C.True, C.CurrentTime)
		}
	}
	C.XTestFakeKeyEvent(d.dpy, C.uint(code), C.True, C.CurrentTime)
	d.keys.pressed[ks] = kp
	C.XFlush(d.dpy)
	return nil
}

// releaseKeysym releases a keysym, and the Shift pressed with it.
func (d *Display) releaseKeysym(ks C.KeySym) {
	kp, ok := d.keys.pressed[ks]
	if !ok {
		// Not pressed through this Display: release its key anyway, so a
		// caller can always let go of a key.
		if code, _ := d.keycodeFor(ks); code != 0 {
			C.XTestFakeKeyEvent(d.dpy, C.uint(code), C.False, C.CurrentTime)
		}
		return
	}
	delete(d.keys.pressed, ks)
	C.XTestFakeKeyEvent(d.dpy, C.uint(kp.code), C.False, C.CurrentTime)
	if kp.shift != 0 {
		C.XTestFakeKeyEvent(d.dpy, C.uint(kp.shift), C.False, C.CurrentTime)
	}
	if sp, ok := d.keys.spares[ks]; ok {
		gen := sp.gen
		time.AfterFunc(spareRestoreDelay, func() {
			d.post(func() error {
				if cur, ok := d.keys.spares[ks]; ok && cur.gen == gen {
					if _, held := d.keys.pressed[ks]; !held {
						d.restoreSpare(ks)
						C.XFlush(d.dpy)
					}
				}
				return nil
			})
		})
	}
}

// shiftHeld reports whether this Display holds a Shift key down.
func (d *Display) shiftHeld() bool {
	_, l := d.keys.pressed[ksShiftL]
	_, r := d.keys.pressed[ksShiftR]
	return l || r
}

// keycodeFor finds a keycode for ks and the level (0 plain, 1 shifted, 2+
// other) it sits at, reading the live keymap; code 0 means none.
func (d *Display) keycodeFor(ks C.KeySym) (code C.KeyCode, level int) {
	if sp, ok := d.keys.spares[ks]; ok {
		return sp.code, 0
	}
	code = C.XKeysymToKeycode(d.dpy, ks)
	if code == 0 {
		return 0, -1
	}
	// Xlib's keymap copy may be stale; the server's answer is not.
	if i := slices.Index(d.keysymsOf(code, 1), ks); i >= 0 {
		return code, i
	}
	return 0, -1
}

// keysymsOf reads the keysyms of count keycodes from first, row by row.
func (d *Display) keysymsOf(first C.KeyCode, count int) []C.KeySym {
	var per C.int
	syms := C.XGetKeyboardMapping(d.dpy, first, C.int(count), &per)
	if syms == nil {
		return nil
	}
	defer C.XFree(unsafe.Pointer(syms))
	return slices.Clone(unsafe.Slice(syms, int(per)*count))
}

// freeSpare finds a keycode with no keysyms that is not lent, highest
// first, or returns 0.
func (d *Display) freeSpare() C.KeyCode {
	var lo, hi C.int
	C.XDisplayKeycodes(d.dpy, &lo, &hi)
	count := int(hi - lo + 1)
	syms := d.keysymsOf(C.KeyCode(lo), count)
	if len(syms) == 0 || len(syms)%count != 0 {
		return 0
	}
	per := len(syms) / count
	lent := map[C.KeyCode]bool{}
	for _, sp := range d.keys.spares {
		lent[sp.code] = true
	}
	for i := count - 1; i >= 0; i-- {
		code := C.KeyCode(int(lo) + i)
		if lent[code] {
			continue
		}
		if !slices.ContainsFunc(syms[i*per:(i+1)*per], func(s C.KeySym) bool { return s != noSymbol }) {
			return code
		}
	}
	return 0
}

// lendSpare maps ks onto a spare keycode (taking one back from a released
// keysym when none is free).
func (d *Display) lendSpare(ks C.KeySym) (C.KeyCode, error) {
	code := d.freeSpare()
	if code == 0 {
		for other := range d.keys.spares {
			if _, held := d.keys.pressed[other]; !held {
				d.restoreSpare(other)
				code = d.freeSpare()
				break
			}
		}
	}
	if code == 0 {
		return 0, ErrNoKeycode
	}
	syms := []C.KeySym{ks, ks}
	C.XChangeKeyboardMapping(d.dpy, C.int(code), 2, &syms[0], 1)
	if err := d.xerr(true); err != nil {
		return 0, err
	}
	d.keys.spares[ks] = &spare{code: code}
	return code, nil
}

// restoreSpare gives a lent keycode its empty mapping back.
func (d *Display) restoreSpare(ks C.KeySym) {
	sp, ok := d.keys.spares[ks]
	if !ok {
		return
	}
	delete(d.keys.spares, ks)
	syms := []C.KeySym{noSymbol, noSymbol}
	C.XChangeKeyboardMapping(d.dpy, C.int(sp.code), 2, &syms[0], 1)
}

// releaseAll lets go of every key and button this Display holds and
// restores lent keycodes; it runs when the Display closes.
func (d *Display) releaseAll() {
	d.keys.init()
	for ks := range d.keys.pressed {
		d.releaseKeysym(ks)
	}
	for b := range d.keys.buttons {
		C.XTestFakeButtonEvent(d.dpy, C.uint(b), C.False, C.CurrentTime)
	}
	clear(d.keys.buttons)
	for ks := range d.keys.spares {
		d.restoreSpare(ks)
	}
	C.XSync(d.dpy, C.False)
}

func cBool(b bool) C.int {
	if b {
		return C.True
	}
	return C.False
}
