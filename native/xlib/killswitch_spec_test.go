package xlib

import (
	"errors"
	"slices"
	"testing"
)

func TestParseKeyComboReadsModifiersAndOneKey(t *testing.T) {
	cases := []struct {
		in   string
		want KeyCombo
		text string
		err  bool
	}{
		{in: "ctrl+alt+shift+Escape", want: KeyCombo{Mods: modControl | mod1 | modShift, Key: "Escape"}, text: "Ctrl+Alt+Shift+Escape"},
		{in: " Control + Super + F12 ", want: KeyCombo{Mods: modControl | mod4, Key: "F12"}, text: "Ctrl+Super+F12"},
		{in: "SHIFT+mod1+k", want: KeyCombo{Mods: modShift | mod1, Key: "k"}, text: "Alt+Shift+k"},
		{in: "Escape", err: true},
		{in: "ctrl+", err: true},
		{in: "hyper+Escape", err: true},
		{in: "ctrl+alt+Page Up", err: true},
		{in: "", err: true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseKeyCombo(c.in)
			if c.err {
				if !errors.Is(err, ErrBadKeyCombo) {
					t.Fatalf("ParseKeyCombo(%q) = %+v, %v; want ErrBadKeyCombo", c.in, got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("ParseKeyCombo(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			}
			if got.String() != c.text {
				t.Fatalf("String() = %q, want %q", got.String(), c.text)
			}
		})
	}
}

func TestLockVariantsCoverCapsLockAndNumLock(t *testing.T) {
	cases := []struct {
		numLock uint
		want    []uint
	}{
		{mod2, []uint{0, modLock, mod2, mod2 | modLock}},
		{0, []uint{0, modLock}},
		{modLock, []uint{0, modLock}},
	}
	for _, c := range cases {
		if got := lockVariants(c.numLock); !slices.Equal(got, c.want) {
			t.Errorf("lockVariants(%#x) = %v, want %v", c.numLock, got, c.want)
		}
	}
}
