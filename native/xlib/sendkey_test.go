//go:build cgo

package xlib

import (
	"errors"
	"testing"
)

// TestSendCharUsesTheKeymapAsItIs: a character sends only with a keycode
// of its own at level 0 or 1 (Shift); one the US keymap lacks is
// ErrNoKeycode (no spare keycode is lent for it), and a control
// character is ErrUnknownKey, both before anything is sent.
func TestSendCharUsesTheKeymapAsItIs(t *testing.T) {
	cases := []struct {
		r    rune
		want error
	}{
		{'a', nil},
		{'A', nil}, // Shift in the event's state
		{'!', nil},
		{' ', nil},
		{'\n', nil},
		{'ж', ErrNoKeycode},
		{'ß', ErrNoKeycode},
		{0x07, ErrUnknownKey},
	}
	for _, c := range cases {
		if got := dpy.CanSendChar(c.r); got != (c.want == nil) {
			t.Errorf("CanSendChar(%q) = %v, want %v", c.r, got, c.want == nil)
		}
		if c.want == nil {
			continue
		}
		// The window does not matter: the refusal comes first.
		if err := dpy.SendChar(0, c.r, true); !errors.Is(err, c.want) {
			t.Errorf("SendChar(%q) = %v, want %v", c.r, err, c.want)
		}
	}
}
