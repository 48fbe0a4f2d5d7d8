package native

import (
	"math"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// Matching an X window to its AT-SPI frame. X knows windows (ids, pids
// through XRes, titles, geometry, stacking); AT-SPI knows frames (per app:
// pid, name, extents) and nothing about X ids. A frame matches a window
// when:
//
//  1. it belongs to the same process (the app's pid equals the window's
//     pid through XRes); a window whose pid is unknown considers every
//     frame;
//  2. among those, the frame scoring highest wins: +4 for the same title,
//     +3 when the geometry overlaps by at least 80% (intersection over
//     union; client-side decorations and shadows make exact equality rare),
//     +1 for any overlap, +1 for a frame that is showing; a frame whose
//     extents are the window's geometry divided by one scale (an app that
//     draws each logical pixel as several device pixels, scale.go), its
//     origin included, counts as overlapping fully;
//  3. a frame must score at least 1 unless it is its process's only frame,
//     and a tie between two frames is no match (two same-titled windows on
//     top of each other would otherwise be confused).
//
// No match means the window offers no accessible tree of its own (xterm,
// a game): reads return the window alone, and only takeover acts work.

func matchFrame(w xlib.Window, frames []atspi.Frame) (atspi.Frame, bool) {
	var cands []atspi.Frame
	for _, f := range frames {
		if w.Pid == 0 || f.Pid == w.Pid {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return atspi.Frame{}, false
	}
	best, bestScore, tie := -1, -1, false
	for i, f := range cands {
		s := 0
		if f.Name != "" && f.Name == w.Title {
			s += 4
		}
		iou := overlap(w.Frame, f.Extents.X, f.Extents.Y, f.Extents.W, f.Extents.H)
		if scaledAlike(w.Frame, rectFromAtspi(f.Extents)) {
			iou = 1
		}
		switch {
		case iou >= 0.8:
			s += 3
		case iou > 0:
			s++
		}
		for _, st := range f.States {
			if st == "showing" {
				s++
				break
			}
		}
		switch {
		case s > bestScore:
			best, bestScore, tie = i, s, false
		case s == bestScore:
			tie = true
		}
	}
	if tie {
		return atspi.Frame{}, false
	}
	if bestScore < 1 && len(cands) > 1 {
		return atspi.Frame{}, false
	}
	return cands[best], true
}

// overlap is the intersection over union of two rectangles.
func overlap(a xlib.Rect, x, y, w, h int) float64 {
	ix0, iy0 := max(a.X, x), max(a.Y, y)
	ix1, iy1 := min(a.X+a.W, x+w), min(a.Y+a.H, y+h)
	if ix1 <= ix0 || iy1 <= iy0 {
		return 0
	}
	inter := float64((ix1 - ix0) * (iy1 - iy0))
	union := float64(a.W*a.H+w*h) - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// scaledAlike reports whether a frame's extents are the window's X
// geometry in an app's logical pixels: the same shape at a scale other
// than 1, with the origin divided by that scale too (GTK 3 and Qt on the
// first monitor place their logical screen so).
func scaledAlike(w xlib.Rect, ext engine.Rect) bool {
	sc := measureScale(w, ext)
	if sc.identity() {
		return false
	}
	near := func(logical, device int) bool {
		return math.Abs(float64(logical)*sc.Scale-float64(device)) <= sc.Scale+1
	}
	return near(ext.X, w.X) && near(ext.Y, w.Y)
}
