package engine

import (
	"context"
	"slices"
	"time"
)

// settlePoll is how often the settle loop re-reads the window.
const settlePoll = 10 * time.Millisecond

// settleMark prepares settling before an act: it marks the changes the
// app reported so far. ok is false when the backend cannot hear the app
// (then settling re-reads the window).
func (s *Session) settleMark(ctx context.Context, w WindowID) (ChangeMark, bool) {
	if m, ok := s.d.backend.CurrentMark(w); ok {
		return m, true
	}
	cctx, cancel := s.d.callBound(ctx)
	defer cancel()
	m, err := s.d.backend.MarkChanges(cctx, w)
	return m, err == nil
}

// settleTiming is where a settle's time went (ActTrace).
type settleTiming struct {
	quiet    time.Duration // waiting for the app to go quiet (polling: all of it)
	read     time.Duration // the settled read after the quiet period
	readKind string
	early    bool // the settled read was patched while the quiet period ran
}

// settle waits after an act until the window is quiet: no change for the
// quiet period (50 ms), at most the bound (1,000 ms). With the app's own
// change reports (marked before the act) it waits on them and then reads
// the window once, or patches the read before with what the app reported
// (reuse.go, patch.go); without, it re-reads the window
// until two reads agree for the quiet period. The settled read becomes the
// result's snapshot, once prepare has read in it what the act's result
// needs (prepare may run on a patch made while the quiet period ran that
// is then thrown away). Settling waits on the app in real time, whatever
// the engine's clock.
func (s *Session) settle(ctx context.Context, pre *snapshot, mark ChangeMark, marked bool, acted time.Time, prepare func(*snapshot)) (*snapshot, Settle, settleTiming, *Error) {
	if marked {
		if sn, st, tm, err, ok := s.settleOnReports(ctx, pre, mark, acted, prepare); ok {
			return sn, st, tm, err
		}
	}
	start := time.Now()
	sn, st, err := s.settleByReading(ctx, pre)
	if err == nil {
		prepare(sn)
	}
	return sn, st, settleTiming{quiet: time.Since(start), readKind: PostReadPolled}, err
}

// quietWait is what the backend's WaitQuiet said.
type quietWait struct {
	settled, changed bool
	last             time.Time
	err              error
}

// settleOnReports waits on the app's change reports, then reads once. ok
// is false when the reports cannot be had (then the caller polls).
// Settle.Ms counts from the act (acted) to the app's last change.
//
// While the quiet period runs, the settled read is made early
// (earlyPatch): when the quiet period ends with no report after the one
// the early patch followed last, that patch is the read a patch made now
// would give (it read the elements the reports named after they were
// reported, and nothing was reported since), so the act answers at the
// end of the quiet period instead of after it plus the read. A report
// after it sends the settle to the patch after the quiet period, as
// before. The quiet period itself is never cut short.
func (s *Session) settleOnReports(ctx context.Context, pre *snapshot, mark ChangeMark, acted time.Time, prepare func(*snapshot)) (*snapshot, Settle, settleTiming, *Error, bool) {
	start := time.Now()
	done := make(chan quietWait, 1)
	go func() {
		var q quietWait
		q.settled, q.changed, q.last, q.err = s.d.backend.WaitQuiet(ctx, pre.window, mark, s.d.opts.SettleQuiet, s.d.opts.SettleMax)
		done <- q
	}()
	q, early := s.earlyPatch(ctx, pre, mark, done, prepare)
	if q.err != nil {
		return nil, Settle{}, settleTiming{}, nil, false
	}
	tm := settleTiming{quiet: time.Since(start)}
	st := Settle{Settled: q.settled}
	if q.changed && q.last.After(acted) {
		st.Ms = q.last.Sub(acted).Milliseconds()
	}
	readStart := time.Now()
	if early != nil {
		if now, ok := s.d.backend.CurrentMark(pre.window); ok && now == early.mark {
			sn := s.keep(early, changeStamp{mark: early.mark, ok: early.marked, at: early.at})
			tm.read, tm.readKind, tm.early = time.Since(readStart), PostReadPatched, true
			return sn, st, tm, nil, true
		}
	}
	if sn := s.patched(ctx, pre, mark); sn != nil {
		tm.read, tm.readKind = time.Since(readStart), PostReadPatched
		prepare(sn)
		return sn, st, tm, nil, true
	}
	stamp := s.d.markNow(pre.window)
	t, rerr := s.d.readTree(ctx, pre.window)
	tm.read, tm.readKind = time.Since(readStart), PostReadFull
	if rerr != nil {
		return nil, Settle{Ms: time.Since(start).Milliseconds()}, tm, rerr, true
	}
	sn := s.record(t, stamp)
	prepare(sn)
	return sn, st, tm, nil, true
}

