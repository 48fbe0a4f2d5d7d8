// Package native is the Linux/X11 backend: one type that implements
// engine.Backend by assembling the two cgo packages below it. native/xlib
// owns the X display (windows, process identity through XRes, captures,
// XTEST input, the XInput2 hand-back watcher, the takeover indicator and the
// consent dialog); native/atspi owns the accessibility tree (reads, actions,
// text and values). This package matches an X window to its AT-SPI frame (by
// pid, title and geometry), turns their failures into the engine's error
// codes, and is the only place the two meet. When the display cannot be
// opened (or the binary was built without cgo), OpenOrUnavailable gives the
// Unavailable backend instead, which keeps why and tells the doctor
// (unavailable.go); either way the backend reports how its parts stand
// (parts.go) and the engine's capability table does the rest.
//
// The engine never imports this package (ci/purity_test.go checks it):
// the engine speaks to a desktop only through engine.Backend, so its rules
// are tested on the mock desktop on any machine.
package native
