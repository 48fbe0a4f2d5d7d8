// Package naivewalk walks a window's accessibility tree the way a naive
// libatspi client does: one synchronous D-Bus round trip per property of
// every element. It is the reference native/atspi's reader is checked
// against (the same elements, in the same order, with the same depths,
// roles and names) and the baseline its benchmark is measured against.
//
// It is for tests only; the binary never links it (ci/ships_test.go), and
// the driver never reads a tree this way. It is cgo over libatspi: the C
// walk is naive.c, which frees what it allocates through nish_naive_free.
// Built without cgo, Walk returns ErrNotBuilt.
package naivewalk

import (
	"errors"

	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
)

// Element is one element of a walk, the pyatspi walk's (walk.py) element,
// so that the reader is compared with either reference through one check;
// its Role is libatspi's role name ("push button").
type Element = pyref.Element

// ErrNotBuilt: the package was built without cgo, so there is no libatspi.
var ErrNotBuilt = errors.New("naivewalk: built without cgo, so there is no libatspi")
