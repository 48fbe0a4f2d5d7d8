//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
*/
import "C"

import "fmt"

// keysymName names a keysym as the input watcher reports it and KeyEcho
// predicts it ("a", "Return", "Shift_L"; "" for none): both name keys
// here, so the names takeover_echo.go compares are made one way.
//
// Xlib's XKeysymToString returns a name from its static table, but for a
// Unicode keysym it has no name for (U+0100 and up, as every character
// typed beyond Latin-1 is sent) it allocates a new string on each call,
// one its caller cannot tell from a static name and so cannot free: a
// leak on every echo and every key the watcher sees. So those keysyms are
// named here, in the form Xlib gives them, and Xlib is never asked.
func keysymName(ks uint64) string {
	if name, ok := unicodeKeysymName(ks); ok {
		return name
	}
	return xlibKeysymName(ks)
}

// xlibKeysymName is Xlib's name of a keysym that is not in the range
// where it allocates one (unicodeKeysymName).
func xlibKeysymName(ks uint64) string {
	if ks == uint64(noSymbol) {
		return ""
	}
	if s := C.XKeysymToString(C.KeySym(ks)); s != nil {
		return C.GoString(s)
	}
	return ""
}

// unicodeKeysymName names a keysym of the range where Xlib makes names up
// (0x01000100 to 0x0110FFFF: code points U+0100 to U+10FFFF) as Xlib
// does: "U" and the code point in upper-case hex, four digits in the
// Basic Multilingual Plane and eight beyond ("U20AC", "U0001F600");
// XStringToKeysym reads it back. The few keysyms of that range Xlib's
// table names (0x01001EA0, "Abelowdot") are named so too: the watcher and
// the echo agree, and the name reads back as the same keysym.
func unicodeKeysymName(ks uint64) (string, bool) {
	if ks < unicodeKey+0x100 || ks > unicodeKey+0x10FFFF {
		return "", false
	}
	cp := ks - unicodeKey
	if cp > 0xFFFF {
		return fmt.Sprintf("U%08X", cp), true
	}
	return fmt.Sprintf("U%04X", cp), true
}
