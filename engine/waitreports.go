package engine

import "context"

// How wait_for follows its app's change reports (docs/contract.md#wait-for).
// A wait costs what changed, not what the window holds: after each batch
// of reports it patches its last read (patch.go, whose table gives the
// rule for each kind of report), and checks the condition on the elements
// the patch read again alone (waitcheck.go). The whole window is read
// again only when the patch gives up.
//
// The new read keeps the snapshot machinery's rules: its rows are
// numbered by the window's row registry and its structure fingerprinted
// as a whole read's would be, so the row a wait answers with carries a
// token that acts, and goes stale, exactly as a read's.

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

// reportFollower follows one wait's reports from its current read.
type reportFollower struct {
	p patcher
}

// followFrom starts following s's reports from the read cur.
func followFrom(s *Session, cur *snapshot) reportFollower {
	return reportFollower{p: patcher{s: s, base: cur}}
}

// whole reads the window whole and follows on from that read.
func (f *reportFollower) whole(ctx context.Context) (reportRead, *Error) {
	sn, err := f.p.s.draftRead(ctx, f.p.base.window)
	if err != nil {
		return reportRead{}, err
	}
	f.p = patcher{s: f.p.s, base: sn}
	return reportRead{sn: sn, whole: true}, nil
}

// next patches the current read with the reports since its mark, or reads
// the window whole when the patch gives up, and follows on from the new
// read.
func (f *reportFollower) next(ctx context.Context) (reportRead, *Error) {
	if !f.p.base.marked {
		return f.whole(ctx)
	}
	pt, ok := f.p.follow(ctx, f.p.base.mark)
	if !ok {
		return f.whole(ctx)
	}
	f.p = pt.next
	return reportRead{sn: pt.sn, changed: pt.changed, dropped: pt.dropped}, nil
}