// How the settled read is made early, while the quiet period runs: once
// the app has reported something since the act and then nothing for
// earlyAfter, the read before is patched (not kept) and prepared; again
// after later reports, at most maxEarly times an act. earlyPoll is how
// often the reports' count is looked at (no I/O).
const (
	earlyAfter = 10 * time.Millisecond
	earlyPoll  = 2 * time.Millisecond
	maxEarly   = 2
)

// earlyPatch waits for the quiet period (done) and meanwhile makes the
// settled read early: it returns the quiet period's end and the last
// early patch, or nil. Only a patch is made early: where the reports ask
// for a whole read, or there are none, the read waits for the end of the
// quiet period, as the reports may not say all.
func (s *Session) earlyPatch(ctx context.Context, pre *snapshot, mark ChangeMark, done <-chan quietWait, prepare func(*snapshot)) (quietWait, *snapshot) {
	poll := time.NewTicker(earlyPoll)
	defer poll.Stop()
	seen, seenAt := mark, time.Now()
	var early *snapshot
	tries := 0
	for {
		select {
		case q := <-done:
			return q, early
		case <-poll.C:
		}
		now, ok := s.d.backend.CurrentMark(pre.window)
		switch {
		case !ok:
			continue
		case now != seen:
			seen, seenAt = now, time.Now()
			continue
		case now == mark, tries == maxEarly, early != nil && early.mark == now, time.Since(seenAt) < earlyAfter:
			continue
		}
		tries++
		p := patcher{s: s, base: pre}
		pt, ok := p.follow(ctx, mark)
		if !ok || pt.reports == 0 {
			early, tries = nil, maxEarly // a whole read, after the quiet period
			continue
		}
		prepare(pt.sn)
		early = pt.sn
	}
}

// settleByReading re-reads the window until it stops changing.
func (s *Session) settleByReading(ctx context.Context, pre *snapshot) (*snapshot, Settle, *Error) {
	start := time.Now()
	quiet, bound := s.d.opts.SettleQuiet, s.d.opts.SettleMax
	last := pre.tree
	lastStamp := changeStamp{}
	lastChange := start
	for {
		select {
		case <-ctx.Done():
			return nil, Settle{Ms: time.Since(start).Milliseconds()}, Errf(CodeAppNotResponding, "the call was cancelled while settling")
		case <-time.After(settlePoll):
		}
		stamp := s.d.markNow(pre.window)
		t, err := s.d.readTree(ctx, pre.window)
		if err != nil {
			return nil, Settle{Ms: time.Since(start).Milliseconds()}, err
		}
		now := time.Now()
		if !sameContent(last, t) {
			lastChange = now
		}
		// Keep the newest read: equal structure does not mean equal
		// details, and the settled snapshot must be fresh.
		last, lastStamp = t, stamp
		if now.Sub(lastChange) >= quiet {
			return s.record(last, lastStamp), Settle{Ms: lastChange.Sub(start).Milliseconds(), Settled: true}, nil
		}
		if now.Sub(start) >= bound {
			return s.record(last, lastStamp), Settle{Ms: now.Sub(start).Milliseconds(), Settled: false}, nil
		}
	}
}

// sameContent compares two reads of a window: structure and everything a
// row shows.
func sameContent(a, b *Tree) bool {
	if len(a.Nodes) != len(b.Nodes) || a.Truncated != b.Truncated {
		return false
	}
	for i := range a.Nodes {
		x, y := &a.Nodes[i], &b.Nodes[i]
		if x.ID != y.ID || x.Parent != y.Parent || x.Role != y.Role || x.Name != y.Name ||
			x.Description != y.Description || x.Secure != y.Secure || x.ChildCount != y.ChildCount ||
			!slices.Equal(x.States, y.States) {
			return false
		}
		// Details are compared where both reads have them.
		if x.Detailed && y.Detailed && (x.Value != y.Value || x.HasValue != y.HasValue ||
			x.Frame != y.Frame || !slices.Equal(x.Actions, y.Actions)) {
			return false
		}
	}
	return true
}

// maxDiffEntries bounds a diff.
const maxDiffEntries = 50

func (d *Diff) empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 && !d.Truncated }

