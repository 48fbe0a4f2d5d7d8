package xtest

import (
	"errors"
	"fmt"
)

var (
	// ErrClosed: the Display was closed.
	ErrClosed = errors.New("xtest: the display connection is closed")
	// ErrDisplayLost: the connection to the X server broke.
	ErrDisplayLost = errors.New("xtest: the connection to the X display was lost")
	// ErrNotBuilt: the package was built without cgo.
	ErrNotBuilt = errors.New("xtest: built without cgo, so there is no X client")
	// ErrTimeout: what a call waited for did not come in time.
	ErrTimeout = errors.New("xtest: nothing came in time")
)

// XError is an X protocol error one of a call's requests caused.
type XError struct {
	Code     int    // BadWindow is 3
	Request  int    // the major opcode of the failed request
	Resource uint64 // the id it named
	Text     string // Xlib's text for the code
}

func (e *XError) Error() string {
	return fmt.Sprintf("xtest: X error %d (%s), request %d, resource %#x", e.Code, e.Text, e.Request, e.Resource)
}
