//go:build cgo

package xconn

/*
#cgo pkg-config: x11
#include <stdlib.h>
#include <X11/Xlib.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// UnicodeKeysym is where the keysyms of code points start: a character
// beyond Latin-1 is the keysym UnicodeKeysym plus its code point.
const UnicodeKeysym = 0x01000000

// KeysymName names a keysym as Xlib does ("a", "Return", "Shift_L"; "" for
// none or one it has no name for). Both X clients name keys with it, so the
// names the driver's input watcher reports, the ones its key echo predicts
// and the ones a test reads back are made one way.
//
// Xlib's XKeysymToString returns a name from its static table, but for a
// Unicode keysym it has no name for (U+0100 and up, as every character
// typed beyond Latin-1 is sent) it allocates a new string on each call,
// one its caller cannot tell from a static name and so cannot free: a
// leak on every key a takeover's watcher sees. So those keysyms are named
// here, in the form Xlib gives them, and Xlib is never asked.
func KeysymName(ks uint64) string {
	if name, ok := unicodeKeysymName(ks); ok {
		return name
	}
	if ks == 0 {
		return ""
	}
	if s := C.XKeysymToString(C.KeySym(ks)); s != nil {
		return C.GoString(s)
	}
	return ""
}

// Keysym is the keysym of a name KeysymName gives (or any name Xlib
// knows), 0 for "" or a name it does not know.
func Keysym(name string) uint64 {
	if name == "" {
		return 0
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return uint64(C.XStringToKeysym(cs))
}

// unicodeKeysymName names a keysym of the range where Xlib makes names up
// (U+0100 to U+10FFFF) as Xlib does: "U" and the code point in upper-case
// hex, four digits in the Basic Multilingual Plane and eight beyond
// ("U20AC", "U0001F600"); Keysym reads it back. The few keysyms of that
// range Xlib's table names (0x01001EA0, "Abelowdot") are named so too: the
// watcher and the echo agree, and the name reads back as the same keysym.
func unicodeKeysymName(ks uint64) (string, bool) {
	if ks < UnicodeKeysym+0x100 || ks > UnicodeKeysym+0x10FFFF {
		return "", false
	}
	cp := ks - UnicodeKeysym
	if cp > 0xFFFF {
		return fmt.Sprintf("U%08X", cp), true
	}
	return fmt.Sprintf("U%04X", cp), true
}
