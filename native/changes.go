package native

import (
	"context"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// The backend hears apps report their own changes (AT-SPI events), so the
// engine settles after an act by waiting on those reports and reading the
// window once, instead of re-reading it every few milliseconds. One watcher
// per app lives as long as the backend (opening one costs a registration
// round trip; keeping it costs nothing between events).

var _ engine.ChangeWaiter = (*Backend)(nil)

// watcherFor returns the live watcher of a window's app, starting one when
// needed.
func (b *Backend) watcherFor(ctx context.Context, w engine.WindowID) (*atspi.Watcher, error) {
	if _, _, ok, err := b.frameOf(ctx, w); err != nil || !ok {
		if err == nil {
			err = engine.Errf(engine.CodeNotActionable, "window %d has no accessible app", uint64(w))
		}
		return nil, err
	}
	b.mu.Lock()
	bus := b.frameBus[w]
	wt := b.watchers[bus]
	b.mu.Unlock()
	if wt != nil && !wt.Broken() {
		return wt, nil
	}
	nw, err := b.a.Watch(ctx, bus)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if cur := b.watchers[bus]; cur != nil && !cur.Broken() {
		nw.Close()
		return cur, nil
	}
	if old := b.watchers[bus]; old != nil {
		old.Close()
	}
	b.watchers[bus] = nw
	return nw, nil
}

// MarkChanges marks the changes a window's app has reported so far.
func (b *Backend) MarkChanges(ctx context.Context, w engine.WindowID) (engine.ChangeMark, error) {
	wt, err := b.watcherFor(ctx, w)
	if err != nil {
		return 0, err
	}
	return engine.ChangeMark(wt.Counts().Total()), nil
}

// WaitQuiet waits until the window's app has been quiet for quiet.
func (b *Backend) WaitQuiet(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, quiet, max time.Duration) (bool, bool, time.Time, error) {
	wt, err := b.watcherFor(ctx, w)
	if err != nil {
		return false, false, time.Time{}, err
	}
	settled, last, err := wt.Quiet(ctx, quiet, max)
	if err != nil {
		return false, false, time.Time{}, err
	}
	return settled, wt.Counts().Total() > uint64(mark), last, nil
}

// closeWatchers ends every watcher (Backend.Close).
func (b *Backend) closeWatchers() {
	b.mu.Lock()
	ws := b.watchers
	b.watchers = map[string]*atspi.Watcher{}
	b.mu.Unlock()
	for _, w := range ws {
		w.Close()
	}
}
