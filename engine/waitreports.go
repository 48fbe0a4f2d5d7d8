package engine

import (
	"context"
	"slices"
)

// How wait_for follows its app's change reports (docs/contract.md#wait-for).
// A wait costs what changed, not what the window holds: after each batch
// of reports it reads again only the elements the reports name, and
// checks the condition on those alone (waitfor.go):
//
//   - a report about an element's own content (name, states, value, text)
//     reads that element's structure fields again (ChangeLister.Refresh);
//   - a report that names an element added under another or removed from
//     it (children-changed with its child) reads the added element's
//     subtree (SubtreeReader) and puts it in at the index the report
//     gives, or takes the removed one's subtree out; the parent is read
//     again too, and its new child count must agree;
//   - any other structural report, and a report that something among an
//     element's descendants changed, reads that element's whole subtree
//     again and puts it in place of the old one;
//   - a report about an element the read does not hold is about another
//     window of the app, an element not yet attached (its attachment is
//     reported on its parent), or one the read's rules leave out (a
//     container's children it may not ask for, past the depth), which a
//     whole read would leave out again; it is passed over, unless the
//     read was cut by its element budget and the element did not come in
//     with a subtree read after the report.
//
// The whole window is read again only when the reports cannot say what
// changed: reports the backend did not keep, more of them than a whole
// read costs, a structural report about the frame itself or about a
// subtree too large to read element by element, a subtree cut short, an
// element whose role or child count moved without a report saying so, or
// a backend that cannot read a subtree.
//
// The new read keeps the snapshot machinery's rules: its rows are
// numbered by the window's row registry and its structure fingerprinted
// as a whole read's would be, so the row a wait answers with carries a
// token that acts, and goes stale, exactly as a read's.

// maxSubtreeRows bounds the elements a wait reads again by subtree after
// one batch of reports (counted in the read it replaces); past it one
// whole read is cheaper than reading them a level at a time.
const maxSubtreeRows = 128

// reportRead is what following one batch of reports gave.
type reportRead struct {
	sn *snapshot
	// whole: the window was read whole; the condition is checked on all
	// of it.
	whole bool
	// changed are the positions in sn of the elements read again, in tree
	// order; dropped the elements of the read before whose part of the
	// tree was replaced (some of them may be back among changed).
	changed []int
	dropped []ElementID
}

// reportFollower follows one wait's reports from its current snapshot.
type reportFollower struct {
	s   *Session
	cur *snapshot
	// at is each element's position in cur's tree, made when the first
	// reports about cur come (index): a wait on a quiet app does not hold
	// a map of its whole window.
	at map[ElementID]int
	// budgetCut: cur's tree was cut by the element budget (next).
	budgetCut bool
}

// start makes cur the snapshot the next reports are followed from.
func (f *reportFollower) start(cur *snapshot) {
	f.cur, f.at = cur, nil
}

// index is at, made from cur's tree if it is not yet.
func (f *reportFollower) index() map[ElementID]int {
	if f.at == nil {
		f.at = make(map[ElementID]int, len(f.cur.tree.Nodes))
		for i := range f.cur.tree.Nodes {
			f.at[f.cur.tree.Nodes[i].ID] = i
		}
	}
	return f.at
}

// whole reads the window whole and follows on from that read.
func (f *reportFollower) whole(ctx context.Context) (reportRead, *Error) {
	sn, err := f.s.draftRead(ctx, f.cur.window)
	if err != nil {
		return reportRead{}, err
	}
	f.start(sn)
	return reportRead{sn: sn, whole: true}, nil
}

// reportPlan is what one batch of reports asks to read again, as
// positions in the current snapshot's tree.
type reportPlan struct {
	content []int            // elements whose own fields changed
	roots   []int            // elements whose subtrees are read again
	parents []int            // elements that gained or lost a named child
	ops     map[int][]Change // each parent's child reports, oldest first
}

