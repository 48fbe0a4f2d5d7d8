package engine

import (
	"context"
	"maps"
	"slices"
	"time"
)

// Reads an act can leave out. An act needs the window's structure twice:
// before acting (to check the token and have a base for the diff) and
// after settling (the new snapshot), and a whole read costs about 12 ms per
// thousand elements on a real app. With a backend that says which elements
// its apps reported changed (ChangeLister), neither read is needed in the
// common case:
//
//   - before: the token's snapshot (or the session's newest snapshot of the
//     window) stands in for a fresh read when it is young and the app has
//     reported no change at all since just before it was read;
//   - after: the settled read is the read before with the elements the app
//     reported changed read again, when every report is about an element's
//     own content and names an element of the read, and no child count or
//     role moved.
//
// Anything else (a structural report, a report about an element the read
// does not hold, reports the backend did not keep, a refresh that fails)
// falls back to a whole read. Reports are what the app says about itself:
// a toolkit that changes something without saying so is read as unchanged
// by both paths, which is why a reused snapshot must also be young.

// reuseMaxAge is how old a snapshot may be and still stand in for a read:
// long enough for a model's read-then-act, short enough that a change the
// app never reported does not live long.
const reuseMaxAge = 2 * time.Second

// maxPatchChanges bounds the reports a patched read follows; past it a
// whole read is cheaper than reading each element again.
const maxPatchChanges = 64

// changeStamp is a read's place in its app's change reports.
type changeStamp struct {
	mark ChangeMark
	ok   bool
	at   time.Time
}

// markNow stamps a read about to begin.
func (d *Driver) markNow(w WindowID) changeStamp {
	st := changeStamp{at: d.clock.Now()}
	if cl, ok := d.backend.(ChangeLister); ok {
		st.mark, st.ok = cl.CurrentMark(w)
	}
	return st
}

// unchangedSince reports whether w's app reported nothing after a stamp.
func (d *Driver) unchangedSince(w WindowID, mark ChangeMark) bool {
	cl, ok := d.backend.(ChangeLister)
	if !ok {
		return false
	}
	changes, complete := cl.ChangesSince(w, mark)
	return complete && len(changes) == 0
}

// reusable returns a private copy of a snapshot that can stand in for a
// fresh read of window w, or nil: the token's snapshot when the act has a
// token, else the session's newest snapshot of the window.
//
// The newest snapshot also serves a token of an older one when both saw
// the same structure (the token's element is where the token says): after
// an act, the act's settled read stands in for the read the model took its
// token from.
func (s *Session) reusable(w WindowID, tok *Token) *snapshot {
	latest := s.snaps.latestOf(w)
	if tok != nil {
		own := s.snaps.get(tok.Snapshot)
		if own == nil {
			return nil
		}
		if latest == nil || latest.structure != own.structure {
			latest = own
		}
	}
	sn := latest
	if sn == nil || sn.window != w || !sn.marked || s.d.clock.Since(sn.at) > reuseMaxAge {
		return nil
	}
	s.mu.Lock()
	epoch := s.epoch
	s.mu.Unlock()
	if sn.epoch != epoch || !s.d.unchangedSince(w, sn.mark) {
		return nil
	}
	return sn.clone()
}

// clone copies a snapshot with a tree of its own, so that filling in its
// details never races with a read rendering the original.
func (sn *snapshot) clone() *snapshot {
	sn.fillMu.Lock()
	defer sn.fillMu.Unlock()
	t := *sn.tree
	t.Nodes = slices.Clone(sn.tree.Nodes)
	return &snapshot{id: sn.id, session: sn.session, window: sn.window, structure: sn.structure, epoch: sn.epoch, tree: &t,
		rows: sn.rows, pos: sn.pos, mark: sn.mark, marked: sn.marked, at: sn.at, framesStale: sn.framesStale, refetched: maps.Clone(sn.refetched)}
}

