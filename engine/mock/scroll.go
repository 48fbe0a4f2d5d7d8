package mock

import (
	"context"
	"math"

	"github.com/nish-driver/nish-driver/engine"
)

// Scrolled views, as a toolkit shows them over AT-SPI: a view (a
// scroll_pane) shows a few of its rows (its children) at a time; a row
// scrolled out of view, and everything in it, stays visible but is not
// showing. The view holds a vertical scroll bar (a scroll_bar child with a
// range, as GTK's do) whose value is the index of the first row shown.
//
// The mock is an engine.ScrollIntoViewer: asked to bring an element into
// view, a view that answers an element's own request (as browsers do)
// scrolls straight to it; one that declines it (as GTK 3 does) is
// scrolled through its bar to the engine's estimate, which may miss.

var _ engine.ScrollIntoViewer = (*Desktop)(nil)

// scrollView is an element's scrolled-view state.
type scrollView struct {
	content  *Element // the element holding the rows; nil: the view itself
	shown    int      // rows in view at a time
	first    int      // the first row in view
	declines bool     // the view declines an element's own scroll request
	bar      *Element // the vertical scroll bar
}

// MakeScrolled turns the element (a scroll_pane) into a view that shows
// shown of its rows at a time, from the first; the rows are its children
// other than the scroll bar it gains. Rows added later start out of view
// until the view scrolls again (ScrollToRow re-applies it).
//
// A scrolled view is laid out as a toolkit lays one out: the view is shown
// rows tall, its rows are one layout row each, and the ones out of view
// lie above or below it.
func (e *Element) MakeScrolled(shown int) *Element { return e.makeScrolled(nil, shown) }

// MakeScrolledContent is MakeScrolled for a view whose rows are the
// children of content (a child of the view, as a GTK viewport's box of
// rows), listed last row first, as a GTK 3 grid lists its children: the
// last child is the top row. The content is laid out as tall as all its
// rows, so its frame is known while its rows' places in it are not (the
// engine pages through it).
func (e *Element) MakeScrolledContent(content *Element, shown int) *Element {
	return e.makeScrolled(content, shown)
}

func (e *Element) makeScrolled(content *Element, shown int) *Element {
	bar := e.Add("scroll_bar", "")
	return e.set(func() {
		bar.states = append(bar.states, "vertical")
		e.scroll = &scrollView{content: content, shown: max(1, shown), bar: bar}
		e.applyScroll()
	})
}

// DeclineScrollTo makes a scrolled view decline an element's own request
// to be scrolled into view, so only its scroll bar moves it (GTK 3).
func (e *Element) DeclineScrollTo(on bool) *Element {
	return e.set(func() {
		if e.scroll != nil {
			e.scroll.declines = on
		}
	})
}

// ScrollToRow scrolls a view so that row i is the first in view (clamped).
func (e *Element) ScrollToRow(i int) *Element {
	return e.set(func() {
		if e.scroll != nil {
			e.scroll.first = i
			e.applyScroll()
		}
	})
}

// FirstShownRow is the index of a view's first row in view.
func (e *Element) FirstShownRow() int {
	return get(e, func() int {
		if e.scroll == nil {
			return 0
		}
		return e.scroll.first
	})
}

// rows are a view's children other than its scroll bar, or its content's
// children from the last, top to bottom. mu held.
func (e *Element) rows() []*Element {
	if c := e.scroll.content; c != nil {
		out := make([]*Element, len(c.children))
		for i, r := range c.children {
			out[len(out)-1-i] = r
		}
		return out
	}
	var out []*Element
	for _, c := range e.children {
		if c != e.scroll.bar {
			out = append(out, c)
		}
	}
	return out
}

// applyScroll clamps the first row in view and gives every visible element
// of a row in view the showing state, and takes it from the rest. mu held.
func (e *Element) applyScroll() {
	v := e.scroll
	rows := e.rows()
	last := max(0, len(rows)-v.shown)
	v.first = max(0, min(v.first, last))
	for i, r := range rows {
		in := i >= v.first && i < v.first+v.shown
		r.walk(func(x *Element) {
			switch {
			case !x.hasState("visible"):
			case in:
				x.addState("showing")
			default:
				x.dropState("showing")
			}
		})
	}
	v.bar.numeric = &valueRange{min: 0, max: float64(last), step: 1}
	v.bar.setNumber(float64(v.first))
}

// ScrollIntoView scrolls the nearest scrolled view holding the element so
// that the element's row is in view: straight to it, or, for a view that
// declines that, through the hint's scroll bar to the hint's position or
// by the hint's delta (in pixels, a layout row each). An
// element in no scrolled view, or a declined request without the view's
// bar, is not_actionable. Hidden elements are scrolled like any other (the
// engine decides what to ask for).
func (d *Desktop) ScrollIntoView(ctx context.Context, ref engine.ElementRef, hint engine.ScrollHint) error {
	return d.elementCall(ctx, "ScrollIntoView", ref, func(w *Window, e *Element) error {
		row, view := e.viewRow()
		if view == nil {
			return engine.Errf(engine.CodeNotActionable, "the element is in no scrolled view")
		}
		v := view.scroll
		if !v.declines {
			for i, r := range view.rows() {
				if r == row && (i < v.first || i >= v.first+v.shown) {
					v.first = i - v.shown/2
				}
			}
			view.applyScroll()
			d.touch()
			return nil
		}
		if hint.ScrollBar != v.bar.id {
			return engine.Errf(engine.CodeNotActionable, "the view declined to scroll to the element")
		}
		if hint.Delta != 0 {
			// The engine's delta is in device pixels, the rows in the
			// app's logical ones.
			delta := float64(hint.Delta)
			if view.win.scale > 0 {
				delta /= view.win.scale
			}
			v.first += int(math.Round(delta / layoutRowH))
		} else {
			p := math.Max(0, math.Min(1, hint.Position))
			v.first = int(math.Round(p * float64(len(view.rows())-v.shown)))
		}
		view.applyScroll()
		d.touch()
		return nil
	})
}

// viewRow finds the nearest scrolled view holding the element and the row
// of it the element is in (nil, nil when none). mu held.
func (e *Element) viewRow() (row, view *Element) {
	for x := e; x.parent != nil; x = x.parent {
		holder := x.parent
		if holder.scroll != nil && holder.scroll.content == nil {
			return x, holder
		}
		if holder.parent != nil && holder.parent.scroll != nil && holder.parent.scroll.content == holder {
			return x, holder.parent
		}
	}
	return nil, nil
}

// layoutScrolled places a scrolled view's rows (and all inside them) one
// layout row each from the view's top, the first in view at the top; the
// view is as tall as the rows it shows, its content as tall as all its
// rows. mu held.
func (e *Element) layoutScrolled(out map[*Element]engine.Rect) {
	v := e.scroll
	pf := out[e]
	pf.H = v.shown * layoutRowH
	out[e] = pf
	rows := e.rows()
	top := pf.Y - v.first*layoutRowH
	if v.content != nil {
		out[v.content] = engine.Rect{X: pf.X, Y: top, W: pf.W, H: len(rows) * layoutRowH}
	}
	for i, r := range rows {
		rr := engine.Rect{X: pf.X, Y: top + i*layoutRowH, W: pf.W, H: layoutRowH - 2}
		r.walk(func(x *Element) { out[x] = rr })
	}
}
