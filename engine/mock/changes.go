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
//
// The mock's waits (WaitChange, WaitQuiet) sleep until the desktop
// changes, as an AT-SPI watcher sleeps until its app's next event: every
// change a read could show moves the desktop's version on and wakes them
// (touch), and only then do they stamp the window again. A wait on a
// quiet desktop reads nothing; one idle wait used to take a sixth of a
// core or more, stamping its window every 2 ms. A window's stamp is kept with the
// version it is known current at and shared by every mark and wait made
// while it holds, so a hundred waits on one quiet window share one stamp
// and one mark.

var _ engine.ChangeLister = (*Desktop)(nil)

// maxMarks bounds the marks kept; an older mark has lost its changes. A
// mark is a stamp's, and a quiet window's marks are one, so this counts
// the window states marked, not the calls that marked them.
const maxMarks = 256

// markState is what one mark saw of its window. Once made it does not
// change but for version and mark, under mu.
type markState struct {
	window engine.WindowID
	hash   uint64
	elems  map[engine.ElementID]elemStamp
	// version is the desktop's version this state is known current at;
	// mark is the mark that keeps it (0: none yet).
	version uint64
	mark    engine.ChangeMark
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
		m = win.state()
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

// keepMarkLocked stores a mark of a state, forgetting the oldest past
// maxMarks; a state already marked, and still kept, keeps its mark. mu
// held.
func (d *Desktop) keepMarkLocked(m *markState) engine.ChangeMark {
	if m.mark != 0 && d.marks[m.mark] == m {
		return m.mark
	}
	d.markSeq++
	if d.marks == nil {
		d.marks = map[engine.ChangeMark]*markState{}
	}
	m.mark = engine.ChangeMark(d.markSeq)
	d.marks[m.mark] = m
	delete(d.marks, engine.ChangeMark(d.markSeq-maxMarks))
	return m.mark
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
	return d.keepMarkLocked(win.state()), true
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
	now := win.state()
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
// the call or the last change), or limit passes. It stamps the window when
// it begins and again only after the desktop changed, each time as an
// accessibility call (a hung app holds it up, a closed window ends it).
func (d *Desktop) WaitQuiet(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, quiet, limit time.Duration) (bool, bool, time.Time, error) {
	start := time.Now()
	var h uint64             // the window's state as last stamped
	var seen uint64          // the desktop's version then
	var wake <-chan struct{} // closed at the next change after that
	var last time.Time
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for first := true; ; first = false {
		d.mu.Lock()
		moved := first || d.version != seen
		d.mu.Unlock()
		if moved {
			prev := h
			err := d.appCall(ctx, Call{Method: "WaitQuiet", Window: w}, func(win *Window) error {
				h, seen, wake = win.state().hash, d.version, d.nextTouch()
				return nil
			})
			if err != nil {
				return false, false, time.Time{}, err
			}
			if !first && h != prev {
				last = time.Now()
			}
		}
		d.mu.Lock()
		before := d.marks[mark]
		d.mu.Unlock()
		changed := before == nil || h != before.hash
		if changed && last.IsZero() {
			last = start // it changed before the wait began
		}
		now := time.Now()
		since := start
		if last.After(since) {
			since = last
		}
		if now.Sub(since) >= quiet {
			return true, changed, last, nil
		}
		if now.Sub(start) >= limit {
			return false, changed, last, nil
		}
		timer.Reset(min(since.Add(quiet).Sub(now), start.Add(limit).Sub(now)))
		select {
		case <-ctx.Done():
			return false, changed, last, engine.Errf(engine.CodeAppNotResponding, "the wait was cancelled")
		case <-timer.C:
		case <-wake:
		}
	}
}

// state is the window's state now: the stamp taken at the desktop's
// version when there is one, else a new stamp, which keeps the one before
// (and its mark) when nothing of this window changed. mu held.
func (w *Window) state() *markState {
	d := w.d
	old := w.stamp
	if old != nil && old.version == d.version {
		return old
	}
	m := w.markState()
	if old != nil && old.hash == m.hash {
		old.version = d.version
		return old
	}
	m.version = d.version
	w.stamp = m
	return m
}

// touch notes a change a read could show: an element's fields, a tree's
// shape, a window's title, frame, scale, place or focus, a window closed,
// an app started, exited, hung or resumed, the desktop switched off or
// leaking secure values. The desktop's version moves on and every wait
// sleeping on it wakes to stamp its window again. mu held.
func (d *Desktop) touch() {
	d.version++
	if d.touched != nil {
		close(d.touched)
		d.touched = nil
	}
}

// change makes a change a read could show: fn runs under mu, and the
// desktop is touched after it.
func (d *Desktop) change(fn func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fn()
	d.touch()
}

// nextTouch is a channel the next touch closes. mu held.
func (d *Desktop) nextTouch() <-chan struct{} {
	if d.touched == nil {
		d.touched = make(chan struct{})
	}
	return d.touched
}

// Stamps is how many times the mock has stamped a window's whole state (a
// read of all of it and a hash) for its change reports and waits, so a
// test can count what an idle wait costs.
func (d *Desktop) Stamps() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stamps
}

// markState stamps every element of the window (state keeps the stamps).
// mu held.
func (w *Window) markState() *markState {
	w.d.stamps++
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
		all.Write([]byte(string(n.ID) + "\x00" + string(st.parent) + "\x00" + strconv.Itoa(st.index) + "\x00" + strconv.FormatUint(st.content, 16) + "\x00" + frameText(n.Frame) + "\x01"))
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
// AT-SPI watcher wakes on its app's next event: it sleeps until the
// desktop changes, the context ends or max passes, and stamps the window
// again only after a change.
// The call is recorded when the wait begins (Done when it ends), so a
// test can change the window once a wait is listening.
func (d *Desktop) WaitChange(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, max time.Duration) (changed bool, err error) {
	i := d.record(Call{Method: "WaitChange", Window: w})
	defer func() { d.finish(i, err) }()
	timer := time.NewTimer(max)
	defer timer.Stop()
	d.mu.Lock()
	for {
		m := d.marks[mark]
		win := d.liveWindow(w)
		if m == nil || win == nil || win.state().hash != m.hash {
			d.mu.Unlock()
			return true, nil
		}
		wake := d.nextTouch()
		d.mu.Unlock()
		select {
		case <-ctx.Done():
			return false, engine.Errf(engine.CodeAppNotResponding, "the wait was cancelled")
		case <-timer.C:
			return false, nil
		case <-wake:
		}
		d.mu.Lock()
	}
}