// fill reads the details of the nodes at positions of the snapshot's tree
// that lack them; in a tree whose frames may be stale, once more for each
// position, so that what is shown or acted on has a frame read now.
func (sn *snapshot) fill(ctx context.Context, d *Driver, positions []int) *Error {
	sn.fillMu.Lock()
	defer sn.fillMu.Unlock()
	if sn.framesStale {
		if sn.refetched == nil {
			sn.refetched = map[int]bool{}
		}
		for _, p := range positions {
			if p >= 0 && p < len(sn.tree.Nodes) && !sn.refetched[p] {
				sn.refetched[p] = true
				sn.tree.Nodes[p].Detailed = false
			}
		}
	}
	return d.fillDetails(ctx, sn.tree, positions)
}

// patched builds the settled read of an act from the read before it (pre)
// and the reports since mark (taken before the act), or returns nil when
// only a whole read will do. stamp is the new read's place in the reports:
// taken before the reports are listed, so that a report coming in while
// the elements are read again shows in the next act's reuse check.
func (s *Session) patched(ctx context.Context, pre *snapshot, mark ChangeMark) (*Tree, changeStamp) {
	cl, ok := s.d.backend.(ChangeLister)
	if !ok {
		return nil, changeStamp{}
	}
	stamp := s.d.markNow(pre.window)
	if !stamp.ok {
		return nil, stamp
	}
	changes, complete := cl.ChangesSince(pre.window, mark)
	if !complete || len(changes) == 0 || len(changes) > maxPatchChanges {
		return nil, stamp
	}
	// Each element reported is looked for once; a report about an element
	// the read does not hold means a whole read.
	sources := map[ElementID]ChangeKind{}
	for _, c := range changes {
		kind := c.Kind
		if kind == ChangeExtents {
			kind = ChangeContent // read again like any content change
		}
		if prev, ok := sources[c.Source]; !ok || prev == ChangeContent {
			sources[c.Source] = kind
		}
	}
	var positions []int
	seen := map[int]bool{}
	add := func(p int) {
		if p >= 0 && !seen[p] {
			seen[p] = true
			positions = append(positions, p)
		}
	}
	found := 0
	for i := range pre.tree.Nodes {
		n := &pre.tree.Nodes[i]
		kind, ok := sources[n.ID]
		if !ok {
			continue
		}
		found++
		// A subtree report about an element without children is about
		// the element itself (GTK 3 labels report their new text so).
		leaf := kind == ChangeSubtree && n.ChildCount == 0
		if kind != ChangeContent && !leaf {
			return nil, stamp
		}
		add(i)
		// The parent too: a child added or removed without a report of
		// its own still moves the parent's child count.
		add(n.Parent)
	}
	if found != len(sources) {
		return nil, stamp
	}
	t := *pre.tree
	t.Nodes = slices.Clone(pre.tree.Nodes)
	if !s.refreshNodes(ctx, cl, pre.tree, &t, positions) {
		return nil, stamp
	}
	return &t, stamp
}

