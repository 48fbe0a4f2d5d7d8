//go:build cgo

package xconn_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// TestKeysymNames names keysyms as the watcher and the echo do: a keysym
// outside the range where Xlib makes names up is named as XKeysymToString
// names it, and one inside it in Xlib's made-up form; each name reads back
// (XStringToKeysym) as the same keysym.
func TestKeysymNames(t *testing.T) {
	cases := []struct {
		what string
		ks   uint64
		want string
	}{
		{"an ASCII letter", 0x61, "a"},
		{"a named key", 0xff0d, "Return"},
		{"Shift", 0xffe1, "Shift_L"},
		{"no symbol", 0, ""},
		{"a Unicode keysym of Latin-1, which Xlib does not name", 0x10000e9, ""},
		{"the first Unicode keysym Xlib makes a name up for", 0x1000100, "U0100"},
		{"the euro sign by its code point", 0x10020ac, "U20AC"},
		{"a Unicode keysym Xlib's table names", 0x1001ea0, "U1EA0"},
		{"the last of the Basic Multilingual Plane", 0x100ffff, "UFFFF"},
		{"one beyond the Basic Multilingual Plane", 0x101f600, "U0001F600"},
		{"the last code point", 0x110ffff, "U0010FFFF"},
		{"past the last code point", 0x1110000, ""},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			got := xconn.KeysymName(c.ks)
			if got != c.want {
				t.Fatalf("keysym %#x is named %q, want %q", c.ks, got, c.want)
			}
			if got == "" {
				return
			}
			if back := xconn.Keysym(got); back != c.ks {
				t.Fatalf("keysym %#x is named %q, which XStringToKeysym reads as %#x", c.ks, got, back)
			}
		})
	}
}
