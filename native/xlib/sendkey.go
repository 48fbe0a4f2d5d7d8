//go:build cgo

package xlib

/*
#include "nx.h"
*/
import "C"

// Quiet typing: key events sent with XSendEvent to one app's window, not
// through XTEST. The person's keyboard and pointer, the input focus and the
// stacking order are untouched; only the clients that selected key events
// on that window receive them, with send_event set. See docs/decisions.md,
// "Quiet typing (measured, not built)".

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
	ks, ok := keysymForRune(r)
	if !ok {
		return ErrUnknownKey
	}
	return d.do(func() error {
		d.keys.init()
		code, level := d.keycodeFor(ks)
		if code == 0 || level > 1 {
			return ErrNoKeycode
		}
		state := C.uint(0)
		if level == 1 {
			state = shiftMask
		}
		C.nx_send_key(d.dpy, d.root, C.Window(window), C.uint(code), state, cBool(press))
		return d.xerr(true)
	})
}

// InputFocus returns the window holding the X input focus as the server
// reports it (not walked up to its top-level): 0 for None, 1 for
// PointerRoot.
func (d *Display) InputFocus() (uint64, error) {
	var out uint64
	err := d.do(func() error {
		var focus C.Window
		var revert C.int
		C.XGetInputFocus(d.dpy, &focus, &revert)
		out = uint64(focus)
		return nil
	})
	return out, err
}

// SendFocusIn sends a synthetic FocusIn to window through XSendEvent: the
// app may take itself for focused while the X focus stays where it is.
// It is a measurement aid for quiet typing, not a path the driver takes.
func (d *Display) SendFocusIn(window uint64) error {
	return d.do(func() error {
		C.nx_send_focus_in(d.dpy, C.Window(window))
		return d.xerr(true)
	})
}
