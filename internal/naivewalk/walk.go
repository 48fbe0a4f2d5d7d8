//go:build cgo

package naivewalk

// #cgo pkg-config: atspi-2 gobject-2.0
// #include <stdlib.h>
// #include "naive.h"
import "C"

import (
	"errors"
	"sync"
	"unsafe"
)

// mu serializes walks: libatspi is not thread-safe.
var mu sync.Mutex

// Walk walks the first top-level child, whose name starts with
// titlePrefix, of the application with process id pid, and returns its
// elements in pre-order.
//
// libatspi connects once per process, to the bus AT_SPI_BUS_ADDRESS names
// in the process environment when it is first called (else the session
// bus's org.a11y.Bus).
func Walk(pid int, titlePrefix string) ([]Element, error) {
	mu.Lock()
	defer mu.Unlock()
	if C.nish_naive_init() != 0 {
		return nil, errors.New("naivewalk: libatspi could not connect to the accessibility bus")
	}
	prefix := C.CString(titlePrefix)
	defer C.free(unsafe.Pointer(prefix))
	var res C.nish_naive_result
	if C.nish_naive_walk(C.int(pid), prefix, &res) != 0 {
		return nil, errors.New("naivewalk: no such window")
	}
	defer C.nish_naive_free(&res)
	elems := unsafe.Slice(res.elems, int(res.len))
	out := make([]Element, len(elems))
	for i, e := range elems {
		out[i] = Element{Depth: int(e.depth), Role: C.GoString(e.role), Name: C.GoString(e.name)}
	}
	return out, nil
}
