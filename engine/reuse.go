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
// thousand elements on a real app. When the backend hears the app say
// which elements changed (ChangeLister), neither read is needed in the
// common case:
//
//   - before: the token's snapshot (or the session's newest snapshot of the
//     window) stands in for a fresh read when it is young and the app has
//     reported nothing since just before it was read that asks for a read
//     (patch.go's rules);
//   - after: the settled read is the read before patched with what the
//     app reported since the act began (patch.go: the elements reported
//     changed read again, a child added or removed read as a subtree and
//     spliced in, and so on by the kind of report).
//
// When the patch gives up (patch.go says when), or the app reported
// nothing at all after the act (patched says why), the window is read
// whole. Reports are what the app says about itself: a toolkit that
// changes something without saying so is read as unchanged by both
// paths, which is why a reused snapshot must also be young.

// ReuseMaxAge is how old a snapshot may be and still stand in for a read:
// long enough for a model's read-then-act, short enough that a change the
// app never reported does not live long.
const ReuseMaxAge = 2 * time.Second

// changeStamp is a read's place in its app's change reports.
type changeStamp struct {
	mark ChangeMark
	ok   bool
	at   time.Time
}

// markNow stamps a read about to begin.
func (d *Driver) markNow(w WindowID) changeStamp {
	st := changeStamp{at: d.clock.Now()}
	st.mark, st.ok = d.backend.CurrentMark(w)
	return st
}

// reusable returns a private copy of a snapshot that can stand in for a
// fresh read of window w, or nil: the token's snapshot when the act has a
// token, else the session's newest snapshot of the window. It must be
// young, and what its app reported since must ask for nothing to be read
// (patch.go's rules: no report, or only frame moves and reports about
// elements it does not hold); after a frame move its frames are stale,
// read again before a row is shown or acted on.
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
	if sn == nil || sn.window != w || !sn.marked || s.d.clock.Since(sn.at) > ReuseMaxAge {
		return nil
	}
	s.mu.Lock()
	epoch := s.epoch
	s.mu.Unlock()
	if sn.epoch != epoch {
		return nil
	}
	p := patcher{s: s, base: sn}
	framesMoved, ok := p.readsNothing()
	if !ok {
		return nil
	}
	c := sn.clone()
	if framesMoved {
		c.framesStale, c.refetched = true, nil
	}
	return c
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

// patched is the settled read of an act: the read before it (pre)
// patched with the reports since mark, taken before the act (patch.go),
// kept as the act's snapshot; nil when only a whole read will do. An act
// its app reported nothing at all about is read whole: the act's effect
// rests on the settled read (no_change tells the model its act did
// nothing, and it may act again), and an app that changed something
// without a report must not make a done act look undone.
func (s *Session) patched(ctx context.Context, pre *snapshot, mark ChangeMark) *snapshot {
	p := patcher{s: s, base: pre}
	pt, ok := p.follow(ctx, mark)
	if !ok || pt.reports == 0 {
		return nil
	}
	return s.keep(pt.sn, changeStamp{mark: pt.sn.mark, ok: pt.sn.marked, at: pt.sn.at})
}

// readWindow is the snapshot a read of window w shows: the session's
// newest snapshot of the window, kept whole (its id and tokens too), when
// it could stand in for an act's read before (reusable: young, and the app
// reported nothing since it was read that asks for a read), else a fresh
// read. A first read
// starts the app's change reports, so that the next read can keep its
// snapshot. kept says which.
func (s *Session) readWindow(ctx context.Context, w WindowID) (*snapshot, bool, *Error) {
	if sn := s.reusable(w, nil); sn != nil {
		return sn, true, nil
	}
	if _, watching := s.d.backend.CurrentMark(w); !watching {
		cctx, cancel := s.d.callBound(ctx)
		_, _ = s.d.backend.MarkChanges(cctx, w) // best effort: without it, reads are whole
		cancel()
	}
	sn, err := s.snap(ctx, w)
	return sn, false, err
}

