package xlib

import (
	"errors"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// Errors the package returns. Messages never carry app text.
var (
	// ErrNotBuilt is what every call returns in a binary built without cgo.
	ErrNotBuilt = errors.New("xlib: the X11 backend was not built into this binary (it needs cgo)")
	// ErrClosed is returned by calls on a Display after Close.
	ErrClosed = errors.New("xlib: the display connection is closed")
	// ErrDisplayLost is returned once the connection to the X server broke
	// (the server exited or the socket failed). The Display is unusable; open
	// a new one.
	ErrDisplayLost = errors.New("xlib: the connection to the X display was lost")
	// ErrNoAnswer is returned by Open when the X server accepted the
	// connection (or the connect is still pending) but did not complete
	// the connection within ConnectTimeout. Doctor calls that display
	// unreachable.
	ErrNoAnswer = errors.New("xlib: the X display did not answer")
	// ErrWindowGone matches (errors.Is) an X error saying the window or
	// drawable no longer exists.
	ErrWindowGone = errors.New("xlib: the window no longer exists")
	// ErrMiddleButton refuses button 2: the driver never sends a middle
	// click, which pastes the primary selection.
	ErrMiddleButton = errors.New("xlib: the middle button is never sent (it pastes the primary selection)")
	// ErrUnknownButton is returned for a button outside 1-9.
	ErrUnknownButton = errors.New("xlib: not a pointer button (1-9)")
	// ErrUnknownKey is returned for a key name that is not an X keysym name.
	ErrUnknownKey = errors.New("xlib: not an X keysym name")
	// ErrNoKeycode is returned when a keysym has no keycode and no spare
	// keycode is left to map it onto.
	ErrNoKeycode = errors.New("xlib: no keycode is free to send this key")
)

// X protocol error codes the package looks at.
const (
	xBadWindow   = 3
	xBadMatch    = 8
	xBadDrawable = 9
)

// XError is an X protocol error trapped during a call (internal/xconn's,
// where the process's error handler is), which errors.Is matches to
// ErrWindowGone when it names a window or drawable that no longer exists.
type XError struct {
	xconn.XError
}

func (e *XError) Error() string { return "xlib: " + e.XError.Error() }

// Is makes errors.Is(err, ErrWindowGone) true for BadWindow and BadDrawable.
func (e *XError) Is(target error) bool {
	return target == ErrWindowGone && (e.Code == xBadWindow || e.Code == xBadDrawable)
}
