package native

import (
	"math"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// An app on a HiDPI screen may draw each of its logical pixels as several
// device pixels: GTK 3 with GDK_SCALE=2 makes a window of 412 by 153
// logical pixels 824 by 306 device pixels on X, and reports every
// accessibility extent (screen coordinates included) in logical pixels;
// Qt with QT_SCALE_FACTOR does the same with fractional factors. X, its
// captures and XTEST speak device pixels. The driver's frames are device
// pixels (engine.Node.Frame), so the backend converts each app's extents.
//
// Each toolkit has its own switches (GDK_SCALE, GDK_DPI_SCALE, Xft.dpi,
// QT_SCALE_FACTOR, QT_SCREEN_SCALE_FACTORS...), and some only change text
// size (GDK_DPI_SCALE, Xft.dpi without a settings daemon): a window's
// scale is measured instead, by comparing its X geometry with the size its
// accessibility frame reports. The conversion is relative to the window:
// an element's device position is the window's device origin plus its
// offset from the frame's reported origin, times the scale. That holds
// for GTK 3 (whose logical screen origin is the device one divided by the
// scale) and for Qt on a monitor that does not start at 0,0 alike.

// windowScale is how one window's app extents turn into device pixels.
type windowScale struct {
	// Scale is device pixels per logical pixel; 1 leaves extents as the
	// app reports them.
	Scale float64
	// Device is the window's X geometry (root coordinates, device pixels)
	// when the scale was measured; Logical is its frame's extents then.
	Device  engine.Rect
	Logical engine.Rect
}

// identity reports whether the scale leaves extents unchanged.
func (s windowScale) identity() bool { return s.Scale == 0 || s.Scale == 1 }

// measureScale compares a window's X geometry with its frame's extents. A
// scale is only taken when both sides agree on it (within 2%) and it lies
// between 1.1 and 4; anything else (decorations or shadows that make the
// two differ, a frame with no extents, equal sizes) is 1. A scale near a
// multiple of 0.05 is rounded to it (1.25, 1.5, 2): rounded pixel sizes
// make the measured ratio a little off.
func measureScale(device xlib.Rect, logical engine.Rect) windowScale {
	dev := engine.Rect{X: device.X, Y: device.Y, W: device.W, H: device.H}
	ws := windowScale{Scale: 1, Device: dev, Logical: logical}
	if logical.W <= 0 || logical.H <= 0 || device.W <= 0 || device.H <= 0 {
		return ws
	}
	sx := float64(device.W) / float64(logical.W)
	sy := float64(device.H) / float64(logical.H)
	if math.Abs(sx-sy) > 0.02*math.Max(sx, sy) {
		return ws
	}
	s := (sx*float64(logical.W) + sy*float64(logical.H)) / float64(logical.W+logical.H)
	if s < 1.1 || s > 4 {
		return ws
	}
	if r := math.Round(s*20) / 20; math.Abs(r-s) < 0.02 {
		s = r
	}
	ws.Scale = s
	return ws
}

// toDevice turns an extent the app reported into root device pixels.
// Edges are converted, not sizes, so elements that touch still touch.
func (s windowScale) toDevice(r engine.Rect) engine.Rect {
	if s.identity() || r.Empty() {
		return r
	}
	x0 := s.Device.X + round((float64(r.X-s.Logical.X))*s.Scale)
	y0 := s.Device.Y + round((float64(r.Y-s.Logical.Y))*s.Scale)
	x1 := s.Device.X + round((float64(r.X+r.W-s.Logical.X))*s.Scale)
	y1 := s.Device.Y + round((float64(r.Y+r.H-s.Logical.Y))*s.Scale)
	return engine.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// toApp turns a root device point into the app's screen coordinates (the
// logical pixel that holds it), for questions asked of the app.
func (s windowScale) toApp(p engine.Point) engine.Point {
	if s.identity() {
		return p
	}
	return engine.Point{
		X: s.Logical.X + int(math.Floor(float64(p.X-s.Device.X)/s.Scale)),
		Y: s.Logical.Y + int(math.Floor(float64(p.Y-s.Device.Y)/s.Scale)),
	}
}

// lengthToApp turns a length in device pixels into the app's pixels.
func (s windowScale) lengthToApp(n int) int {
	if s.identity() {
		return n
	}
	return round(float64(n) / s.Scale)
}

func round(v float64) int { return int(math.Round(v)) }
