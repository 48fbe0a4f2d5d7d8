package xlib

import "time"

// IndicatorStateProperty is the UTF8_STRING property on the indicator's
// label window that says what the indicator shows (IndicatorState as JSON),
// so tests and the host can find the Continue button without reading pixels.
const IndicatorStateProperty = "_NISH_INDICATOR_STATE"

// Indicator event kinds, as they travel.
const (
	IndicatorContinue = "continue" // the person clicked Continue
	IndicatorLost     = "lost"     // a window was unmapped or destroyed by someone else, or the connection failed
)

// Indicator states, as the state property spells them.
const (
	IndicatorActive = "active"
	IndicatorPaused = "paused"
)

// Indicator labels.
const (
	indicatorActiveLabel = "nish-driver: AI takeover active"
	indicatorPausedLabel = "You took over \u00b7 Continue when ready"
	indicatorButtonLabel = "Continue"
)

// IndicatorOptions say how the indicator starts.
type IndicatorOptions struct {
	// Paused shows the paused look (dimmed frame, Continue button) at once.
	Paused bool
	// DriverPressRecent reports whether a press at the time given could be
	// the driver's own (as ConsentDialog's): such a press on Continue does
	// not count, so the driver cannot click its own Continue. Nil: the
	// driver never presses.
	DriverPressRecent func(at time.Time) bool
	// Target is the target window's frame in root coordinates: the label
	// and Continue go on the monitor holding most of it. Empty: the
	// primary monitor (or the first, when none is primary).
	Target Rect
}

// IndicatorEvent is something that happened to the indicator.
type IndicatorEvent struct {
	Kind string // IndicatorContinue or IndicatorLost
}

// IndicatorState is the JSON of IndicatorStateProperty.
type IndicatorState struct {
	State string `json:"state"`
	// Continue is the Continue button's rectangle [x, y, w, h] in root
	// coordinates while paused; nil while active.
	Continue []int `json:"continue"`
	// Monitor names the monitor holding the label and Continue.
	Monitor string `json:"monitor,omitempty"`
}

// indicatorLayout is where the indicator's windows go: four frame strips
// round each monitor, and the label with the Continue button below it on
// one monitor.
type indicatorLayout struct {
	frame   []Rect
	label   Rect
	button  Rect
	monitor int // the index of the monitor holding the label and button
}

// frameThickness is the red frame's width in pixels.
const frameThickness = 4

// labelGap is the space between the label and the Continue button.
const labelGap = 6

// layoutIndicator frames each monitor (root coordinates) and puts the
// label, centred at the top, and the button below it on monitor at.
// labelW/labelH and buttonW/buttonH are the sizes their text needs; on a
// monitor too small for them they shrink to what lies inside its frame,
// so nothing is ever off-screen or on another monitor.
func layoutIndicator(mons []Rect, at, labelW, labelH, buttonW, buttonH int) indicatorLayout {
	t := frameThickness
	l := indicatorLayout{monitor: at}
	for _, m := range mons {
		if m.W <= 2*t || m.H <= 2*t {
			l.frame = append(l.frame, m) // too small to frame: cover it
			continue
		}
		l.frame = append(l.frame,
			Rect{X: m.X, Y: m.Y, W: m.W, H: t},
			Rect{X: m.X, Y: m.Y + m.H - t, W: m.W, H: t},
			Rect{X: m.X, Y: m.Y + t, W: t, H: m.H - 2*t},
			Rect{X: m.X + m.W - t, Y: m.Y + t, W: t, H: m.H - 2*t},
		)
	}
	m := mons[at]
	inner := Rect{X: m.X + t, Y: m.Y + t, W: max(m.W-2*t, 1), H: max(m.H-2*t, 1)}
	if m.W <= 2*t || m.H <= 2*t {
		inner = m
	}
	lw, lh := min(labelW, inner.W), min(labelH, inner.H)
	l.label = Rect{X: m.X + (m.W-lw)/2, Y: inner.Y, W: lw, H: lh}
	bw, bh := min(buttonW, inner.W), min(buttonH, inner.H)
	by := min(l.label.Y+lh+labelGap, inner.Y+inner.H-bh)
	l.button = Rect{X: m.X + (m.W-bw)/2, Y: by, W: bw, H: bh}
	return l
}
