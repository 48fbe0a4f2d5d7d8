package engine

import "context"

// Below the fold. Most of a long page, a mail list or a settings pane is
// scrolled out of view, and an element there reports itself visible but
// not showing. A headless act cannot move the pointer or press keys, so
// before acting it asks the app, by accessibility means, to scroll the
// element into view (ScrollIntoViewer), waits for the element to show, and
// acts; the result says so (scrolled_into_view).
//
// Only an element that nothing but a scrolled ancestor hides is scrolled
// to. An element that is hidden for any other reason stays refused with
// element_disabled, as before: an invisible one (no visible state, or an
// invisible ancestor), one inside a collapsed branch (an expandable
// ancestor that is not expanded: a tree's closed node, a closed combo box
// or menu) or on a page of a tab that is not selected. Scrolling would not
// show those, and opening a branch or a tab is an act of its own the model
// should choose.

// scrollAttempts bounds the scrolls one act makes: the first hits for a
// toolkit that scrolls an element into view itself, and for content in one
// column scrolled by its scroll bar; later ones page through the part of
// the content that holds the element, or halve the range where it must lie.
const scrollAttempts = 12

// scrollContainer reports whether an element is a view that scrolls its
// content: a scroll pane, a viewport, or a browser's web document, whose
// frame is the browser's viewport.
func scrollContainer(n *Node) bool {
	switch n.Role {
	case "scroll_pane", "viewport", "document_web":
		return true
	}
	return false
}

// hidesContent reports whether an ancestor keeps its content out of view
// for a reason scrolling does not undo: a collapsed branch or an
// unselected tab's page.
func hidesContent(n *Node) bool {
	if n.HasState("expandable") && !n.HasState("expanded") {
		return true
	}
	return n.Role == "page_tab" && !n.HasState("selected")
}

// clippingPane decides from a read whether the element at pos is not
// showing only because a scrolled ancestor clips it, and returns the
// nearest such ancestor. The element and every ancestor up to a showing
// scroll container must be visible (an ancestor scroll container that is
// itself scrolled out, as in nested views, is passed through), and no
// ancestor at all may be a collapsed branch or an unselected tab.
func clippingPane(t *Tree, pos int) (int, bool) {
	n := &t.Nodes[pos]
	if !n.HasState("visible") || n.HasState("showing") {
		return -1, false
	}
	pane, shown := -1, false
	for p := n.Parent; p >= 0; p = t.Nodes[p].Parent {
		a := &t.Nodes[p]
		if hidesContent(a) {
			return -1, false
		}
		if shown {
			continue
		}
		if !a.HasState("visible") {
			return -1, false
		}
		if scrollContainer(a) {
			if pane < 0 {
				pane = p
			}
			shown = a.HasState("showing")
		}
	}
	return pane, shown
}

// scrollBarOf finds the vertical scroll bar of a scroll container in a
// read: among its children, or its enclosing scroll pane's (a GTK viewport
// sits in a scroll pane that holds the bars). "" when there is none.
func scrollBarOf(t *Tree, pane int) ElementID {
	for p, hops := pane, 0; p >= 0 && hops < 2; p, hops = t.Nodes[p].Parent, hops+1 {
		var any ElementID
		for i, end := p+1, subtreeEnd(t, p); i < end; i = subtreeEnd(t, i) {
			c := &t.Nodes[i]
			if c.Role != "scroll_bar" || c.HasState("horizontal") {
				continue
			}
			if c.HasState("vertical") {
				return c.ID
			}
			if any == "" {
				any = c.ID
			}
		}
		if any != "" {
			return any
		}
		if t.Nodes[p].Role == "scroll_pane" {
			break
		}
	}
	return ""
}

// contentPosition estimates where the element at pos lies in the pane's
// content, 0 to 1, by its place in document order.
func contentPosition(t *Tree, pos, pane int) float64 {
	start, end := pane+1, subtreeEnd(t, pane)
	if end-start <= 1 {
		return 0
	}
	return float64(pos-start) / float64(end-start-1)
}

