//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
*/
import "C"

import "unsafe"

// atomTable remembers the atoms one connection interned, so each name
// costs one round trip per connection. Like the connection, it belongs to
// the thread that owns it.
type atomTable map[string]C.Atom

// intern returns name's atom on dpy, asking the server the first time.
func (t atomTable) intern(dpy *C.Display, name string) C.Atom {
	if a, ok := t[name]; ok {
		return a
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	a := C.XInternAtom(dpy, cs, C.False)
	t[name] = a
	return a
}
