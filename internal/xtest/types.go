package xtest

// Rect is a rectangle in root (screen) coordinates, laid out as
// native/xlib's, so a test converts one into the other.
type Rect struct {
	X, Y, W, H int
}

// PlainWindow describes a window NewPlainWindow makes: an app window that
// needs no toolkit.
type PlainWindow struct {
	Frame            Rect
	RGB              uint32 // its background colour, which the server paints
	Class, Title     string // WM_CLASS (instance and class), WM_NAME and _NET_WM_NAME
	OverrideRedirect bool   // a menu or tooltip, which window managers leave alone
}