// refreshNodes reads the nodes of t at positions again (t is a copy of
// pre's tree): their structure fields through the backend's Refresh and,
// for the ones whose value pre held, their details, both at once (the app
// answers the two batches in one round). It fails, and the caller reads
// the whole window, on any error or when a role or child count moved.
func (s *Session) refreshNodes(ctx context.Context, cl ChangeLister, pre, t *Tree, positions []int) bool {
	nodes := make([]*Node, len(positions))
	var detailed []int
	var copies []*Node
	for i, p := range positions {
		nodes[i] = &t.Nodes[p]
		// Values are read again now, as the diff compares them; other
		// details (frames, actions) are read when a row is shown or acted
		// on, like any structure-only node's.
		if pre.Nodes[p].Detailed && pre.Nodes[p].HasValue {
			c := pre.Nodes[p]
			c.Detailed = false
			detailed = append(detailed, p)
			copies = append(copies, &c)
		}
	}
	cctx, cancel := s.d.callBound(ctx)
	defer cancel()
	detailsDone := make(chan error, 1)
	if dr, ok := s.d.backend.(DetailReader); ok && len(copies) > 0 {
		go func() { detailsDone <- dr.ReadDetails(cctx, t.Window, copies) }()
	} else {
		detailsDone <- nil
	}
	rerr := cl.Refresh(cctx, nodes)
	derr := <-detailsDone
	if rerr != nil || derr != nil {
		return false
	}
	var again []int
	for _, p := range positions {
		if t.Nodes[p].Role != pre.Nodes[p].Role || t.Nodes[p].ChildCount != pre.Nodes[p].ChildCount {
			return false
		}
	}
	for i, p := range detailed {
		n, c := &t.Nodes[p], copies[i]
		if n.HasState("showing") != pre.Nodes[p].HasState("showing") {
			// Its frame is read only while it shows: read it as it is now.
			again = append(again, p)
			continue
		}
		n.Value, n.HasValue, n.Numeric, n.Actions, n.Frame, n.Detailed = c.Value, c.HasValue, c.Numeric, c.Actions, c.Frame, c.Detailed
		if n.Secure {
			n.Value, n.HasValue = "", false
		}
	}
	return s.d.fillDetails(ctx, t, again) == nil
}

// readWindow is the snapshot a read of window w shows: the session's
// newest snapshot of the window, kept whole (its id and tokens too), when
// it could stand in for an act's read before (reusable: young, and the app
// reported no change since it was read), else a fresh read. A first read
// starts the app's change reports, so that the next read can keep its
// snapshot. kept says which.
func (s *Session) readWindow(ctx context.Context, w WindowID) (*snapshot, bool, *Error) {
	if sn := s.reusable(w, nil); sn != nil {
		return sn, true, nil
	}
	if cw, ok := s.d.backend.(ChangeWaiter); ok {
		if cl, ok := cw.(ChangeLister); ok {
			if _, watching := cl.CurrentMark(w); !watching {
				cctx, cancel := s.d.callBound(ctx)
				_, _ = cw.MarkChanges(cctx, w) // best effort: without it, reads are whole
				cancel()
			}
		}
	}
	sn, err := s.snap(ctx, w)
	return sn, false, err
}

// details makes sure the rows at positions have their details, for a
// result built from a snapshot readWindow gave: rows never read are read
// whole; the rows a kept snapshot already holds details of keep them and
// have only their frames read again (readFramesAgain).
func (sn *snapshot) details(ctx context.Context, d *Driver, kept bool, positions []int) *Error {
	var known []int              // rows a kept snapshot already holds details of
	if kept && !sn.framesStale { // a stale-framed one reads them in fill
		for _, p := range positions {
			if p >= 0 && p < len(sn.tree.Nodes) && sn.tree.Nodes[p].Detailed {
				known = append(known, p)
			}
		}
	}
	if err := sn.fill(ctx, d, positions); err != nil {
		return err
	}
	return d.readFramesAgain(ctx, sn, known)
}

// readFramesAgain reads the frames of a kept snapshot's rows at positions
// again (FrameReader): the app's reports vouch for what its elements hold,
// not for where they lie. A backend without FrameReader reads their
// details whole.
func (d *Driver) readFramesAgain(ctx context.Context, sn *snapshot, positions []int) *Error {
	if len(positions) == 0 {
		return nil
	}
	fr, ok := d.backend.(FrameReader)
	if !ok {
		for _, p := range positions {
			sn.tree.Nodes[p].Detailed = false
		}
		return d.fillDetails(ctx, sn.tree, positions)
	}
	nodes := make([]*Node, len(positions))
	for i, p := range positions {
		nodes[i] = &sn.tree.Nodes[p]
	}
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	if err := fr.ReadFrames(cctx, sn.tree.Window, nodes); err != nil {
		return AsError(inBound(cctx, err))
	}
	return nil
}