// next reads what the reports since the current snapshot's mark name, and
// returns the new snapshot with what changed in it.
func (f *reportFollower) next(ctx context.Context) (reportRead, *Error) {
	cur := f.cur
	cl, ok := f.s.d.backend.(ChangeLister)
	if !ok || !cur.marked {
		return f.whole(ctx)
	}
	stamp := f.s.d.markNow(cur.window)
	if !stamp.ok {
		return f.whole(ctx)
	}
	changes, complete := cl.ChangesSince(cur.window, cur.mark)
	// Frames that moved cost nothing here: the new read's frames are
	// marked stale, and read again for the rows it shows or acts on.
	changes = slices.DeleteFunc(changes, func(c Change) bool { return c.Kind == ChangeExtents })
	if !complete || len(changes) > maxPatchChanges {
		return f.whole(ctx)
	}
	_, subtrees := f.s.d.backend.(SubtreeReader)
	pl, ok := f.plan(changes, subtrees)
	if !ok {
		return f.whole(ctx)
	}
	t := cur.tree
	// A read the element budget cut short is the first so many elements
	// of the window in tree order: what is added is put in and as many
	// cut off its end as a whole read would leave out, but what is taken
	// away would bring in elements this read does not have.
	maxRows := f.s.d.opts.ZoomBudget.MaxElements
	f.budgetCut = t.Truncated && len(t.Nodes) >= maxRows
	nt := &Tree{Window: t.Window, Truncated: t.Truncated, Nodes: slices.Clone(t.Nodes)}
	// One round of Refresh for the changed elements and the parents whose
	// child counts the child reports must account for.
	if reread := append(slices.Clone(pl.content), pl.parents...); len(reread) > 0 && !f.refresh(ctx, cl, t, nt, reread, pl.parents) {
		return f.whole(ctx)
	}
	var changedIDs, dropped []ElementID
	for _, p := range pl.content {
		changedIDs = append(changedIDs, t.Nodes[p].ID)
	}
	for _, p := range pl.parents {
		changedIDs = append(changedIDs, t.Nodes[p].ID)
	}
	// Subtrees last first, so that the positions before each stay put.
	for i := len(pl.roots) - 1; i >= 0; i-- {
		r := pl.roots[i]
		old := nt.Nodes[r]
		sub, ok := f.readSubtree(ctx, nt, old.ID, old.Depth, f.before(nt, r, subtreeEnd(nt, r)))
		if !ok || sub[0].Role != old.Role {
			return f.whole(ctx)
		}
		sub[0].ID, sub[0].IndexInParent, sub[0].Secure = old.ID, old.IndexInParent, sub[0].Secure || old.Secure
		end := subtreeEnd(nt, r)
		for q := r; q < end; q++ {
			dropped = append(dropped, nt.Nodes[q].ID)
		}
		for _, n := range sub {
			changedIDs = append(changedIDs, n.ID)
		}
		nt = replaceRange(nt, r, end, placed(sub, old.Parent, r))
	}
	for _, p := range pl.parents {
		parent := t.Nodes[p].ID
		for _, c := range pl.ops[p] {
			ids, gone, ok := f.applyChild(ctx, nt, parent, c)
			if !ok {
				return f.whole(ctx)
			}
			nt = ids.tree
			changedIDs = append(changedIDs, ids.added...)
			dropped = append(dropped, gone...)
		}
		at := positionOf(nt, parent)
		if at < 0 {
			return f.whole(ctx)
		}
		// The reports must account for every child, but those of a
		// parent the budget cut.
		held, cut := renumberChildren(nt, at), f.budgetCut && subtreeEnd(nt, at) == len(nt.Nodes)
		if held != nt.Nodes[at].ChildCount && !(cut && held < nt.Nodes[at].ChildCount) {
			return f.whole(ctx)
		}
	}

	switch {
	case len(nt.Nodes) > maxRows && f.budgetCut:
		for _, n := range nt.Nodes[maxRows:] {
			dropped = append(dropped, n.ID)
		}
		nt.Nodes = nt.Nodes[:maxRows:maxRows]
	case len(nt.Nodes) > maxRows, len(nt.Nodes) < maxRows && f.budgetCut:
		// A whole read would now cut the window, or bring in elements
		// past the old cut.
		return f.whole(ctx)
	}
	next := &snapshot{window: cur.window, structure: cur.structure, tree: nt, rows: cur.rows, pos: cur.pos,
		framesStale: true, mark: stamp.mark, marked: stamp.ok, at: stamp.at}
	if len(pl.roots) == 0 && len(pl.parents) == 0 {
		f.cur = next
		return reportRead{sn: next, changed: pl.content}, nil
	}
	rows := f.s.d.rows.number(nt)
	pos := make(map[int]int, len(rows))
	for i, n := range rows {
		pos[n] = i
	}
	next.rows, next.pos, next.structure = rows, pos, structureOf(nt)
	f.start(next)
	at := f.index()
	if len(at) != len(nt.Nodes) {
		// An element in two places (it moved, and only one end was
		// reported): the reports did not tell all.
		return f.whole(ctx)
	}
	rr := reportRead{sn: next, dropped: dropped}
	for _, id := range changedIDs {
		if p, ok := at[id]; ok {
			rr.changed = append(rr.changed, p)
		}
	}
	slices.Sort(rr.changed)
	rr.changed = slices.Compact(rr.changed)
	return rr, nil
}