// diffSnapshots compares two reads by element_index. Secure values never
// appear: a secure row has no value to compare.
func diffSnapshots(pre, post *snapshot) *Diff {
	d := &Diff{Added: []DiffRow{}, Removed: []DiffRow{}, Changed: []DiffChange{}}
	n := 0
	add := func() bool {
		if n == maxDiffEntries {
			d.Truncated = true
			return false
		}
		n++
		return true
	}
	for i := range post.tree.Nodes {
		idx := post.rows[i]
		pn := &post.tree.Nodes[i]
		j, ok := pre.pos[idx]
		if !ok {
			if add() {
				d.Added = append(d.Added, DiffRow{ElementIndex: idx, Role: pn.Role, Label: labelOf(pn)})
			}
			continue
		}
		qn := &pre.tree.Nodes[j]
		if shownAlike(qn, pn) {
			continue
		}
		var fields []string
		if labelOf(qn) != labelOf(pn) {
			fields = append(fields, "label")
		}
		if pn.Detailed && qn.Detailed && shownValueChanged(qn, pn) {
			fields = append(fields, "value")
		}
		if !slices.Equal(shownStates(qn), shownStates(pn)) {
			fields = append(fields, "states")
		}
		if len(fields) == 0 || !add() {
			continue
		}
		ch := DiffChange{ElementIndex: idx, Fields: fields, Label: labelOf(pn), States: shownStates(pn)}
		if shown, ok := shownValue(pn); ok && pn.Detailed {
			v, _ := cutEscape(shown, valueMax)
			ch.Value = &v
		}
		d.Changed = append(d.Changed, ch)
	}
	for i := range pre.tree.Nodes {
		idx := pre.rows[i]
		if _, ok := post.pos[idx]; ok {
			continue
		}
		if add() {
			qn := &pre.tree.Nodes[i]
			d.Removed = append(d.Removed, DiffRow{ElementIndex: idx, Role: qn.Role, Label: labelOf(qn)})
		}
	}
	return d
}

// shownAlike tells, without redacting anything, that two reads of an
// element show the model the same row: what its label, value and states
// are made of is equal. Most rows of a diff are, and redacting each label
// twice cost most of a diff's time on a 5,000-row window.
func shownAlike(a, b *Node) bool {
	return a.Name == b.Name && a.Description == b.Description && slices.Equal(a.States, b.States) &&
		(!a.Detailed || !b.Detailed || a.Value == b.Value && a.HasValue == b.HasValue && a.Secure == b.Secure)
}

func shownStates(n *Node) []string {
	var out []string
	for _, st := range displayStates(n) {
		if st != "focusable" {
			out = append(out, st)
		}
	}
	return out
}

// observe makes an act's observation (docs/contract.md#observe). It never
// turns the act into an error: what cannot be observed is reported inside.
func (s *Session) observe(ctx context.Context, w Window, post *snapshot, settleErr *Error, spec ObserveSpec) *Observation {
	o := &Observation{}
	if post == nil {
		err := settleErr
		if err == nil {
			err = Errf(CodeWindowGone, "window %d could not be read after the act", w.ID)
		}
		b := err.Body()
		o.Error = &b
		if spec.Screenshot {
			o.ScreenshotError = &b
		}
		return o
	}
	o.SnapshotID = post.id
	need, _ := fullPositions(post, 0, defaultMaxElements, defaultMaxDepth)
	if spec.Screenshot {
		need = append(need, securePositions(post.tree)...)
	}
	if err := post.fill(ctx, s.d, need); err != nil {
		b := err.Body()
		o.Error = &b
		return o
	}
	rows, trunc := elementRows(post, 0, defaultMaxElements, defaultMaxDepth, w.Frame)
	o.Truncated = trunc || post.tree.Truncated
	if spec.Tree {
		o.Elements = rows
		o.TreeText = treeHeader(post.id, w, len(rows), len(post.tree.Nodes), o.Truncated) + rowsText(rows)
	}
	if spec.Screenshot {
		o.image, o.Screenshot, o.ScreenshotError = s.reportedScreenshot(ctx, post, w, s.d.accessibilityHint(ctx, post.tree), true, rows)
	}
	return o
}

// fillValuesLike reads, in a settled read, the details of the rows whose
// value the read before held (secure rows never), so that the diff
// compares the values it can compare. Only those rows are read: a value
// the read before did not hold could not show as changed anyway.
func (s *Session) fillValuesLike(ctx context.Context, post, pre *snapshot) {
	var need []int
	for i := range pre.tree.Nodes {
		q := &pre.tree.Nodes[i]
		if !q.Detailed || !q.HasValue || q.Secure {
			continue
		}
		if p, ok := post.pos[pre.rows[i]]; ok && !post.tree.Nodes[p].Detailed {
			need = append(need, p)
		}
	}
	if len(need) > 0 {
		_ = post.fill(ctx, s.d, need)
	}
}
