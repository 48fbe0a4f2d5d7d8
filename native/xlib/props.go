//go:build cgo

package xlib

/*
#include <stdlib.h>
#include "nx.h"
*/
import "C"

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// C constants cgo cannot see through macros.
const (
	anyPropertyType = C.Atom(0) // AnyPropertyType
	xaCardinal      = C.Atom(6) // XA_CARDINAL
	xaString        = C.Atom(31)
	xaWindow        = C.Atom(33)
	xaWMName        = C.Atom(39)
	isViewable      = 2 // IsViewable
)

// propValue is a property's value, copied out of Xlib's buffer.
type propValue struct {
	typ    C.Atom
	format int
	bytes  []byte   // format 8
	longs  []uint64 // format 32
}

// getProp reads up to maxBytes of a property of type typ (anyPropertyType
// for any). ok is false when the window has no such property.
func (d *Display) getProp(w C.Window, prop, typ C.Atom, maxBytes int) (v propValue, ok bool) {
	var p C.nx_prop
	if C.nx_get_prop(d.dpy, w, prop, typ, C.long(maxBytes), 0, &p) == 0 {
		return v, false
	}
	if p.data != nil {
		defer C.XFree(unsafe.Pointer(p.data))
	}
	v.typ, v.format = p._type, int(p.format)
	n := int(p.nitems)
	if p.data == nil || n == 0 {
		return v, true
	}
	switch v.format {
	case 8:
		v.bytes = C.GoBytes(unsafe.Pointer(p.data), C.int(n))
	case 32:
		// Xlib hands format-32 items over as C longs.
		for _, l := range unsafe.Slice((*C.ulong)(unsafe.Pointer(p.data)), n) {
			v.longs = append(v.longs, uint64(l))
		}
	}
	return v, true
}

// windowList reads a property holding window ids.
func (d *Display) windowList(w C.Window, name string) ([]C.Window, bool) {
	v, ok := d.getProp(w, d.atom(name), xaWindow, 1<<20)
	if !ok || v.format != 32 {
		return nil, false
	}
	out := make([]C.Window, len(v.longs))
	for i, l := range v.longs {
		out[i] = C.Window(l)
	}
	return out, true
}

// cardinal reads a 32-bit CARDINAL property's first value.
func (d *Display) cardinal(w C.Window, name string) (uint64, bool) {
	v, ok := d.getProp(w, d.atom(name), xaCardinal, 4)
	if !ok || v.format != 32 || len(v.longs) == 0 {
		return 0, false
	}
	return v.longs[0], true
}

// text reads a text property as UTF-8: UTF8_STRING as is, STRING as
// Latin-1, COMPOUND_TEXT by its Latin-1 parts.
func (d *Display) text(w C.Window, prop C.Atom, maxBytes int) (string, bool) {
	v, ok := d.getProp(w, prop, anyPropertyType, maxBytes)
	if !ok || v.format != 8 {
		return "", false
	}
	switch v.typ {
	case d.atom("UTF8_STRING"):
		return strings.ToValidUTF8(string(v.bytes), "\uFFFD"), true
	case d.atom("COMPOUND_TEXT"):
		return latin1(dropEscapes(v.bytes)), true
	default:
		return latin1(v.bytes), true
	}
}

// latin1 decodes ISO 8859-1.
func latin1(b []byte) string {
	buf := make([]byte, 0, len(b))
	for _, c := range b {
		buf = utf8.AppendRune(buf, rune(c))
	}
	return string(buf)
}

// dropEscapes removes compound text's escape sequences (ESC, intermediates,
// final byte) and control sequences (CSI ... final), keeping the text.
func dropEscapes(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 0x1b:
			for i+1 < len(b) && b[i+1] >= 0x20 && b[i+1] <= 0x2f {
				i++
			}
			i++ // the final byte
		case 0x9b:
			for i+1 < len(b) && b[i+1] >= 0x20 && b[i+1] <= 0x3f {
				i++
			}
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
}

// setUTF8 sets a UTF8_STRING property.
func (d *Display) setUTF8(w C.Window, name, value string) {
	d.setBytes(w, d.atom(name), d.atom("UTF8_STRING"), []byte(value))
}

// setBytes sets a format-8 property.
func (d *Display) setBytes(w C.Window, prop, typ C.Atom, b []byte) {
	d.conn.x.SetProperty8(uint64(w), uint64(prop), uint64(typ), b)
}

// setLongs sets a format-32 property.
func (d *Display) setLongs(w C.Window, prop, typ C.Atom, vals []uint64) {
	d.conn.x.SetProperty32(uint64(w), uint64(prop), uint64(typ), vals)
}

// RootTextProperty reads a text property of the root window by name, up to
// 64 KiB; ok is false when it is not set. The accessibility bus launcher
// publishes the bus's address there (AT_SPI_BUS), and Qt 5 looks nowhere
// else for it.
func (d *Display) RootTextProperty(name string) (value string, ok bool, err error) {
	err = d.do(func() error {
		value, ok = d.text(d.root, d.atom(name), 64<<10)
		return d.xerr(false)
	})
	return value, ok, err
}