// plan sorts one batch of reports. ok is false when only a whole read
// will do: a subtree to read again is the whole window or too large, or
// the backend reads no subtrees and one is needed.
func (f *reportFollower) plan(changes []Change, subtrees bool) (reportPlan, bool) {
	t := f.cur.tree
	at := f.index()
	pl := reportPlan{ops: map[int][]Change{}}
	kinds := map[int]ChangeKind{}
	for _, c := range changes {
		p, held := at[c.Source]
		if !held {
			continue
		}
		kind := c.Kind
		// A subtree report about an element without children is about
		// the element itself (GTK 3 labels report their new text so).
		if kind == ChangeSubtree && t.Nodes[p].ChildCount == 0 {
			kind = ChangeContent
		}
		if kind == ChangeStructure && childReport(c) {
			pl.ops[p] = append(pl.ops[p], c)
			if _, seen := kinds[p]; !seen {
				kinds[p] = ChangeContent // read again, at least
			}
			continue
		}
		if prev, seen := kinds[p]; !seen || prev == ChangeContent {
			kinds[p] = kind
		}
	}
	for p, k := range kinds {
		if k == ChangeContent {
			pl.content = append(pl.content, p)
		} else {
			pl.roots = append(pl.roots, p)
		}
	}
	slices.Sort(pl.content)
	slices.Sort(pl.roots)
	// A root inside another root's subtree is read with it; so are the
	// elements reported changed there, and the children reported there.
	var ends []int
	kept := pl.roots[:0]
	rows := 0
	for _, r := range pl.roots {
		if len(kept) > 0 && r < ends[len(ends)-1] {
			continue
		}
		kept = append(kept, r)
		ends = append(ends, subtreeEnd(t, r))
		rows += ends[len(ends)-1] - r
	}
	pl.roots = kept
	inRoot := func(p int) bool {
		i, found := slices.BinarySearch(pl.roots, p)
		return found || (i > 0 && p < ends[i-1])
	}
	pl.content = slices.DeleteFunc(pl.content, func(p int) bool {
		if len(pl.ops[p]) > 0 && !inRoot(p) {
			pl.parents = append(pl.parents, p)
			return true
		}
		return inRoot(p)
	})
	slices.Sort(pl.parents)
	if len(pl.roots) > 0 && (!subtrees || pl.roots[0] == 0 || rows > maxSubtreeRows) {
		return pl, false
	}
	if len(pl.parents) > 0 && !subtrees {
		return pl, false
	}
	return pl, true
}

// childReport tells whether a structural report names the child it added
// or removed well enough to follow it: an addition needs its index.
func childReport(c Change) bool {
	switch c.Op {
	case ChildAdded:
		return c.Child != "" && c.Index >= 0
	case ChildRemoved:
		return c.Child != ""
	}
	return false
}

// refresh reads the elements at positions of nt (a copy of t) again. It
// fails, and the wait reads the window whole, on an error or when a role
// moved, or a child count moved on an element that is not among parents
// (whose children the reports say came or went).
func (f *reportFollower) refresh(ctx context.Context, cl ChangeLister, t, nt *Tree, positions, parents []int) bool {
	nodes := make([]*Node, len(positions))
	for i, p := range positions {
		nodes[i] = &nt.Nodes[p]
	}
	cctx, cancel := f.s.d.callBound(ctx)
	defer cancel()
	if cl.Refresh(cctx, nodes) != nil {
		return false
	}
	for _, p := range positions {
		if nt.Nodes[p].Role != t.Nodes[p].Role {
			return false
		}
		if nt.Nodes[p].ChildCount != t.Nodes[p].ChildCount && !slices.Contains(parents, p) {
			return false
		}
	}
	return true
}

