package engine

import "context"

// Synthetic input aimed at an element by token goes to the centre of the
// element's frame as the act's read saw it. Two things can make that point
// hold another element: the read is out of date (the layout moved, a popup
// or an overlay now covers the element), or the frame was in the wrong
// space. Either way the click would land elsewhere and, without a check,
// be reported as done. So before anything is sent the engine asks the
// backend what the point holds now (HitTester), and after the act it looks
// at where the act's marks landed (landedElsewhere).

// hitTest refuses synthetic input at p, aimed at the element at position
// pos of the act's read (index idx on the wire), unless the element the
// app names at p is that element or one inside it. A refusal is occluded
// when the element is still where the read saw it (something else lies on
// top of it), and stale_element_token when it is not (it moved, shrank or
// went away since the read). A backend that cannot hit-test is trusted.
func (x *act) hitTest(ctx context.Context, p Point, pos, idx int) *Error {
	ht, ok := x.s.d.backend.(HitTester)
	// The root is the window's frame: the window check before (TopmostAt)
	// has already found the point in it.
	if !ok || pos <= 0 || pos >= len(x.pre.tree.Nodes) {
		return nil
	}
	cctx, cancel := x.s.d.callBound(ctx)
	defer cancel()
	// An app that names nothing at a point inside its window may not have
	// answered yet: Firefox answers its first question at a point with
	// nothing and the next one right. It is asked up to three times.
	var chain []ElementID
	for ask := 0; ask < 3 && len(chain) == 0; ask++ {
		var err error
		if chain, err = ht.ElementsAt(cctx, x.win.ID, p); err != nil {
			return AsError(inBound(cctx, err))
		}
	}
	if holdsElement(x.pre.tree, pos, chain) {
		return nil
	}
	if x.stillAt(ctx, pos, p) {
		return Errf(CodeOccluded, "another element of window %d covers element %d at the point; nothing was sent", x.win.ID, idx)
	}
	return Errf(CodeStaleElementToken, "element %d is no longer at the point the read gave (the layout moved); nothing was sent", idx)
}

// holdsElement reports whether a hit-test's chain names the element at pos
// of t or an element inside it. The chain is compared by id, so an element
// the read does not hold can still be the target; an element the read does
// hold counts when pos is among its ancestors (a toolkit may answer with
// the deepest element at once, a link's text inside the link).
func holdsElement(t *Tree, pos int, chain []ElementID) bool {
	target := t.Nodes[pos].ID
	var at map[ElementID]int
	for _, id := range chain {
		if id == target {
			return true
		}
		if at == nil {
			at = make(map[ElementID]int, len(t.Nodes))
			for i := range t.Nodes {
				at[t.Nodes[i].ID] = i
			}
		}
		q, ok := at[id]
		for ok && q >= 0 {
			if q == pos {
				return true
			}
			q = t.Nodes[q].Parent
		}
	}
	return false
}

// stillAt reads the element's frame again, live, and reports whether it
// still holds p. Any failure to read it counts as moved.
func (x *act) stillAt(ctx context.Context, pos int, p Point) bool {
	n := x.pre.tree.Nodes[pos]
	n.Detailed, n.Frame, n.Actions = false, Rect{}, nil
	cctx, cancel := x.s.d.callBound(ctx)
	defer cancel()
	if x.s.d.backend.ReadDetails(cctx, x.win.ID, []*Node{&n}) != nil || !n.Detailed {
		return false
	}
	return n.Frame.Contains(p)
}

// markStates are the states a pointer act leaves on the element it lands
// on: a press focuses most controls, and a click checks, selects, expands
// or presses them.
var markStates = []string{"focused", "checked", "selected", "expanded", "pressed", "armed"}

// landedElsewhere looks at a settled read after a synthetic click aimed at
// the element at position pos of pre, and lists (by element_index) the
// other elements that gained a mark state while the target and everything
// inside it gained none, changed no label or value and did not go away: the
// click reached those elements, not the target. Their ancestors are left
// out (a window gaining focus says nothing), and so is any element when
// the target shows a change of its own. Empty means nothing says the click
// went elsewhere.
func landedElsewhere(pre, post *snapshot, pos int) []int {
	if pos < 0 || pos >= len(pre.tree.Nodes) {
		return nil
	}
	inTarget := func(t *Tree, i int) bool {
		for ; i >= 0; i = t.Nodes[i].Parent {
			if t.Nodes[i].ID == pre.tree.Nodes[pos].ID {
				return true
			}
		}
		return false
	}
	ancestors := map[ElementID]bool{}
	for i := pre.tree.Nodes[pos].Parent; i >= 0; i = pre.tree.Nodes[i].Parent {
		ancestors[pre.tree.Nodes[i].ID] = true
	}
	// A click on an element that takes no focus may move the focus
	// elsewhere on purpose (a search button focusing its entry): focus
	// gained elsewhere then says nothing about where the click went.
	focusable := pre.tree.Nodes[pos].HasState("focusable")
	tidx := pre.rows[pos]
	if _, ok := post.pos[tidx]; !ok {
		return nil // the target went away: that is its own change
	}
	var others []int
	for i := range post.tree.Nodes {
		pn := &post.tree.Nodes[i]
		idx := post.rows[i]
		j, existed := pre.pos[idx]
		var qn *Node
		if existed {
			qn = &pre.tree.Nodes[j]
		}
		if inTarget(post.tree, i) {
			if qn == nil || gainedMark(qn, pn, true) || labelOf(qn) != labelOf(pn) ||
				(qn.Detailed && pn.Detailed && qn.Value != pn.Value) {
				return nil
			}
			continue
		}
		if qn != nil && gainedMark(qn, pn, focusable) && !ancestors[pn.ID] {
			others = append(others, idx)
		}
	}
	return others
}

// gainedMark reports whether b holds a mark state a did not; focus counts
// only when withFocus.
func gainedMark(a, b *Node, withFocus bool) bool {
	for _, st := range markStates {
		if st == "focused" && !withFocus {
			continue
		}
		if b.HasState(st) && !a.HasState(st) {
			return true
		}
	}
	return false
}