// shownSide says where the pane's content that shows lies against the
// element at pos, in document order: after it (the element is above the
// view: -1), before it (below: +1), or around it (0: scrolling further
// along one axis would not help). The element's ancestors and the scroll
// bars are left out; ok is false when nothing of the content shows.
func shownSide(t *Tree, pos, pane int) (side int, ok bool) {
	ancestors := map[int]bool{}
	for p := t.Nodes[pos].Parent; p >= 0; p = t.Nodes[p].Parent {
		ancestors[p] = true
	}
	first, last := -1, -1
	end := subtreeEnd(t, pane)
	for i := pane + 1; i < end; i++ {
		n := &t.Nodes[i]
		if n.Role == "scroll_bar" {
			i = subtreeEnd(t, i) - 1
			continue
		}
		if i == pos || ancestors[i] || !n.HasState("showing") {
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	switch {
	case first < 0:
		return 0, false
	case pos < first:
		return -1, true
	case pos > last:
		return 1, true
	}
	return 0, true
}

// scrollIntoView brings the act's element, visible but not showing, into
// view before a headless act: it asks the backend to scroll, waits for
// the app to go quiet, and reads the window again, until the element
// shows. The read after the scroll becomes the act's read before (x.pre),
// so the act's diff holds the act's own changes, not the scroll's.
// Anything that stops it is element_disabled, unless the app itself
// failed (its own code).
func (x *act) scrollIntoView(ctx context.Context) *Error {
	notShowing := Errf(CodeElementDisabled, "element %d is not showing", x.token.Index)
	if x.synth {
		return notShowing
	}
	pane, ok := clippingPane(x.pre.tree, x.pos)
	if !ok {
		return notShowing
	}
	id := x.node.ID
	hint := ScrollHint{
		Pane:      x.pre.tree.Nodes[pane].ID,
		ScrollBar: scrollBarOf(x.pre.tree, pane),
		Position:  contentPosition(x.pre.tree, x.pos, pane),
	}
	lo, hi := 0.0, 1.0
	var pg pager
	for attempt := 0; attempt < scrollAttempts; attempt++ {
		mark, marked := x.s.settleMark(ctx, x.win.ID)
		err := x.s.d.callElement(ctx, func(cctx context.Context) error {
			return x.s.d.backend.ScrollIntoView(cctx, ElementRef{Window: x.win.ID, ID: id}, hint)
		})
		if err != nil {
			if err.Code == CodeNotActionable || err.Code == CodeUnsupported {
				return Errf(CodeElementDisabled, "element %d is not showing, and its app did not scroll it into view", x.token.Index)
			}
			return err
		}
		x.scrolled = true
		x.waitScrolled(ctx, mark, marked)
		sn, serr := x.s.snap(ctx, x.win.ID)
		if serr != nil {
			return serr
		}
		p, ok := sn.pos[x.token.Index]
		if !ok || sn.tree.Nodes[p].ID != id {
			return Errf(CodeStaleElementToken, "element %d went away while its view scrolled", x.token.Index)
		}
		if sn.tree.Nodes[p].HasState("showing") {
			_ = sn.fill(ctx, x.s.d, beforeRows(sn))
			if err := sn.fill(ctx, x.s.d, []int{p}); err != nil {
				return err
			}
			x.pre, x.pos, x.node = sn, p, &sn.tree.Nodes[p]
			if insensitive(x.node) {
				return Errf(CodeElementDisabled, "element %d is disabled", x.token.Index)
			}
			return nil
		}
		// Still clipped: the app scrolled by the bar to an estimate that
		// missed. Page through the element's nearest showing ancestor if
		// it is known where that lies; else halve the range on the side
		// where the element lies in document order.
		np, ok := clippingPane(sn.tree, p)
		if !ok {
			return notShowing
		}
		hint.Pane, hint.ScrollBar = sn.tree.Nodes[np].ID, scrollBarOf(sn.tree, np)
		if delta, ok := pg.next(ctx, x, sn, p); ok {
			hint.Delta = delta
			continue
		}
		hint.Delta = 0
		side, ok := shownSide(sn.tree, p, np)
		if !ok || side == 0 {
			return notShowing
		}
		if side < 0 {
			hi = hint.Position
		} else {
			lo = hint.Position
		}
		hint.Position = (lo + hi) / 2
	}
	return Errf(CodeElementDisabled, "element %d is not showing; scrolling did not bring it into view", x.token.Index)
}

// waitScrolled waits until the app has gone quiet after a scroll (its
// change reports, when the backend hears them), within the settle bound;
// without reports, for the quiet period.
func (x *act) waitScrolled(ctx context.Context, mark ChangeMark, marked bool) {
	if marked {
		cctx, cancel := context.WithTimeout(ctx, x.s.d.opts.SettleMax+x.s.d.opts.CallTimeout)
		defer cancel()
		if _, _, _, err := x.s.d.backend.WaitQuiet(cctx, x.win.ID, mark, x.s.d.opts.SettleQuiet, x.s.d.opts.SettleMax); err == nil {
			return
		}
	}
	_ = sleepCtx(ctx, x.s.d.opts.SettleQuiet)
}

// pager pages a view through the element's nearest showing ancestor: a
// part of the content taller than the view (a GTK grid of rows) whose
// frame is known, while the element's own place in it is not (a toolkit
// reports no frame for a clipped element, and its children's order need
// not follow their places).
type pager struct {
	part ElementID // the ancestor paged through
	page int       // the next page of it to bring into view
}

// next returns how far to move the view to bring the next page of the
// element's nearest showing ancestor into view; the view is the nearest
// showing scroll container above it (GTK 3 says its viewport is not
// showing once scrolled, but the scroll pane around it is). ok is false
// when there is none, a frame is unknown, or every page was shown.
func (pg *pager) next(ctx context.Context, x *act, sn *snapshot, pos int) (int, bool) {
	t := sn.tree
	part, view := -1, -1
	for p := t.Nodes[pos].Parent; p >= 0 && view < 0; p = t.Nodes[p].Parent {
		if !t.Nodes[p].HasState("showing") {
			continue
		}
		if scrollContainer(&t.Nodes[p]) {
			view = p
		} else if part < 0 {
			part = p
		}
	}
	if part < 0 || view < 0 || sn.fill(ctx, x.s.d, []int{part, view}) != nil {
		return 0, false
	}
	a, v := t.Nodes[part].Frame, t.Nodes[view].Frame
	if a.Empty() || v.Empty() {
		return 0, false
	}
	if sn.tree.Nodes[part].ID != pg.part {
		pg.part, pg.page = sn.tree.Nodes[part].ID, 0
	}
	// Pages overlap a little, so an element on a page's edge shows whole
	// on one of them.
	step := max(1, v.H*9/10)
	for ; pg.page*step < a.H; pg.page++ {
		top := a.Y + pg.page*step
		if top+v.H > a.Y+a.H && pg.page > 0 {
			top = a.Y + a.H - v.H // the last page ends with the part
		}
		if delta := top - v.Y; delta != 0 {
			pg.page++
			return delta, true
		}
	}
	return 0, false
}
