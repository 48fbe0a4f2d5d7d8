package engine

import (
	"context"
	"slices"
)

// A patch brings a read of a window up to date from what the window's app
// reported since the read (ChangeLister), reading again only what the
// reports name, and gives the read a whole read would give had the app
// reported all it changed. It is the one way the engine follows reports:
//
//   - an act's read before: a snapshot of the model's stands in for a
//     fresh read when its reports since ask nothing to be read
//     (reuse.go, reusable);
//   - an act's settled read: the read before, patched with the reports
//     since the act began (reuse.go, patched, which reads an act its app
//     reported nothing about whole, and says why);
//   - wait_for: after each batch of reports, the wait's last read patched,
//     and the condition checked on what the patch read (waitreports.go).
//
// The rule for each kind of report about an element the read holds:
//
//	report (Change)                          what the patch does
//	---------------------------------------  -------------------------------------------------
//	content: name, description, value,       read the element again (Refresh); its role must
//	  text or states changed                 stay, and its child count unless the batch
//	                                         names the children that came or went
//	structure, child added (Op, Child,       read the child's subtree (SubtreeReader) and put
//	  Index: children-changed naming it)     it in at Index; read the parent again: its new
//	                                         child count must be what it now holds
//	structure, child removed (Op, Child)     take the child's subtree out; the parent as above
//	structure without detail (children-      read the element's subtree again in place of the
//	  changed naming no child, role or       old one; its role must stay
//	  parent changed, element gone)
//	subtree: selection, active descendant,   as structure without detail; about an element
//	  rows shown changed among descendants   without children, as content (GTK 3 labels
//	                                         report their new text so)
//	extents: frame moved or resized, and     nothing read: the read's frames are marked stale
//	  nothing else said (bounds-changed)     (below)
//
// and for the reports no element rule covers:
//
//	report                                   what the patch does
//	---------------------------------------  -------------------------------------------------
//	about an element the read does not hold  a whole read; passed over when the
//	                                         element budget cut the read, or when
//	                                         the batch reports it added (below)
//	the lister did not keep them all         a whole read
//	  (ChangesSince: complete false)
//
// Frame moves. Acts used to read an element that reported one again as
// for content, waits passed them over. Reads return frames (every row
// shows one, and pointer input aims at it), so a move must reach what a
// read returns, and it does without reading the element: every patched
// read has its frames marked stale (snapshot.framesStale), so each row's
// frame is read again before it is shown (a read keeping the snapshot
// reads its rows' frames again, as it does any kept snapshot's: reuse.go
// details), and its details before it is acted on. That is needed anyway, as GTK 3 moves table cells without any
// report when a column widens (docs/decisions.md); reading the element's
// structure fields, as acts did, reads nothing a move changes. A read
// taken as it is (reusable) is never passed over a move: it is kept with
// its frames marked stale too.
//
// Parents. Acts also read the parent of each element reported changed
// again, so that a child that came or went with no report of its own
// would show in the parent's child count; waits did not. A child that
// comes or goes is reported on its parent (children-changed), and that
// report is followed by the rules above, so the parents are not read:
// the guard caught only a child change the app did not report that came
// with a report about a sibling, and it doubled the elements read.
//
// Elements not held. A report about an element the read does not hold
// means a whole read. It may be about an element a whole read leaves out
// too (past the depth or the budget's cut, not yet attached), but it may
// also come with changes to elements the read does hold that are not
// reported on them: after a click selected an entry of KeePassXC's list
// (Qt 5), passing such reports over left the entry unselected in the
// settled read, and a whole read shows it selected
// (TestKeePassXCMasterPassword). A whole read costs more; a read that
// misses what changed is wrong. The one exception is a read the element
// budget cut: there the element is most likely past the cut, a whole read
// stops at the same place, and the window is one a whole read is dearest
// for (a sheet, a long page). The other is a child the same batch reports
// added to an element the read holds: the patch reads the child as it is
// after the batch (its subtree put in, or its parent's read again), so
// what the child reported about itself is read with it. Firefox reports
// a replaced text node so: the paragraph's old child removed, the new
// one added (without its index), then a report about the new child; that
// sent every click on a page that rewrites a status line to a whole read.
//
// The patch gives up, and the caller reads the window whole, when the
// reports cannot say what changed or a whole read is cheaper: more than
// maxPatchElements elements to read again one by one, subtrees of more
// than maxSubtreeRows elements, a subtree read of the window's frame
// itself, a backend that reads no subtrees when one is needed, a subtree
// read cut short, a role that moved, a child count the reports do not
// account for, an element found in two places (it moved and only one end
// was reported), and in a read the element budget cut, a change that
// would bring in elements past the cut.
//
// Reports are what the app says about itself: a toolkit that changes
// something without a report is read as unchanged, which is why a read
// taken as it is must also be young (ReuseMaxAge).

