//go:build cgo

package xlib

import (
	"errors"
	"testing"

	"github.com/nish-driver/nish-driver/internal/xtest"
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

// TestSendKeyUsesTheKeymapAsItIs: a named key sends only with a keycode
// of its own at level 0 or 1, as a character does; a keysym the US keymap
// lacks is ErrNoKeycode and an unknown name ErrUnknownKey, both before
// anything is sent.
func TestSendKeyUsesTheKeymapAsItIs(t *testing.T) {
	cases := []struct {
		name string
		want error
	}{
		{"Return", nil},
		{"BackSpace", nil},
		{"Left", nil},
		{"A", nil}, // Shift in the event's state
		{"Cyrillic_zhe", ErrNoKeycode},
		{"no-such-key", ErrUnknownKey},
	}
	for _, c := range cases {
		if got := dpy.CanSendKey(c.name); got != (c.want == nil) {
			t.Errorf("CanSendKey(%q) = %v, want %v", c.name, got, c.want == nil)
		}
		if c.want == nil {
			continue
		}
		if err := dpy.SendKey(0, c.name, true); !errors.Is(err, c.want) {
			t.Errorf("SendKey(%q) = %v, want %v", c.name, err, c.want)
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
