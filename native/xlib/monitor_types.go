package xlib

import (
	"fmt"
	"math"
)

// Monitor is one monitor of the X screen as RandR 1.5 lists it (GetMonitors),
// or the whole screen when the server cannot list monitors.
type Monitor struct {
	// Name is the monitor's name ("DP-1", or one a user gave with
	// `xrandr --setmonitor`); "screen" for the whole-screen stand-in.
	Name string
	// Frame is the monitor's rectangle in root coordinates.
	Frame Rect
	// Primary is RandR's primary monitor (at most one; there may be none).
	Primary bool
	// WidthMM and HeightMM are its physical size, 0 when unknown.
	WidthMM, HeightMM int
	// Listed is false for the stand-in: the server has no RandR 1.5.
	Listed bool
}

// DPI is the monitor's pixel density from its size in pixels and in
// millimetres (px / (mm / 25.4)), the mean of both axes; ok is false when
// the server does not know the physical size.
func (m Monitor) DPI() (dpi float64, ok bool) {
	if m.WidthMM <= 0 || m.HeightMM <= 0 || m.Frame.W <= 0 || m.Frame.H <= 0 {
		return 0, false
	}
	x := float64(m.Frame.W) / (float64(m.WidthMM) / 25.4)
	y := float64(m.Frame.H) / (float64(m.HeightMM) / 25.4)
	return (x + y) / 2, true
}

// Scale is the DPI against the 96 DPI that desktops treat as scale 1,
// rounded to a quarter: what a toolkit's scale would be if it followed the
// glass. Desktops often choose otherwise (a 163 DPI monitor at scale 2), so
// it is a hint for the doctor, never used for input.
func (m Monitor) Scale() (float64, bool) {
	dpi, ok := m.DPI()
	if !ok {
		return 0, false
	}
	return math.Max(1, math.Round(dpi/96*4)/4), true
}

// String is the monitor as the doctor prints it.
func (m Monitor) String() string {
	s := fmt.Sprintf("%s %dx%d+%d+%d", m.Name, m.Frame.W, m.Frame.H, m.Frame.X, m.Frame.Y)
	if m.Primary {
		s += " primary"
	}
	if dpi, ok := m.DPI(); ok {
		sc, _ := m.Scale()
		s += fmt.Sprintf(" %dx%d mm %.0f dpi (scale %g by size)", m.WidthMM, m.HeightMM, dpi, sc)
	}
	return s
}

// intersect is the rectangle both a and b cover (empty when they do not
// overlap).
func intersect(a, b Rect) Rect {
	x0, y0 := max(a.X, b.X), max(a.Y, b.Y)
	x1, y1 := min(a.X+a.W, b.X+b.W), min(a.Y+a.H, b.Y+b.H)
	if x1 <= x0 || y1 <= y0 {
		return Rect{}
	}
	return Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// monitorsOnScreen keeps what of each monitor lies on the screen, drops
// the ones that do not, and merges clones (monitors showing the same
// rectangle, as mirrored outputs do). With nothing left, the screen itself
// is the one monitor.
func monitorsOnScreen(mons []Monitor, screen Rect) []Monitor {
	var out []Monitor
next:
	for _, m := range mons {
		m.Frame = intersect(m.Frame, screen)
		if m.Frame.W <= 0 || m.Frame.H <= 0 {
			continue
		}
		for i := range out {
			if out[i].Frame == m.Frame {
				out[i].Primary = out[i].Primary || m.Primary
				continue next
			}
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		out = []Monitor{{Name: "screen", Frame: screen}}
	}
	return out
}

// pickMonitor is the index of the monitor holding most of target (root
// coordinates); when target is empty or on no monitor, the primary's, or
// the first's when none is primary.
func pickMonitor(mons []Monitor, target Rect) int {
	best, bestArea := -1, 0
	for i, m := range mons {
		r := intersect(m.Frame, target)
		if a := r.W * r.H; a > bestArea {
			best, bestArea = i, a
		}
	}
	if best >= 0 {
		return best
	}
	for i, m := range mons {
		if m.Primary {
			return i
		}
	}
	return 0
}

// centreOn is where a w x h window goes to be centred on monitor m; one
// larger than m starts at m's top left corner rather than off it.
func centreOn(m Rect, w, h int) (x, y int) {
	return m.X + max((m.W-w)/2, 0), m.Y + max((m.H-h)/2, 0)
}
