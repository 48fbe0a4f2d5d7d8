package xlib

import (
	"encoding/json"
	"time"
)

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
	// LastDriverPress returns when the driver last pressed a pointer button
	// itself (zero: never). A press on Continue within 1.5 s of it does
	// not count, so the driver cannot click its own Continue.
	LastDriverPress func() time.Time
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
}

// ParseIndicatorState decodes the state property's value.
func ParseIndicatorState(s string) (IndicatorState, error) {
	var st IndicatorState
	err := json.Unmarshal([]byte(s), &st)
	return st, err
}

// indicatorLayout places the indicator's windows on a screen of w x h
// pixels: four frame strips, the label, and the Continue button below it.
// labelW/labelH and buttonW/buttonH are the sizes the text needs.
type indicatorLayout struct {
	frame  [4]Rect
	label  Rect
	button Rect
}

// frameThickness is the red frame's width in pixels.
const frameThickness = 4

func layoutIndicator(screenW, screenH, labelW, labelH, buttonW, buttonH int) indicatorLayout {
	t := frameThickness
	var l indicatorLayout
	l.frame = [4]Rect{
		{X: 0, Y: 0, W: screenW, H: t},
		{X: 0, Y: screenH - t, W: screenW, H: t},
		{X: 0, Y: t, W: t, H: screenH - 2*t},
		{X: screenW - t, Y: t, W: t, H: screenH - 2*t},
	}
	l.label = Rect{X: (screenW - labelW) / 2, Y: t, W: labelW, H: labelH}
	l.button = Rect{X: (screenW - buttonW) / 2, Y: t + labelH + 6, W: buttonW, H: buttonH}
	return l
}