// readSubtree reads an element's subtree, its root to sit at depth, in a
// tree that holds others elements besides it. ok is false when it fails
// or the budget would cut it.
func (f *reportFollower) readSubtree(ctx context.Context, t *Tree, id ElementID, depth, others int) ([]Node, bool) {
	budget := f.s.d.opts.ZoomBudget
	room, deep := budget.MaxElements-others, budget.MaxDepth-depth
	// A budget of zero would read as the backend's default one.
	if room <= 0 || deep <= 0 {
		return nil, false
	}
	cctx, cancel := f.s.d.callBound(ctx)
	defer cancel()
	sub, err := f.s.d.backend.(SubtreeReader).ReadSubtree(cctx, t.Window, id, Budget{MaxElements: room, MaxDepth: deep})
	if err != nil || sub == nil || sub.Truncated || len(sub.Nodes) == 0 {
		return nil, false
	}
	for i := range sub.Nodes {
		sub.Nodes[i].Depth += depth
	}
	return sub.Nodes, true
}

// before counts the elements a subtree read in place of [from, to) of t
// leaves room for under the budget: all others, or in a read cut by the
// budget, those before it (what follows is cut to make room).
func (f *reportFollower) before(t *Tree, from, to int) int {
	if f.budgetCut {
		return from
	}
	return len(t.Nodes) - (to - from)
}

// placed makes a subtree's nodes (Parent counted within it) nodes of a
// tree where its root sits at position at under parent.
func placed(sub []Node, parent, at int) []Node {
	for i := range sub {
		if i == 0 {
			sub[i].Parent = parent
		} else {
			sub[i].Parent += at
		}
	}
	return sub
}

// childApplied is a tree after one child report.
type childApplied struct {
	tree  *Tree
	added []ElementID
}

// applyChild puts an added child's subtree in, or takes a removed one's
// out, under the element parent. ok is false when the report does not fit
// the tree (the child is not where it says, the index is past the end).
func (f *reportFollower) applyChild(ctx context.Context, t *Tree, parent ElementID, c Change) (childApplied, []ElementID, bool) {
	p := positionOf(t, parent)
	if p < 0 {
		return childApplied{}, nil, false
	}
	kids := childPositions(t, p)
	if c.Op == ChildRemoved {
		q := positionOf(t, c.Child)
		if f.budgetCut {
			return childApplied{}, nil, false
		}
		if q < 0 || t.Nodes[q].Parent != p {
			return childApplied{}, nil, false
		}
		end := subtreeEnd(t, q)
		var gone []ElementID
		for i := q; i < end; i++ {
			gone = append(gone, t.Nodes[i].ID)
		}
		return childApplied{tree: replaceRange(t, q, end, nil)}, gone, true
	}
	if c.Index > len(kids) || positionOf(t, c.Child) >= 0 {
		return childApplied{}, nil, false
	}
	at := subtreeEnd(t, p)
	if c.Index < len(kids) {
		at = kids[c.Index]
	}
	sub, ok := f.readSubtree(ctx, t, c.Child, t.Nodes[p].Depth+1, f.before(t, at, at))
	if !ok {
		return childApplied{}, nil, false
	}
	ids := make([]ElementID, len(sub))
	for i := range sub {
		ids[i] = sub[i].ID
	}
	return childApplied{tree: replaceRange(t, at, at, placed(sub, p, at)), added: ids}, nil, true
}

// replaceRange returns t with the nodes at [from, to) (a whole subtree,
// or nothing) replaced by with, whose Parent fields are already the new
// tree's; the parents of the nodes after the range are moved along.
func replaceRange(t *Tree, from, to int, with []Node) *Tree {
	delta := len(with) - (to - from)
	out := &Tree{Window: t.Window, Truncated: t.Truncated, Nodes: make([]Node, 0, len(t.Nodes)+delta)}
	out.Nodes = append(out.Nodes, t.Nodes[:from]...)
	out.Nodes = append(out.Nodes, with...)
	for _, n := range t.Nodes[to:] {
		if n.Parent >= to {
			n.Parent += delta
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out
}

// positionOf is the position of the element id in t, -1 when absent.
func positionOf(t *Tree, id ElementID) int {
	for i := range t.Nodes {
		if t.Nodes[i].ID == id {
			return i
		}
	}
	return -1
}

// childPositions lists the positions of the children of the node at p.
func childPositions(t *Tree, p int) []int {
	var out []int
	end := subtreeEnd(t, p)
	for q := p + 1; q < end; q++ {
		if t.Nodes[q].Parent == p {
			out = append(out, q)
		}
	}
	return out
}

// renumberChildren sets the IndexInParent of the children of the node at
// p in order, and returns how many there are.
func renumberChildren(t *Tree, p int) int {
	kids := childPositions(t, p)
	for i, q := range kids {
		t.Nodes[q].IndexInParent = i
	}
	return len(kids)
}
