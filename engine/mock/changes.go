package mock

import (
	"context"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// The mock hears its windows change the way an AT-SPI backend hears its
// apps' events, so the engine's settle-on-reports path and its read-saving
// paths run in every contract test. A mark remembers what each element of
// the window looked like; the changes since a mark are the elements that
// look different now, reported as an AT-SPI app would report them: an
// element added or removed is a structural change of its parent naming
// it, one moved to another parent a structural change of its own, one
// whose own fields changed a content change, and one whose frame alone
// moved an extents change.

var _ engine.ChangeLister = (*Desktop)(nil)

// changePoll is how often WaitQuiet looks at the window.
const changePoll = 2 * time.Millisecond

// maxMarks bounds the marks kept; an older mark has lost its changes.
const maxMarks = 256

// markState is what one mark saw of its window.
type markState struct {
	window engine.WindowID
	hash   uint64
	elems  map[engine.ElementID]elemStamp
}

// elemStamp is one element at a mark: where it sits and what it shows.
type elemStamp struct {
	parent  engine.ElementID
	index   int    // among the parent's children
	content uint64 // what it shows but its frame
	frame   engine.Rect
}

// MarkChanges notes the window's content before an act, and from then on
// the mock listens to the window (CurrentMark works without a call).
func (d *Desktop) MarkChanges(ctx context.Context, w engine.WindowID) (engine.ChangeMark, error) {
	var m *markState
	err := d.appCall(ctx, Call{Method: "MarkChanges", Window: w}, func(win *Window) error {
		m = win.markState()
		return nil
	})
	if err != nil {
		return 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.listening == nil {
		d.listening = map[engine.WindowID]bool{}
	}
	d.listening[w] = true
	return d.keepMarkLocked(m), nil
}

// keepMarkLocked stores a mark, forgetting the oldest past maxMarks. mu held.
func (d *Desktop) keepMarkLocked(m *markState) engine.ChangeMark {
	d.markSeq++
	if d.marks == nil {
		d.marks = map[engine.ChangeMark]*markState{}
	}
	d.marks[engine.ChangeMark(d.markSeq)] = m
	delete(d.marks, engine.ChangeMark(d.markSeq-maxMarks))
	return engine.ChangeMark(d.markSeq)
}

// CurrentMark marks a window the mock already listens to, with no call
// into the app (a stopped app's window can still be marked).
func (d *Desktop) CurrentMark(w engine.WindowID) (engine.ChangeMark, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	win := d.liveWindow(w)
	if win == nil || !d.listening[w] {
		return 0, false
	}
	return d.keepMarkLocked(win.markState()), true
}

// ChangesSince reports the elements that differ from what mark saw.
func (d *Desktop) ChangesSince(w engine.WindowID, mark engine.ChangeMark) ([]engine.Change, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := d.marks[mark]
	win := d.liveWindow(w)
	if m == nil || m.window != w || win == nil {
		return nil, false
	}
	now := win.markState()
	if now.hash == m.hash {
		return nil, true
	}
	// As an AT-SPI app reports: an element added or removed is reported
	// on its parent, naming it (and, added, its index), once for the top
	// of a subtree that came or went; an element that moved to another
	// parent is a structural report about itself; the parent's new child
	// count is a change of its own content.
	var out, added []engine.Change
	for id, was := range m.elems {
		cur, ok := now.elems[id]
		switch {
		case !ok:
			if _, parentStays := now.elems[was.parent]; parentStays {
				out = append(out, engine.Change{Kind: engine.ChangeStructure, Source: was.parent, Op: engine.ChildRemoved, Child: id, Index: -1})
			}
		case cur.parent != was.parent:
			out = append(out, engine.Change{Kind: engine.ChangeStructure, Source: id})
		case cur.content != was.content:
			out = append(out, engine.Change{Kind: engine.ChangeContent, Source: id})
		case cur.frame != was.frame:
			out = append(out, engine.Change{Kind: engine.ChangeExtents, Source: id})
		}
	}
	for id, cur := range now.elems {
		if _, ok := m.elems[id]; !ok {
			if _, parentWas := m.elems[cur.parent]; parentWas {
				added = append(added, engine.Change{Kind: engine.ChangeStructure, Source: cur.parent, Op: engine.ChildAdded, Child: id, Index: cur.index})
			}
		}
	}
	// Additions after removals, lowest index first, so that each index
	// is right when its report is followed in order.
	slices.SortFunc(added, func(a, b engine.Change) int { return a.Index - b.Index })
	return append(out, added...), true
}

// Refresh reads the structure fields of nodes again.
func (d *Desktop) Refresh(ctx context.Context, nodes []*engine.Node) error {
	if len(nodes) == 0 {
		return nil
	}
	win := d.windowOf(nodes[0].ID)
	if win == 0 {
		return engine.Errf(engine.CodeStaleElementToken, "the element is gone")
	}
	return d.appCall(ctx, Call{Method: "Refresh", Window: win, Nodes: len(nodes)}, func(w *Window) error {
		lay := w.layout()
		for _, n := range nodes {
			e := w.byID[n.ID]
			if e == nil {
				return engine.Errf(engine.CodeStaleElementToken, "the element is gone")
			}
			fresh := w.node(e, n.Parent, n.IndexInParent, n.Depth, lay[e])
			n.Role, n.Name, n.Description = fresh.Role, fresh.Name, fresh.Description
			n.States, n.ChildCount = fresh.States, fresh.ChildCount
			n.Secure = n.Secure || fresh.Secure
			n.Detailed = false
		}
		return nil
	})
}

// WaitQuiet waits until the window has not changed for quiet (counted from
// the call or the last change), or max passes.
func (d *Desktop) WaitQuiet(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, quiet, max time.Duration) (bool, bool, time.Time, error) {
	start := time.Now()
	var prev uint64
	var last time.Time
	for first := true; ; first = false {
		var h uint64
		err := d.appCall(ctx, Call{Method: "WaitQuiet", Window: w}, func(win *Window) error {
			h = win.markState().hash
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
		before := d.marks[mark]
		d.mu.Unlock()
		changed := before == nil || h != before.hash
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

// markState stamps every element of the window. mu held.
func (w *Window) markState() *markState {
	t := w.read(engine.DefaultZoomBudget())
	m := &markState{window: w.id, elems: make(map[engine.ElementID]elemStamp, len(t.Nodes))}
	all := fnv.New64a()
	for i := range t.Nodes {
		n := &t.Nodes[i]
		st := elemStamp{index: n.IndexInParent, content: nodeHash(n), frame: n.Frame}
		if n.Parent >= 0 {
			st.parent = t.Nodes[n.Parent].ID
		}
		m.elems[n.ID] = st
		all.Write([]byte(string(n.ID) + "\x00" + string(st.parent) + "\x00" + strconv.FormatUint(st.content, 16) + "\x00" + frameText(n.Frame) + "\x01"))
	}
	m.hash = all.Sum64()
	return m
}

// nodeHash sums what one node shows but its frame (a frame that moved
// alone is reported as extents).
func nodeHash(n *engine.Node) uint64 {
	f := fnv.New64a()
	f.Write([]byte(n.Role + "\x00" + n.Name + "\x00" + n.Description + "\x00" + n.Value +
		"\x00" + strings.Join(n.States, ",") + "\x00" + strconv.Itoa(n.ChildCount)))
	return f.Sum64()
}

func frameText(r engine.Rect) string {
	return strconv.Itoa(r.X) + "," + strconv.Itoa(r.Y) + "," + strconv.Itoa(r.W) + "," + strconv.Itoa(r.H)
}

var _ engine.ChangeNotifier = (*Desktop)(nil)

// WaitChange waits until the window differs from what mark saw, as an
// AT-SPI watcher wakes on its app's next event.
// The call is recorded when the wait begins (Done when it ends), so a
// test can change the window once a wait is listening.
func (d *Desktop) WaitChange(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, max time.Duration) (changed bool, err error) {
	i := d.record(Call{Method: "WaitChange", Window: w})
	defer func() { d.finish(i, err) }()
	end := time.Now().Add(max)
	for {
		d.mu.Lock()
		m := d.marks[mark]
		win := d.liveWindow(w)
		changed := m == nil || win == nil || win.markState().hash != m.hash
		d.mu.Unlock()
		if changed {
			return true, nil
		}
		left := time.Until(end)
		if left <= 0 {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, engine.Errf(engine.CodeAppNotResponding, "the wait was cancelled")
		case <-time.After(min(changePoll, left)):
		}
	}
}
