//go:build cgo

package xlib

/*
#include "nx.h"
*/
import "C"

// The window_keys path: key events sent with XSendEvent to one app's window, not
// through XTEST. The person's keyboard and pointer, the input focus and the
// stacking order are untouched; only the clients that selected key events
// on that window receive them, with send_event set. See docs/decisions.md,
// "Window keys".

// shiftMask is X's ShiftMask modifier bit.
const shiftMask = 1

// SendChar sends the key press (press set) or release that types r to
// window through XSendEvent: the keycode of r's keysym in the current
// keymap, with Shift in the event's state when the keysym sits at the
// shift level. Nothing is pressed on the real keyboard, so there is
// nothing to release after. A rune whose keysym has no keycode at level 0
// or 1 is ErrNoKeycode: lending a spare keycode (as FakeChar does) would
// change the keymap the person types with. Control characters other than
// newline, tab, backspace, escape and delete are ErrUnknownKey. A window
// that no longer exists is ErrWindowGone (X errors are trapped and waited
// for).
func (d *Display) SendChar(window uint64, r rune, press bool) error {
	return d.sendTo(window, press, func() (C.uint, C.uint, error) { return d.sendKey(r) })
}

// CanSendChar reports whether SendChar can type r with the keymap as it
// is: a caller checks a whole text before sending any of it.
func (d *Display) CanSendChar(r rune) bool {
	return d.canSend(func() (C.uint, C.uint, error) { return d.sendKey(r) })
}

// SendKey sends the press (press set) or release of the key named by an X
// keysym name ("Return", "BackSpace", "a") to window through XSendEvent,
// as SendChar does for a character: the keycode of the keysym in the
// current keymap, with Shift when it sits at the shift level, no spare
// keycode lent. An unknown name is ErrUnknownKey, a keysym without a
// keycode at level 0 or 1 ErrNoKeycode.
func (d *Display) SendKey(window uint64, name string, press bool) error {
	return d.sendTo(window, press, func() (C.uint, C.uint, error) { return d.keyOf(d.keysym(name)) })
}

// CanSendKey reports whether SendKey can send the key named name with the
// keymap as it is: a caller asks before focusing anything.
func (d *Display) CanSendKey(name string) bool {
	return d.canSend(func() (C.uint, C.uint, error) { return d.keyOf(d.keysym(name)) })
}

// sendTo sends the key press or release that key (run on the display's
// thread) names to window; key's error first, nothing sent.
func (d *Display) sendTo(window uint64, press bool, key func() (C.uint, C.uint, error)) error {
	return d.do(func() error {
		code, state, err := key()
		if err != nil {
			return err
		}
		C.nx_send_key(d.dpy, d.root, C.Window(window), code, state, cBool(press))
		return d.xerr(true)
	})
}

// canSend reports whether key (run on the display's thread) names a key.
func (d *Display) canSend(key func() (C.uint, C.uint, error)) bool {
	return d.do(func() error {
		_, _, err := key()
		return err
	}) == nil
}

// sendKey is the keycode and modifier state that type r in the current
// keymap, without lending a spare keycode. Runs on the display's thread.
func (d *Display) sendKey(r rune) (C.uint, C.uint, error) {
	ks, ok := keysymForRune(r)
	if !ok {
		return 0, 0, ErrUnknownKey
	}
	return d.keyOf(ks)
}

// keyOf is the keycode and modifier state of keysym ks in the current
// keymap (level 0, or level 1 with Shift), without lending a spare
// keycode. Runs on the display's thread.
func (d *Display) keyOf(ks C.KeySym) (C.uint, C.uint, error) {
	if ks == noSymbol {
		return 0, 0, ErrUnknownKey
	}
	d.keys.init()
	code, level := d.keycodeFor(ks)
	if code == 0 || level < 0 || level > 1 {
		return 0, 0, ErrNoKeycode
	}
	state := C.uint(0)
	if level == 1 {
		state = shiftMask
	}
	return C.uint(code), state, nil
}

// SendFocusChange sends a synthetic FocusIn (in set) or FocusOut to
// window through XSendEvent, as a focus moving between top-levels carries
// it (NotifyNormal, NotifyNonlinear). The X input focus and the stacking
// do not move; only the window's own clients hear it. Chromium takes keys
// sent to its window only while it believes it holds the focus, so the
// window_keys path brackets its keys with these (docs/decisions.md,
// "Window keys"). A window that no longer exists is ErrWindowGone.
func (d *Display) SendFocusChange(window uint64, in bool) error {
	return d.do(func() error {
		C.nx_send_focus(d.dpy, C.Window(window), cBool(in))
		return d.xerr(true)
	})
}
