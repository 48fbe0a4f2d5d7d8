package mock

import "github.com/nish-driver/nish-driver/engine"

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

// layout returns every element's rectangle in window coordinates. mu held.
func (w *Window) layout() map[*Element]engine.Rect {
	out := make(map[*Element]engine.Rect, len(w.byID))
	out[w.root] = engine.Rect{W: w.frame.W, H: w.frame.H}
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

	innerW := max(1, w.frame.W-2*layoutPad)
	innerH := max(1, w.frame.H-2*layoutPad)
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

// toRoot turns a window rectangle into root coordinates. mu held.
func (w *Window) toRoot(r engine.Rect) engine.Rect {
	r.X += w.frame.X
	r.Y += w.frame.Y
	return r
}