// maxPatchElements bounds the elements a patch reads again one by one
// (content reports and the parents of child reports); past it a whole
// read is cheaper.
const maxPatchElements = 64

// maxSubtreeRows bounds the elements a patch reads again by subtree
// (counted in the read it replaces); past it one whole read is cheaper
// than reading them a level at a time.
const maxSubtreeRows = 128

// rule is what a patch does with one report about an element it holds
// (the table above). Stronger rules come later: an element reported
// twice is read by the stronger.
type rule int

const (
	ruleFrames  rule = iota + 1 // nothing read; frames stale
	ruleElement                 // the element read again
	ruleChild                   // a named child put in or taken out; the parent read again
	ruleSubtree                 // the element's subtree read again
)

// ruleOf is the table's rule for report c about n, an element the read
// holds. A kind it does not know is taken as structure without detail.
func ruleOf(c Change, n *Node) rule {
	switch c.Kind {
	case ChangeExtents:
		return ruleFrames
	case ChangeContent:
		return ruleElement
	case ChangeStructure:
		if childReport(c) {
			return ruleChild
		}
	case ChangeSubtree:
		if n.ChildCount == 0 {
			return ruleElement
		}
	}
	return ruleSubtree
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

// patcher follows reports from one read, its base. at is each element's
// position in base's tree, made when the first reports about base come: a
// wait on a quiet app does not hold a map of its whole window.
type patcher struct {
	s    *Session
	base *snapshot
	at   map[ElementID]int
}

// patch is what following one batch of reports gave.
type patch struct {
	// sn is the new read, not kept: laid out as a whole read would be,
	// its frames stale, stamped before the reports were listed (a report
	// coming in while the elements are read again is listed next time).
	sn *snapshot
	// reports is how many reports the batch held, followed or not.
	reports int
	// changed are the positions in sn of the elements read again, in tree
	// order; dropped the elements of base whose part of the tree was
	// replaced or taken out (some of them may be back among changed).
	changed []int
	dropped []ElementID
	// next follows reports from sn on.
	next patcher
}

// follow patches base with the reports since mark. ok is false when only
// a whole read will do.
func (p *patcher) follow(ctx context.Context, mark ChangeMark) (patch, bool) {
	cl := p.s.d.backend
	stamp := p.s.d.markNow(p.base.window)
	if !stamp.ok {
		return patch{}, false
	}
	changes, complete := cl.ChangesSince(p.base.window, mark)
	if !complete {
		return patch{}, false
	}
	pl, ok := p.plan(changes)
	if !ok {
		return patch{}, false
	}
	e := p.edit()
	if !e.readElements(ctx, cl, pl) || !e.readSubtrees(ctx, pl.roots) || !e.followChildren(ctx, pl) || !e.cutToBudget() {
		return patch{}, false
	}
	return p.result(e, pl, stamp, len(changes))
}

// readsNothing tells whether the reports since base's mark leave base as
// it is, asking no element to be read (a read that may then be taken as
// it is: reusable). framesMoved: some of them moved frames, so base's
// frames are stale.
func (p *patcher) readsNothing() (framesMoved, ok bool) {
	if !p.base.marked {
		return false, false
	}
	changes, complete := p.s.d.backend.ChangesSince(p.base.window, p.base.mark)
	if !complete {
		return false, false
	}
	pl, ok := p.plan(changes)
	return pl.framesMoved, ok && pl.empty()
}

// plan is what one batch of reports asks to read again, as positions in
// base's tree.
type plan struct {
	content []int            // elements read again
	roots   []int            // elements whose subtrees are read again, none inside another
	parents []int            // elements that gained or lost a named child, read again too
	ops     map[int][]Change // each parent's child reports, oldest first
	// framesMoved: some report moved a frame (ruleFrames).
	framesMoved bool
	// subtreeRows counts the elements of base the roots' subtrees hold.
	subtreeRows int
}

// empty: the batch asks nothing to be read.
func (pl *plan) empty() bool { return len(pl.content) == 0 && !pl.reshapes() }

// reshapes: the batch may move elements, so the new read is numbered and
// fingerprinted again.
func (pl *plan) reshapes() bool { return len(pl.roots) > 0 || len(pl.parents) > 0 }

// plan sorts a batch of reports by the table's rules. ok is false when
// only a whole read will do (too much to read, a subtree read of the
// frame, or subtrees a backend cannot read).
func (p *patcher) plan(changes []Change) (plan, bool) {
	pl := plan{}
	if len(changes) == 0 {
		return pl, true
	}
	rules, unheld := p.rules(changes, &pl)
	if unheld {
		return pl, false
	}
	for i, r := range rules {
		if r == ruleSubtree {
			pl.roots = append(pl.roots, i)
		} else {
			pl.content = append(pl.content, i)
		}
	}
	slices.Sort(pl.content)
	slices.Sort(pl.roots)
	inRoot := pl.outermostRoots(p.base.tree)
	// The elements reported changed in a root's subtree, and the
	// children reported there, are read with it.
	pl.content = slices.DeleteFunc(pl.content, func(i int) bool {
		if len(pl.ops[i]) > 0 && !inRoot(i) {
			pl.parents = append(pl.parents, i)
			return true
		}
		return inRoot(i)
	})
	slices.Sort(pl.parents)
	switch {
	case len(pl.content)+len(pl.parents) > maxPatchElements:
		return pl, false
	case len(pl.roots) > 0 && (pl.roots[0] == 0 || pl.subtreeRows > maxSubtreeRows):
		return pl, false
	}
	return pl, true
}

// rules gives each element of base the reports name its strongest rule
// but ruleFrames, which only marks pl; a child report is kept in pl.ops
// and reads its parent at least. unheld says a report is about an
// element base does not hold, which only a whole read can follow, unless
// the element budget cut base short or the batch reports the element
// added (then it is passed over: the rule on its parent reads it).
func (p *patcher) rules(changes []Change, pl *plan) (rules map[int]rule, unheld bool) {
	t := p.base.tree
	at := p.index()
	rules = map[int]rule{}
	added := addedIn(changes)
	for _, c := range changes {
		i, held := at[c.Source]
		if !held {
			if p.cutByBudget() || added[c.Source] {
				continue // past the cut, where a whole read stops too; or read with its parent
			}
			return nil, true
		}
		r := ruleOf(c, &t.Nodes[i])
		switch r {
		case ruleFrames:
			pl.framesMoved = true
			continue
		case ruleChild:
			if pl.ops == nil {
				pl.ops = map[int][]Change{}
			}
			pl.ops[i] = append(pl.ops[i], c)
			r = ruleElement
		}
		rules[i] = max(rules[i], r)
	}
	return rules, false
}

// addedIn is the children a batch of reports says were added, under
// any parent. A report about one of them is read with it: an added child
// whose parent the read holds is read as it is after the batch (followChild,
// or its parent's subtree read again); one whose parent it does not hold
// sends the batch to a whole read by that report.
func addedIn(changes []Change) map[ElementID]bool {
	var added map[ElementID]bool
	for _, c := range changes {
		if c.Op == ChildAdded && c.Child != "" {
			if added == nil {
				added = map[ElementID]bool{}
			}
			added[c.Child] = true
		}
	}
	return added
}

// outermostRoots keeps the roots not inside another's subtree, counts
// the elements theirs hold, and returns a test of whether a position
// lies in one of them.
func (pl *plan) outermostRoots(t *Tree) func(int) bool {
	var ends []int
	kept := pl.roots[:0]
	for _, r := range pl.roots {
		if len(kept) > 0 && r < ends[len(ends)-1] {
			continue
		}
		kept = append(kept, r)
		ends = append(ends, subtreeEnd(t, r))
		pl.subtreeRows += ends[len(ends)-1] - r
	}
	pl.roots = kept
	return func(i int) bool {
		k, found := slices.BinarySearch(pl.roots, i)
		return found || (k > 0 && i < ends[k-1])
	}
}

// index is at, made from base's tree if it is not yet.
func (p *patcher) index() map[ElementID]int {
	if p.at == nil {
		p.at = indexOf(p.base.tree)
	}
	return p.at
}

// draft is a patch being made: base's tree copied, then edited step by
// step (edit, then readElements, readSubtrees, followChildren and
// cutToBudget, in that order).
type draft struct {
	p    *patcher
	base *Tree // base's tree, not to be written
	t    *Tree // the new read, base's copied
	// cut: base was cut by the element budget, so it is the first so
	// many elements of the window in tree order. What is added is put in
	// and as many cut off its end as a whole read would leave out; what
	// is taken away would bring in elements the read does not have.
	cut     bool
	changed []ElementID
	dropped []ElementID
}

// edit starts a draft from base. The copy is made under base's fill lock:
// a read may be filling in base's details meanwhile (its fields other
// than details are never written once read, so the draft reads those in
// base itself).
func (p *patcher) edit() *draft {
	t := p.base.tree
	p.base.fillMu.Lock()
	nodes := slices.Clone(t.Nodes)
	p.base.fillMu.Unlock()
	return &draft{p: p, base: t, t: &Tree{Window: t.Window, Truncated: t.Truncated, BlocksOnly: t.BlocksOnly, Nodes: nodes},
		cut: t.Truncated && len(t.Nodes) >= p.s.d.opts.ZoomBudget.MaxElements}
}

// readElements reads again, in one round, the elements reported changed
// and the parents whose children the reports say came or went: their
// structure fields (Refresh) and, for the ones whose value base held,
// their details, as whoever compares values (an act's diff, a wait's text
// condition) needs them; other details are read when a row is shown or
// acted on. It fails on an error, a role that moved, or a child count
// that moved on an element that is not among the parents.
func (e *draft) readElements(ctx context.Context, cl ChangeLister, pl plan) bool {
	positions := append(slices.Clone(pl.content), pl.parents...)
	if len(positions) == 0 {
		return true
	}
	d := e.p.s.d
	nodes := make([]*Node, len(positions))
	was := make([]Node, len(positions)) // as base held them
	var detailed []int
	var copies []*Node
	for i, p := range positions {
		nodes[i], was[i] = &e.t.Nodes[p], e.t.Nodes[p]
		if was[i].Detailed && was[i].HasValue {
			c := was[i]
			c.Detailed = false
			detailed = append(detailed, i)
			copies = append(copies, &c)
		}
	}
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	detailsDone := make(chan error, 1)
	if len(copies) > 0 {
		go func() { detailsDone <- d.backend.ReadDetails(cctx, e.t.Window, copies) }()
	} else {
		detailsDone <- nil
	}
	rerr := cl.Refresh(cctx, nodes)
	derr := <-detailsDone
	if rerr != nil || derr != nil {
		return false
	}
	for i, p := range positions {
		n := &e.t.Nodes[p]
		if n.Role != was[i].Role || (n.ChildCount != was[i].ChildCount && !slices.Contains(pl.parents, p)) {
			return false
		}
		e.changed = append(e.changed, n.ID)
	}
	var again []int
	for k, i := range detailed {
		p := positions[i]
		n, c := &e.t.Nodes[p], copies[k]
		if n.HasState("showing") != was[i].HasState("showing") {
			// Its frame is read only while it shows: read it as it is now.
			again = append(again, p)
			continue
		}
		n.Value, n.HasValue, n.Numeric, n.Actions, n.Frame, n.Detailed = c.Value, c.HasValue, c.Numeric, c.Actions, c.Frame, c.Detailed
		if n.Secure {
			n.Value, n.HasValue = "", false
		}
	}
	return d.fillDetails(ctx, e.t, again) == nil
}

// readSubtrees reads each root's subtree again and puts it in place of
// the old one, the last first so that the positions before each stay put.
// The root keeps its id, its index among its siblings and its secrecy;
// a role that moved means a whole read.
func (e *draft) readSubtrees(ctx context.Context, roots []int) bool {
	for i := len(roots) - 1; i >= 0; i-- {
		r := roots[i]
		old := e.t.Nodes[r]
		end := subtreeEnd(e.t, r)
		sub, ok := e.readSubtree(ctx, old.ID, old.Depth, e.room(r, end))
		if !ok || sub[0].Role != old.Role {
			return false
		}
		sub[0].ID, sub[0].IndexInParent, sub[0].Secure = old.ID, old.IndexInParent, sub[0].Secure || old.Secure
		for q := r; q < end; q++ {
			e.dropped = append(e.dropped, e.t.Nodes[q].ID)
		}
		for _, n := range sub {
			e.changed = append(e.changed, n.ID)
		}
		e.t = replaceRange(e.t, r, end, placed(sub, old.Parent, r))
	}
	return true
}

// followChildren puts in and takes out the children each parent reported,
// in the order reported; then the children the parent holds must be as
// many as its new child count, but under a parent the budget cut.
func (e *draft) followChildren(ctx context.Context, pl plan) bool {
	for _, p := range pl.parents {
		parent := e.base.Nodes[p].ID
		for _, c := range pl.ops[p] {
			if !e.followChild(ctx, parent, c) {
				return false
			}
		}
		at := positionOf(e.t, parent)
		if at < 0 {
			return false
		}
		held, cut := renumberChildren(e.t, at), e.cut && subtreeEnd(e.t, at) == len(e.t.Nodes)
		if held != e.t.Nodes[at].ChildCount && !(cut && held < e.t.Nodes[at].ChildCount) {
			return false
		}
	}
	return true
}

// followChild puts an added child's subtree in, or takes a removed one's
// out, under the element parent. It fails when the report does not fit
// the tree (the child is not where it says, the index is past the end),
// and on a removal from a read the budget cut.
func (e *draft) followChild(ctx context.Context, parent ElementID, c Change) bool {
	t := e.t
	p := positionOf(t, parent)
	if p < 0 {
		return false
	}
	if c.Op == ChildRemoved {
		q := positionOf(t, c.Child)
		if e.cut || q < 0 || t.Nodes[q].Parent != p {
			return false
		}
		end := subtreeEnd(t, q)
		for i := q; i < end; i++ {
			e.dropped = append(e.dropped, t.Nodes[i].ID)
		}
		e.t = replaceRange(t, q, end, nil)
		return true
	}
	kids := childPositions(t, p)
	if c.Index > len(kids) || positionOf(t, c.Child) >= 0 {
		return false
	}
	at := subtreeEnd(t, p)
	if c.Index < len(kids) {
		at = kids[c.Index]
	}
	sub, ok := e.readSubtree(ctx, c.Child, t.Nodes[p].Depth+1, e.room(at, at))
	if !ok {
		return false
	}
	for i := range sub {
		e.changed = append(e.changed, sub[i].ID)
	}
	e.t = replaceRange(t, at, at, placed(sub, p, at))
	return true
}

// room counts the elements a subtree read in place of [from, to) of the
// draft leaves room for under the budget: all others, or in a read cut by
// the budget, those before it (what follows is cut to make room).
func (e *draft) room(from, to int) int {
	if e.cut {
		return from
	}
	return len(e.t.Nodes) - (to - from)
}

// readSubtree reads an element's subtree, its root to sit at depth, in a
// tree that holds others elements besides it. ok is false when it fails
// or the budget would cut it.
func (e *draft) readSubtree(ctx context.Context, id ElementID, depth, others int) ([]Node, bool) {
	d := e.p.s.d
	budget := d.opts.ZoomBudget
	room, deep := budget.MaxElements-others, budget.MaxDepth-depth
	// A budget of zero would read as the backend's default one.
	if room <= 0 || deep <= 0 {
		return nil, false
	}
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	sub, err := d.backend.ReadSubtree(cctx, e.t.Window, id, Budget{MaxElements: room, MaxDepth: deep})
	if err != nil || sub == nil || sub.Truncated || len(sub.Nodes) == 0 {
		return nil, false
	}
	for i := range sub.Nodes {
		sub.Nodes[i].Depth += depth
	}
	return sub.Nodes, true
}

// cutToBudget cuts a read the budget cut before to the budget again, as a
// whole read would cut it. It fails when a whole read would now cut a
// read it did not, or bring in elements past the old cut.
func (e *draft) cutToBudget() bool {
	maxRows := e.p.s.d.opts.ZoomBudget.MaxElements
	switch n := len(e.t.Nodes); {
	case n > maxRows && e.cut:
		for _, node := range e.t.Nodes[maxRows:] {
			e.dropped = append(e.dropped, node.ID)
		}
		e.t.Nodes = e.t.Nodes[:maxRows:maxRows]
	case n > maxRows, n < maxRows && e.cut:
		return false
	}
	return true
}

// result lays the draft out as a whole read would be: with base's row
// numbers and fingerprint when no element moved, else numbered by the
// window's row registry and fingerprinted again, so that its tokens act,
// and go stale, exactly as a whole read's. An element in two places means
// the reports did not tell all.
func (p *patcher) result(e *draft, pl plan, stamp changeStamp, reports int) (patch, bool) {
	b := p.base
	sn := &snapshot{window: b.window, structure: b.structure, tree: e.t, rows: b.rows, pos: b.pos,
		framesStale: true, mark: stamp.mark, marked: stamp.ok, at: stamp.at}
	if !pl.reshapes() {
		return patch{sn: sn, reports: reports, changed: pl.content, next: patcher{s: p.s, base: sn, at: p.at}}, true
	}
	rows := p.s.d.rows.number(e.t)
	pos := make(map[int]int, len(rows))
	for i, n := range rows {
		pos[n] = i
	}
	sn.rows, sn.pos, sn.structure = rows, pos, structureOf(e.t)
	at := indexOf(e.t)
	if len(at) != len(e.t.Nodes) {
		return patch{}, false
	}
	pt := patch{sn: sn, reports: reports, dropped: e.dropped, next: patcher{s: p.s, base: sn, at: at}}
	for _, id := range e.changed {
		if i, ok := at[id]; ok {
			pt.changed = append(pt.changed, i)
		}
	}
	slices.Sort(pt.changed)
	pt.changed = slices.Compact(pt.changed)
	return pt, true
}

// cutByBudget tells whether the element budget cut base short: its
// elements are the window's first so many in tree order.
func (p *patcher) cutByBudget() bool {
	t := p.base.tree
	return t.Truncated && len(t.Nodes) >= p.s.d.opts.ZoomBudget.MaxElements
}
