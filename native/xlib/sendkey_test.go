//go:build cgo

package xlib

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nish-driver/nish-driver/internal/xtest"
)

// TestSendUsesTheKeymapAsItIs: a character (SendChar) or a named key
// (SendKey) sends only with a keycode of its own at level 0 or 1 (Shift);
// one the US keymap lacks is ErrNoKeycode (no spare keycode is lent for
// it), and a control character or an unknown name is ErrUnknownKey, both
// before anything is sent.
func TestSendUsesTheKeymapAsItIs(t *testing.T) {
	cases := []struct {
		r    rune   // a character, or
		name string // a key name
		want error
	}{
		{'a', "", nil},
		{'A', "", nil}, // Shift in the event's state
		{'!', "", nil},
		{' ', "", nil},
		{'\n', "", nil},
		{'ж', "", ErrNoKeycode},
		{'ß', "", ErrNoKeycode},
		{0x07, "", ErrUnknownKey},
		{0, "Return", nil},
		{0, "BackSpace", nil},
		{0, "Left", nil},
		{0, "A", nil},
		{0, "Cyrillic_zhe", ErrNoKeycode},
		{0, "no-such-key", ErrUnknownKey},
	}
	for _, c := range cases {
		what, can, send := fmt.Sprintf("%q", c.r), dpy.CanSendChar(c.r), func() error { return dpy.SendChar(0, c.r, true) }
		if c.name != "" {
			what, can, send = c.name, dpy.CanSendKey(c.name), func() error { return dpy.SendKey(0, c.name, true) }
		}
		if can != (c.want == nil) {
			t.Errorf("%s can be sent: %v, want %v", what, can, c.want == nil)
		}
		if c.want == nil {
			continue
		}
		// The window does not matter: the refusal comes first.
		if err := send(); !errors.Is(err, c.want) {
			t.Errorf("sending %s: %v, want %v", what, err, c.want)
		}
	}
}

// TestSendFocusChangeTrapsAGoneWindow: a focus change sent to a live
// window is no error, both ways; to a window that no longer exists it is
// ErrWindowGone, trapped, and the connection goes on.
func TestSendFocusChangeTrapsAGoneWindow(t *testing.T) {
	live, err := xt.NewPlainWindow(xtest.PlainWindow{Frame: xtest.Rect{X: 10, Y: 10, W: 50, H: 50}, RGB: 0x808080, Class: "focus-change", Title: "focus change"})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := xt.NewPlainWindow(xtest.PlainWindow{Frame: xtest.Rect{X: 70, Y: 10, W: 50, H: 50}, RGB: 0x808080, Class: "focus-change", Title: "focus change gone"})
	if err != nil {
		t.Fatal(err)
	}
	defer xt.DestroyWindow(live)
	if err := xt.DestroyWindow(gone); err != nil {
		t.Fatal(err)
	}
	for _, in := range []bool{true, false} {
		if err := dpy.SendFocusChange(live, in); err != nil {
			t.Errorf("SendFocusChange(live, %v) = %v", in, err)
		}
		if err := dpy.SendFocusChange(gone, in); !errors.Is(err, ErrWindowGone) {
			t.Errorf("SendFocusChange(gone, %v) = %v, want ErrWindowGone", in, err)
		}
	}
}
