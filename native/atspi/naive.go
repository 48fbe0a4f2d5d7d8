package atspi

// #cgo pkg-config: atspi-2 gobject-2.0
// #include <stdlib.h>
// #include "naive.h"
import "C"

import (
	"errors"
	"sync"
	"unsafe"
)

// NaiveElement is one element of a naive walk.
type NaiveElement struct {
	Depth int
	Role  string // snake_case
	Name  string
}

// naiveMu serializes naive walks: libatspi is not thread-safe.
var naiveMu sync.Mutex

// NaiveWalk walks a window the way a naive libatspi client does, one
// synchronous D-Bus round trip per property, and returns its elements in
// pre-order. It is the reference the reader is checked against and the
// baseline it is measured against; the driver itself never uses it.
//
// libatspi connects once per process, to the bus AT_SPI_BUS_ADDRESS names
// in the process environment when it is first called (else the session
// bus's org.a11y.Bus).
func NaiveWalk(pid int, titlePrefix string) ([]NaiveElement, error) {
	naiveMu.Lock()
	defer naiveMu.Unlock()
	if C.nish_naive_init() != 0 {
		return nil, errors.New("atspi: libatspi could not connect to the accessibility bus")
	}
	prefix := C.CString(titlePrefix)
	defer C.free(unsafe.Pointer(prefix))
	var res C.nish_naive_result
	if C.nish_naive_walk(C.int(pid), prefix, &res) != 0 {
		return nil, errors.New("atspi: no such window")
	}
	defer C.nish_naive_free(&res)
	elems := unsafe.Slice(res.elems, int(res.len))
	out := make([]NaiveElement, len(elems))
	for i, e := range elems {
		out[i] = NaiveElement{Depth: int(e.depth), Role: snake(C.GoString(e.role)), Name: C.GoString(e.name)}
	}
	return out, nil
}
