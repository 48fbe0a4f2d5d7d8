package mutter

import "errors"

// Errors the package returns; callers tell them apart with errors.Is.
var (
	// ErrNoBus: the session bus could not be reached (no address, or
	// nothing answers there).
	ErrNoBus = errors.New("mutter: the session bus cannot be reached")
	// ErrUnavailable: nothing on the session bus answers as
	// org.gnome.Mutter.ScreenCast (the compositor is not mutter, or is an
	// X11 session's without the API).
	ErrUnavailable = errors.New("mutter: org.gnome.Mutter.ScreenCast is not on the session bus")
	// ErrTooOld: the API is older than version 2, which has no RecordWindow.
	ErrTooOld = errors.New("mutter: the screen-cast API is too old to record a window")
	// ErrNoFocusedWindow: a capture of the focused window found no window
	// with focus.
	ErrNoFocusedWindow = errors.New("mutter: no window has focus, so there is no window to capture")
	// ErrWindowNotFound: mutter has no window of that id (it closed).
	ErrWindowNotFound = errors.New("mutter: the window was not found")
	// ErrNoStream: the session started but mutter announced no PipeWire
	// stream in time (mutter announces it once PipeWire takes the stream;
	// without PipeWire it never does).
	ErrNoStream = errors.New("mutter: the screen cast announced no PipeWire stream in time")
	// ErrClosed: mutter closed the session before the capture ended (the
	// window went away, or mutter stopped the cast).
	ErrClosed = errors.New("mutter: the screen-cast session was closed")
	// ErrRefused: mutter answered a screen-cast call with an error of its
	// own (the message follows).
	ErrRefused = errors.New("mutter: the screen-cast call was refused")
)
