package xtest

import (
	"errors"

	"github.com/nish-driver/nish-driver/internal/xconn"
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

// XError is an X protocol error one of a call's requests caused; the type
// is internal/xconn's, where the process's error handler is.
type XError = xconn.XError
