package mock

import (
	"context"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// The mock hears its windows change the way an AT-SPI backend hears its
// apps' events, so the engine's settle-on-reports path runs in every
// contract test: MarkChanges notes a window's content, WaitQuiet watches it
// until it stops changing.

var _ engine.ChangeWaiter = (*Desktop)(nil)

// changePoll is how often WaitQuiet looks at the window.
const changePoll = 2 * time.Millisecond

// MarkChanges notes the window's content before an act.
func (d *Desktop) MarkChanges(ctx context.Context, w engine.WindowID) (engine.ChangeMark, error) {
	var h uint64
	err := d.appCall(ctx, Call{Method: "MarkChanges", Window: w}, func(win *Window) error {
		h = win.contentHash()
		return nil
	})
	if err != nil {
		return 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.markSeq++
	if d.marks == nil {
		d.marks = map[engine.ChangeMark]uint64{}
	}
	d.marks[engine.ChangeMark(d.markSeq)] = h
	return engine.ChangeMark(d.markSeq), nil
}

// WaitQuiet waits until the window has not changed for quiet (counted from
// the call or the last change), or max passes.
func (d *Desktop) WaitQuiet(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, quiet, max time.Duration) (bool, bool, time.Time, error) {
	start := time.Now()
	defer func() {
		d.mu.Lock()
		delete(d.marks, mark) // a mark serves one wait
		d.mu.Unlock()
	}()
	var prev uint64
	var last time.Time
	for first := true; ; first = false {
		var h uint64
		err := d.appCall(ctx, Call{Method: "WaitQuiet", Window: w}, func(win *Window) error {
			h = win.contentHash()
			return nil
		})
		if err != nil {
			return false, false, time.Time{}, err
		}
		now := time.Now()
		if !first && h != prev {
			last = now
		}
		prev = h
		since := start
		if last.After(since) {
			since = last
		}
		d.mu.Lock()
		before, known := d.marks[mark]
		d.mu.Unlock()
		changed := !known || h != before
		if changed && last.IsZero() {
			last = start // it changed before the wait began
		}
		if now.Sub(since) >= quiet {
			return true, changed, last, nil
		}
		if now.Sub(start) >= max {
			return false, changed, last, nil
		}
		select {
		case <-ctx.Done():
			return false, changed, last, engine.Errf(engine.CodeAppNotResponding, "the wait was cancelled")
		case <-time.After(changePoll):
		}
	}
}

// contentHash sums everything a read of the window shows. mu held.
func (w *Window) contentHash() uint64 {
	f := fnv.New64a()
	t := w.read(engine.ZoomBudget)
	for _, n := range t.Nodes {
		f.Write([]byte(string(n.ID) + "\x00" + n.Role + "\x00" + n.Name + "\x00" + n.Description + "\x00" + n.Value +
			"\x00" + strings.Join(n.States, ",") + "\x00" + strconv.Itoa(n.Parent) + "\x00" + strconv.Itoa(n.Frame.X) + "," +
			strconv.Itoa(n.Frame.Y) + "," + strconv.Itoa(n.Frame.W) + "," + strconv.Itoa(n.Frame.H) + "\x01"))
	}
	return f.Sum64()
}
