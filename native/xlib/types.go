package xlib

import "time"

// WM_CLASS values of the driver's own windows. TopLevels never lists them,
// and TopmostAt looks through the ones this process made.
const (
	DriverClass    = "nish-driver"           // the consent dialog
	IndicatorClass = "nish-driver-indicator" // the takeover indicator
)

// ConsentTitle is the consent dialog's window title.
const ConsentTitle = "nish-driver: allow access?"

// ConsentLayoutProperty names the dialog's property (UTF8_STRING) holding
// its controls' rectangles as JSON, for test harnesses and assistive tools.
const ConsentLayoutProperty = "_NISH_CONSENT_LAYOUT"

// ConsentArmedProperty names the dialog's property (UTF8_STRING) holding,
// once the dialog is on screen, the time from which it counts clicks, in
// Unix milliseconds: a scripted person waits for that time rather than for
// a guessed while, which a loaded machine can outlast.
const ConsentArmedProperty = "_NISH_CONSENT_ARMED_AT"

// Rect is a rectangle in the coordinates its field names.
type Rect struct {
	X, Y, W, H int
}

// Contains reports whether the point lies inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

// Window describes a top-level client window. Title, Class and Instance are
// untrusted app text.
type Window struct {
	ID       uint64
	Pid      int // 0 when unknown
	Title    string
	Class    string // WM_CLASS class
	Instance string // WM_CLASS instance
	Frame    Rect   // the client area in root coordinates
	Mapped   bool   // viewable
	Stacking int    // 0 is the topmost; -1 when not known (Describe)
}

// Extensions reports the X extensions the driver uses, for the doctor.
type Extensions struct {
	XTest                    bool
	XInputMajor, XInputMinor int // 0 when XInput is absent
	Composite                bool
	XRes                     bool
	Shape                    bool
	RandRMajor, RandRMinor   int // 0 when RandR is absent
}

// hasMonitors reports RandR 1.5, whose GetMonitors lists the monitors.
func (e Extensions) hasMonitors() bool {
	return e.RandRMajor > 1 || (e.RandRMajor == 1 && e.RandRMinor >= 5)
}

// ConsentApp is one app line of the consent dialog.
type ConsentApp struct {
	Pid  int
	Name string // untrusted: shown as text, cut when long
}

// ConsentDialog is what the consent dialog asks. Host and Purpose are the
// host's words, shown as plain text and cut when long.
type ConsentDialog struct {
	Host          string
	Purpose       string
	Apps          []ConsentApp
	Takeover      bool // show "ALSO allow VISIBLE TAKEOVER" (unticked)
	ClipboardRead bool // show "Allow clipboard reading" (unticked)
	// DriverPressRecent reports whether a press at the time given could be
	// the driver's own (it pressed a button shortly before; how shortly is
	// the caller's rule): such a press does not count. It is called from
	// the dialog's own goroutine, so it must be safe to call concurrently.
	// Nil means the driver never presses.
	DriverPressRecent func(at time.Time) bool
}

// ConsentResult is the person's answer. Anything but a click on Allow is a
// denial (Allowed false, nothing else set).
type ConsentResult struct {
	Allowed       bool
	Pids          []int // the app lines left ticked, in the dialog's order
	Takeover      bool
	ClipboardRead bool
}

// ConsentControl is one control of the published dialog layout.
type ConsentControl struct {
	ID   string `json:"id"`   // app:<pid>, takeover, clipboard_read, allow, deny
	Rect [4]int `json:"rect"` // x, y, w, h in window coordinates
}

// ConsentLayout is the JSON in the dialog's ConsentLayoutProperty.
type ConsentLayout struct {
	Controls []ConsentControl `json:"controls"`
}