// details makes sure the rows at positions have their details, for a
// result built from a snapshot readWindow gave: rows never read are read
// whole; the rows a kept snapshot already holds details of keep them and
// have only their frames read again (readFramesAgain), but for a row that
// had no area then and has one now, whose details are read again whole
// (readFramesAgain says why). That holds for a
// kept snapshot whose frames are stale too (an act's settled read, which
// a patch made, or a read whose app reported a frame move): stale is all
// its frames may be, as the app's reports vouch for the rest, and a
// frame read now is what a row shows. Reading those rows' details whole
// again cost a read right after an act every row's details.
//
// A kept snapshot's copy (reusable's clone), its details and frames read
// now, then takes the kept one's place under the same id (snapshotStore
// replace): the next read keeping it finds those details and reads only
// frames, where it read again every row the copy had read (the copy was
// the read's own and dropped after it). What the copy holds is the kept
// read as it is now: the same rows, mark and age, so it is kept no longer,
// and a report since asks for a read as it did.
func (sn *snapshot) details(ctx context.Context, d *Driver, kept bool, positions []int) *Error {
	fill, known := positions, []int(nil)
	if kept {
		fill, known = sn.splitDetailed(positions)
	}
	if err := sn.fill(ctx, d, fill); err != nil {
		return err
	}
	placed, err := d.readFramesAgain(ctx, sn, known)
	if err != nil {
		return err
	}
	if err := sn.readAgain(ctx, d, placed); err != nil {
		return err
	}
	if kept {
		sn.session.snaps.replace(sn)
	}
	return nil
}

// splitDetailed parts positions into the rows sn lacks the details of and
// those it holds them of, which, in a tree whose frames may be stale,
// count as read again from here on: their frames are about to be.
func (sn *snapshot) splitDetailed(positions []int) (lacking, held []int) {
	sn.fillMu.Lock()
	defer sn.fillMu.Unlock()
	for _, p := range positions {
		if p < 0 || p >= len(sn.tree.Nodes) || !sn.tree.Nodes[p].Detailed {
			lacking = append(lacking, p)
			continue
		}
		held = append(held, p)
		if sn.framesStale {
			if sn.refetched == nil {
				sn.refetched = map[int]bool{}
			}
			sn.refetched[p] = true
		}
	}
	return lacking, held
}

// readFramesAgain reads the frames of a kept snapshot's rows at positions
// again (FrameReader): the app's reports vouch for what its elements hold,
// not for where they lie. It returns the positions of the rows that had
// no area when their details were read and have one now (placed).
//
// Those rows' details are not vouched for: a toolkit can fill an element
// as it lays it out, and say nothing. Writer lists a paragraph it has not
// yet placed, with no area and no text; when it places it, its text comes
// with it, and no report tells of the text (docs/qt-and-libreoffice.md,
// Writer). A kept read that kept such a row's details would show a
// placed paragraph with no text, which the document does not have.
func (d *Driver) readFramesAgain(ctx context.Context, sn *snapshot, positions []int) (placed []int, _ *Error) {
	if len(positions) == 0 {
		return nil, nil
	}
	nodes := make([]*Node, len(positions))
	unplaced := make([]bool, len(positions))
	for i, p := range positions {
		nodes[i] = &sn.tree.Nodes[p]
		unplaced[i] = nodes[i].Frame.Empty()
	}
	cctx, cancel := d.callBound(ctx)
	defer cancel()
	if err := d.backend.ReadFrames(cctx, sn.tree.Window, nodes); err != nil {
		return nil, AsError(inBound(cctx, err))
	}
	for i, p := range positions {
		if unplaced[i] && !nodes[i].Frame.Empty() {
			placed = append(placed, p)
		}
	}
	return placed, nil
}

// readAgain reads the details of the rows at positions again, whole.
func (sn *snapshot) readAgain(ctx context.Context, d *Driver, positions []int) *Error {
	if len(positions) == 0 {
		return nil
	}
	sn.fillMu.Lock()
	defer sn.fillMu.Unlock()
	for _, p := range positions {
		sn.tree.Nodes[p].Detailed = false
	}
	return d.fillDetails(ctx, sn.tree, positions)
}
