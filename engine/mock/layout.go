package mock

import (
	"math"

	"github.com/nish-driver/nish-driver/engine"
)

// The automatic layout: elements without an explicit frame get rows of a
// grid inside the window, in tree order, indented a little by depth and
// wrapping into more columns when the rows do not fit. It is crude, but it
// gives every element a distinct rectangle inside its window, which is what
// clicks, hit-testing and captures need. The root is the whole window.
const (
	layoutPad    = 4
	layoutRowH   = 22
	layoutIndent = 6
)

// layout returns every element's rectangle in window coordinates, in the
// app's logical pixels (device pixels over the window's scale). mu held.
func (w *Window) layout() map[*Element]engine.Rect {
	out := make(map[*Element]engine.Rect, len(w.byID))
	logical := w.logicalSize()
	out[w.root] = logical
	type placed struct {
		e     *Element
		depth int
	}
	var auto []placed
	var visit func(e *Element, depth int)
	visit = func(e *Element, depth int) {
		for _, c := range e.children {
			if c.frame != nil {
				out[c] = *c.frame
			} else {
				auto = append(auto, placed{c, depth + 1})
			}
			visit(c, depth+1)
		}
	}
	visit(w.root, 0)

	innerW := max(1, logical.W-2*layoutPad)
	innerH := max(1, logical.H-2*layoutPad)
	rows := max(1, innerH/layoutRowH)
	cols := max(1, (len(auto)+rows-1)/rows)
	colW := max(1, innerW/cols)
	for j, p := range auto {
		c, r := j/rows, j%rows
		indent := min(p.depth-1, 4) * layoutIndent
		indent = min(indent, colW/4)
		out[p.e] = engine.Rect{
			X: layoutPad + c*colW + indent,
			Y: layoutPad + r*layoutRowH,
			W: max(1, colW-indent-2),
			H: layoutRowH - 2,
		}
	}
	w.root.walk(func(e *Element) {
		if e.scroll != nil {
			e.layoutScrolled(out)
		}
	})
	return out
}

// toRoot turns a window rectangle in logical pixels into root coordinates
// in device pixels: what a backend reports after converting the app's
// extents (engine.Node.Frame). mu held.
func (w *Window) toRoot(r engine.Rect) engine.Rect {
	r = w.toDevice(r)
	r.X += w.frame.X
	r.Y += w.frame.Y
	return r
}

// toDevice scales a window rectangle from logical to device pixels; its
// edges are rounded, so rectangles that touch still touch. mu held.
func (w *Window) toDevice(r engine.Rect) engine.Rect {
	if w.scale == 0 || w.scale == 1 {
		return r
	}
	x0, y0 := scaled(r.X, w.scale), scaled(r.Y, w.scale)
	return engine.Rect{X: x0, Y: y0, W: scaled(r.X+r.W, w.scale) - x0, H: scaled(r.Y+r.H, w.scale) - y0}
}

// toLogical turns a window rectangle in device pixels into logical ones.
// mu held.
func (w *Window) toLogical(r engine.Rect) engine.Rect {
	if w.scale == 0 || w.scale == 1 {
		return r
	}
	x0, y0 := scaled(r.X, 1/w.scale), scaled(r.Y, 1/w.scale)
	return engine.Rect{X: x0, Y: y0, W: scaled(r.X+r.W, 1/w.scale) - x0, H: scaled(r.Y+r.H, 1/w.scale) - y0}
}

// logicalSize is the window's size in the app's logical pixels. mu held.
func (w *Window) logicalSize() engine.Rect {
	return w.toLogical(engine.Rect{W: w.frame.W, H: w.frame.H})
}

func scaled(v int, s float64) int { return int(math.Round(float64(v) * s)) }
