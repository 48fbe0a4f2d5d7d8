package native

import (
	"context"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// The backend hears apps report their own changes (AT-SPI events), so the
// engine settles after an act by waiting on those reports instead of
// re-reading the window every few milliseconds, and leaves reads out when
// the reports say nothing changed, or which elements did
// (engine.ChangeLister). One watcher per app lives as long as the backend
// (opening one costs a registration round trip; keeping it costs nothing
// between events).
//
// A mark is a watcher's serial number in its top bits and its event count
// in the rest, so that a mark taken from a watcher that has since been
// replaced (its bus connection dropped) is never compared with another
// watcher's count.

var _ engine.ChangeLister = (*Backend)(nil)

// appWatcher is one app's watcher and its serial.
type appWatcher struct {
	w      *atspi.Watcher
	serial uint64
}

const (
	markSeqBits = 40
	markSeqMask = 1<<markSeqBits - 1
)

func (aw *appWatcher) mark() engine.ChangeMark {
	return engine.ChangeMark(aw.serial<<markSeqBits | aw.w.Counts().Total()&markSeqMask)
}

// seqOf returns the event count of a mark of this watcher; ok is false
// for a mark of another watcher.
func (aw *appWatcher) seqOf(m engine.ChangeMark) (uint64, bool) {
	if uint64(m)>>markSeqBits != aw.serial&(1<<(64-markSeqBits)-1) {
		return 0, false
	}
	return uint64(m) & markSeqMask, true
}

// watcherFor returns the live watcher of a window's app, starting one when
// needed.
func (b *Backend) watcherFor(ctx context.Context, w engine.WindowID) (*appWatcher, error) {
	if win, err := b.frameOf(ctx, w); err != nil || !win.accessible() {
		if err == nil {
			err = engine.Errf(engine.CodeNotActionable, "window %d has no accessible app", uint64(w))
		}
		return nil, err
	}
	b.mu.Lock()
	bus := b.frameBus[w]
	aw := b.watchers[bus]
	b.mu.Unlock()
	if aw != nil && !aw.w.Broken() {
		return aw, nil
	}
	nw, err := b.a.Watch(ctx, bus)
	if err != nil {
		return nil, atspiErr(err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if cur := b.watchers[bus]; cur != nil && !cur.w.Broken() {
		nw.Close()
		return cur, nil
	}
	if old := b.watchers[bus]; old != nil {
		old.w.Close()
	}
	b.watchSeq++
	aw = &appWatcher{w: nw, serial: b.watchSeq}
	b.watchers[bus] = aw
	return aw, nil
}

// liveWatcher is the live watcher of a window's app, if the backend has
// one; no I/O.
func (b *Backend) liveWatcher(w engine.WindowID) *appWatcher {
	b.mu.Lock()
	bus, ok := b.frameBus[w]
	aw := b.watchers[bus]
	b.mu.Unlock()
	if !ok || aw == nil || aw.w.Broken() {
		return nil
	}
	return aw
}

// MarkChanges marks the changes a window's app has reported so far.
func (b *Backend) MarkChanges(ctx context.Context, w engine.WindowID) (engine.ChangeMark, error) {
	aw, err := b.watcherFor(ctx, w)
	if err != nil {
		return 0, err
	}
	return aw.mark(), nil
}

// WaitQuiet waits until the window's app has been quiet for quiet.
func (b *Backend) WaitQuiet(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, quiet, max time.Duration) (bool, bool, time.Time, error) {
	aw, err := b.watcherFor(ctx, w)
	if err != nil {
		return false, false, time.Time{}, err
	}
	seq, same := aw.seqOf(mark)
	start := time.Now()
	if same && b.a.ActsLate(ctx, aw.w.App()) {
		// The app acts a while after the call (GTK 4's 250 ms button
		// activation): wait for its first change before the quiet period.
		if _, err := aw.w.WaitChange(ctx, atspi.Counts{Content: seq}, min(lateActBound, max)); err != nil {
			return false, false, time.Time{}, atspiErr(err)
		}
	}
	settled, last, err := aw.w.Quiet(ctx, quiet, max-time.Since(start))
	if err != nil {
		return false, false, time.Time{}, atspiErr(err)
	}
	changed := !same || aw.w.Counts().Total() > seq
	return settled, changed, last, nil
}

// lateActBound bounds the wait for the first change of an app that acts
// late: GTK 4 clicks 250 ms after its accessible click action; an act that
// changes nothing in such an app costs this much more.
const lateActBound = 400 * time.Millisecond

// CurrentMark is MarkChanges without starting a watcher.
func (b *Backend) CurrentMark(w engine.WindowID) (engine.ChangeMark, bool) {
	aw := b.liveWatcher(w)
	if aw == nil {
		return 0, false
	}
	return aw.mark(), true
}

// ChangesSince lists what the window's app reported after mark.
func (b *Backend) ChangesSince(w engine.WindowID, mark engine.ChangeMark) ([]engine.Change, bool) {
	aw := b.liveWatcher(w)
	if aw == nil {
		return nil, false
	}
	seq, ok := aw.seqOf(mark)
	if !ok || seq > aw.w.Counts().Total() {
		return nil, false
	}
	changes, complete := aw.w.SinceSeq(seq)
	out := make([]engine.Change, len(changes))
	for i, c := range changes {
		kind := engine.ChangeContent
		switch c.Kind {
		case atspi.ChangeStructure:
			kind = engine.ChangeStructure
		case atspi.ChangeSubtree:
			kind = engine.ChangeSubtree
		case atspi.ChangeExtents:
			kind = engine.ChangeExtents
		}
		out[i] = engine.Change{Kind: kind, Source: engine.ElementID(c.Source), Index: -1}
		switch c.Op {
		case "add":
			out[i].Op, out[i].Child, out[i].Index = engine.ChildAdded, engine.ElementID(c.Child), c.Index
		case "remove":
			out[i].Op, out[i].Child, out[i].Index = engine.ChildRemoved, engine.ElementID(c.Child), c.Index
		}
	}
	return out, complete && !aw.w.Broken()
}

// Refresh reads the structure fields of nodes again, in place; their
// details are left as they were and marked not read (Detailed false).
func (b *Backend) Refresh(ctx context.Context, nodes []*engine.Node) error {
	if len(nodes) == 0 {
		return nil
	}
	ax := make([]atspi.Node, len(nodes))
	ptrs := make([]*atspi.Node, len(nodes))
	for i, n := range nodes {
		ax[i] = nodeToAtspi(n)
		ptrs[i] = &ax[i]
	}
	if err := b.a.Refresh(answering(ctx), ptrs); err != nil {
		return atspiErr(err)
	}
	for i, n := range nodes {
		copyStructure(n, &ax[i])
		n.Detailed = false
	}
	return nil
}

// closeWatchers ends every watcher (Backend.Close).
func (b *Backend) closeWatchers() {
	b.mu.Lock()
	ws := b.watchers
	b.watchers = map[string]*appWatcher{}
	b.mu.Unlock()
	for _, aw := range ws {
		aw.w.Close()
	}
}

var _ engine.ChangeNotifier = (*Backend)(nil)

// WaitChange waits on the watcher of a window's app for its next event
// after mark (wait_for wakes on it).
func (b *Backend) WaitChange(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, max time.Duration) (bool, error) {
	aw := b.liveWatcher(w)
	if aw == nil {
		return false, engine.Errf(engine.CodeAppNotResponding, "no change watcher for window %d", uint64(w))
	}
	seq, ok := aw.seqOf(mark)
	if !ok {
		return true, nil // a mark of an earlier watcher: anything may have changed
	}
	changed, err := aw.w.WaitChange(ctx, atspi.Counts{Content: seq}, max)
	if err != nil {
		return false, atspiErr(err)
	}
	return changed, nil
}

var _ engine.SubtreeReader = (*Backend)(nil)

// ReadSubtree reads the structure of one element's subtree of window w
// (a wait that heard an element added under another reads that part of
// the window, not all of it).
func (b *Backend) ReadSubtree(ctx context.Context, w engine.WindowID, root engine.ElementID, budget engine.Budget) (*engine.Tree, error) {
	if root == bareWindowID {
		return nil, engine.Errf(engine.CodeNotActionable, "window %d has no accessible app", uint64(w))
	}
	t, err := b.a.ReadSubtree(answering(ctx), atspiID(root), atspi.Budget{MaxElements: budget.MaxElements, MaxDepth: budget.MaxDepth})
	if err != nil {
		return nil, atspiErr(err)
	}
	return treeFromAtspi(t, w, b.scaleOf(w), false), nil
}
