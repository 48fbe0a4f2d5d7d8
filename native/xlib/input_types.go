package xlib

import (
	"errors"
	"time"
)

// Kinds of RawEvent.
const (
	RawMotion        = "motion"
	RawKeyPress      = "key_press"
	RawKeyRelease    = "key_release"
	RawButtonPress   = "button_press"
	RawButtonRelease = "button_release"
	// RawLost is the last event of a watcher whose connection broke.
	RawLost = "lost"
)

// RawEvent is one input event of any device, as the input watcher saw it.
// The driver's own XTEST input shows up here too: telling it from the
// person's is the job of the driver's send log.
type RawEvent struct {
	Kind string // one of the Raw* kinds
	// Keysym is the key's name at group 0, level 0 ("a", "Shift_L",
	// "Return") for key events, "" when the keycode has none.
	Keysym string
	// Button is the device's button number for button events (4-7 are
	// the scroll wheel).
	Button int
	// X and Y are the pointer's position on the root window, read when a
	// batch of events holding the motion was taken off the connection
	// (raw motion carries only device deltas). Zero for other kinds.
	X, Y int
	// Time is when the watcher read the event off its connection.
	Time time.Time
}

// minXInput is the XInput version whose raw events reach every client
// selecting them on the root window, grabs or not (2.0 sent them to the
// grabbing client only).
var minXInput = [2]int{2, 1}

// ErrNoXInput2 is WatchInput's error on a server without XInput 2.1.
var ErrNoXInput2 = errors.New("xlib: the X server lacks XInput 2.1 (xinput2), which hand-back detection needs")

// xinputEnough reports whether a server's XInput version has the raw
// events the watcher needs.
func xinputEnough(major, minor int) bool {
	return major > minXInput[0] || (major == minXInput[0] && minor >= minXInput[1])
}
