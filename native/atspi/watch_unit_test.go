package atspi

import (
	"bufio"
	"context"
	"net"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		member, detail string
		detail1        int32
		kind           ChangeKind
		ok             bool
	}{
		{"ChildrenChanged", "add", 3, ChangeStructure, true},
		{"ChildrenChanged", "remove", 0, ChangeStructure, true},
		{"PropertyChange", "accessible-role", 0, ChangeStructure, true},
		{"PropertyChange", "accessible-parent", 0, ChangeStructure, true},
		{"PropertyChange", "accessible-name", 0, ChangeContent, true},
		{"PropertyChange", "accessible-value", 0, ChangeContent, true},
		{"StateChanged", "defunct", 1, ChangeStructure, true},
		{"StateChanged", "defunct", 0, ChangeContent, true}, // a new accessible
		{"StateChanged", "focused", 1, ChangeContent, true},
		{"TextChanged", "insert", 0, ChangeContent, true},
		{"BoundsChanged", "", 0, ChangeExtents, true},
		{"VisibleDataChanged", "", 0, ChangeSubtree, true},
		{"SelectionChanged", "", 0, ChangeSubtree, true},
		{"ActiveDescendantChanged", "", 0, ChangeSubtree, true},
		{"TextCaretMoved", "", 4, "", false},
		{"TextSelectionChanged", "", 0, "", false},
	}
	for _, tc := range cases {
		kind, ok := classify(tc.member, tc.detail, tc.detail1)
		if kind != tc.kind || ok != tc.ok {
			t.Errorf("classify(%s, %s, %d) = %q %v, want %q %v", tc.member, tc.detail, tc.detail1, kind, ok, tc.kind, tc.ok)
		}
	}
}

func TestValidBusName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{":1.42", true},
		{"org.a11y.atspi.Registry", true},
		{"", false},
		{"a'b", false},
		{"a,b", false},
		{"a\\b", false},
		{"a b", false},
		{string(make([]byte, 256)), false},
	}
	for _, tc := range cases {
		if got := validBusName(tc.name); got != tc.ok {
			t.Errorf("validBusName(%q) = %v", tc.name, got)
		}
	}
}

// signalMessage encodes an event signal as an app sends it.
func signalMessage(path, member string, args ...any) []byte {
	msg := appendCall(nil, 1, flagNoReplyExpected, "", path, eventObjectIface, member, args)
	msg[1] = msgSignal
	return msg
}

func TestEventDetail(t *testing.T) {
	cases := []struct {
		name    string
		args    []any
		detail  string
		detail1 int32
	}{
		{"state", []any{"focused", int32(1), int32(0)}, "focused", 1},
		{"suffix cut", []any{"add/system", int32(2), int32(0)}, "add", 2},
		{"no detail1", []any{"insert"}, "", 0},
		{"no string", []any{int32(5)}, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, body := splitMessage(t, signalMessage("/o", "StateChanged", tc.args...))
			d, d1 := eventDetail(&h, body, false)
			if d != tc.detail || d1 != tc.detail1 {
				t.Fatalf("got %q %d, want %q %d", d, d1, tc.detail, tc.detail1)
			}
		})
	}
}

// childrenChangedBody encodes a children-changed event's arguments
// (siiv, the variant a reference) as an app sends them; the body starts
// 8-aligned.
func childrenChangedBody(detail string, index int32, bus, path string) []byte {
	e := encoder{}
	e.str(detail)
	e.int32(index)
	e.int32(0)
	e.sig("(so)")
	e.align(8)
	e.str(bus)
	e.str(path)
	return e.buf
}

func TestChildOf(t *testing.T) {
	const app = ":1.7"
	cases := []struct {
		name   string
		member string
		body   []byte
		want   childEvent
	}{
		{"added", "ChildrenChanged", childrenChangedBody("add", 2, app, "/o/5"), childEvent{op: "add", index: 2, path: "/o/5"}},
		{"removed, suffix cut", "ChildrenChanged", childrenChangedBody("remove/system", -1, app, "/o/5"), childEvent{op: "remove", index: -1, path: "/o/5"}},
		{"another app's child is not followed", "ChildrenChanged", childrenChangedBody("add", 0, ":1.9", "/o/5"), childEvent{op: "add", index: 0}},
		{"a null child", "ChildrenChanged", childrenChangedBody("add", 0, app, nullPath), childEvent{op: "add", index: 0}},
		{"an unknown detail", "ChildrenChanged", childrenChangedBody("shuffle", 0, app, "/o/5"), childEvent{}},
		{"another event", "StateChanged", childrenChangedBody("add", 0, app, "/o/5"), childEvent{}},
		{"cut short", "ChildrenChanged", childrenChangedBody("add", 0, app, "/o/5")[:20], childEvent{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := header{member: tc.member, signature: "siiva{sv}"}
			if got := childOf(app, &h, tc.body, false); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestStringListEncoding(t *testing.T) {
	msg := appendCall(nil, 1, 0, ":1.1", "/p", "i.f", "M", []any{"ev", []string{"a", "bc"}, "x"})
	h, body := splitMessage(t, msg)
	if h.signature != "sass" {
		t.Fatalf("signature %q", h.signature)
	}
	d := &decoder{b: body}
	got := []string{d.str()}
	end := d.array(4)
	for d.more(end) {
		got = append(got, d.str())
	}
	got = append(got, d.str())
	if d.err != nil || len(got) != 4 || got[0] != "ev" || got[1] != "a" || got[2] != "bc" || got[3] != "x" {
		t.Fatalf("body %q (%v)", got, d.err)
	}
}

// fakeWatcher is a watcher registered on a client without a bus.
func fakeWatcher(c *Client, app string, gen int) *Watcher {
	a, _ := net.Pipe()
	w := &Watcher{c: c, app: app, gen: gen, bus: &wireConn{conn: a, done: make(chan struct{})}, done: make(chan struct{})}
	c.addWatcher(w)
	return w
}

// TestPeerSignalsAreTheAppsEvents feeds signals through a private-socket
// connection (no sender, as a peer sends them) and through the bus
// handler: each reaches the watchers of its app and generation only.
func TestPeerSignalsAreTheAppsEvents(t *testing.T) {
	c := New(Options{Getenv: func(string) string { return "" }})
	mine := fakeWatcher(c, ":1.7", 2)
	other := fakeWatcher(c, ":1.8", 2)
	stale := fakeWatcher(c, ":1.7", 1) // an older bus generation

	local, remote := net.Pipe()
	defer remote.Close()
	conn := &wireConn{peer: true, conn: local, pending: map[uint32]pendingCall{}, done: make(chan struct{}), onSignal: c.peerSignal(2, ":1.7")}
	go conn.readLoop(bufio.NewReader(local))
	defer conn.close(errConnClosed)

	for _, msg := range [][]byte{
		signalMessage("/org/a11y/atspi/accessible/5", "ChildrenChanged", "add", int32(0), int32(0)),
		signalMessage("/org/a11y/atspi/accessible/6", "PropertyChange", "accessible-name", int32(0), int32(0)),
		signalMessage("/org/a11y/atspi/accessible/6", "TextCaretMoved", "", int32(3), int32(0)),
	} {
		if _, err := remote.Write(msg); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Eventually(t, 10*time.Second, "the connection read the three signals", func() bool { return conn.signals.Load() >= 3 })
	if got := mine.Counts(); got != (Counts{Structure: 1, Content: 1}) {
		t.Errorf("the app's watcher counted %+v", got)
	}
	if other.Counts().Total() != 0 || stale.Counts().Total() != 0 {
		t.Errorf("other watchers counted %+v and %+v", other.Counts(), stale.Counts())
	}
	changes, complete := mine.Since(Counts{})
	if !complete || len(changes) != 2 || changes[0].Source != ":1.7/org/a11y/atspi/accessible/5" || changes[1].Kind != ChangeContent {
		t.Errorf("changes %+v complete %v", changes, complete)
	}

	// On the bus the sender names the app.
	h := header{iface: eventObjectIface, member: "StateChanged", sender: ":1.8", path: "/x"}
	c.busSignal(2)(nil, &h, nil, false)
	if other.Counts().Content != 1 || mine.Counts().Total() != 2 {
		t.Errorf("a bus event of :1.8 counted %+v for it, %+v for :1.7", other.Counts(), mine.Counts())
	}
	// Signals of other interfaces are not events.
	h = header{iface: "org.freedesktop.DBus", member: "NameAcquired", sender: ":1.8"}
	c.busSignal(2)(nil, &h, nil, false)
	if other.Counts().Total() != 1 {
		t.Errorf("a bus daemon signal was counted")
	}
	c.removeWatcher(mine)
	c.removeWatcher(other)
	c.removeWatcher(stale)
	if len(c.watchers) != 0 {
		t.Errorf("watchers left: %v", c.watchers)
	}
}

func TestSinceKeepsTheNewestChanges(t *testing.T) {
	c := New(Options{})
	w := fakeWatcher(c, ":1.3", 1)
	at := time.Unix(100, 0)
	for i := 0; i < recentChanges+10; i++ {
		w.record(ChangeContent, "/p", childEvent{}, at.Add(time.Duration(i)))
	}
	w.record(ChangeStructure, "/q", childEvent{}, at.Add(time.Hour))
	mark := w.Counts()
	changes, complete := w.Since(Counts{})
	if complete || len(changes) != recentChanges {
		t.Fatalf("%d changes complete %v, want the newest %d, incomplete", len(changes), complete, recentChanges)
	}
	if last := changes[len(changes)-1]; last.Kind != ChangeStructure || last.Source != ":1.3/q" || !last.At.Equal(at.Add(time.Hour)) {
		t.Errorf("newest change %+v", last)
	}
	if changes, complete := w.Since(Counts{Structure: mark.Structure, Content: mark.Content - 2}); !complete || len(changes) != 2 {
		t.Errorf("Since two back: %d complete %v", len(changes), complete)
	}
	if changes, complete := w.Since(mark); !complete || len(changes) != 0 {
		t.Errorf("Since now: %d complete %v", len(changes), complete)
	}
	if !w.LastChange().Equal(at.Add(time.Hour)) {
		t.Errorf("LastChange %v", w.LastChange())
	}
}

// TestQuietExtendsWithEachEvent: the quiet period runs from the newest
// event when that is later than the call. The events are recorded with
// the times they stand for, the newest one after the call, so the check
// does not depend on when the goroutines run: Quiet may return late,
// never before the quiet period after that event.
func TestQuietExtendsWithEachEvent(t *testing.T) {
	c := New(Options{})
	w := fakeWatcher(c, ":1.3", 1)
	const quiet = 60 * time.Millisecond
	start := time.Now()
	for i := range 4 {
		w.record(ChangeContent, "/p", childEvent{}, start.Add(time.Duration(i)*quiet))
	}
	newest := w.LastChange()
	settled, last, err := w.Quiet(context.Background(), quiet, time.Hour)
	returned := time.Now()
	if err != nil || !settled {
		t.Fatalf("settled %v, %v", settled, err)
	}
	if !last.Equal(newest) || returned.Sub(newest) < quiet {
		t.Errorf("returned %v after the newest event (%v after the start), want at least %v", returned.Sub(newest), newest.Sub(start), quiet)
	}
	// A closed watcher and a dropped connection end the wait at once.
	w.bus.close(errConnClosed)
	_, _, err = w.Quiet(context.Background(), time.Hour, time.Hour)
	wantKind(t, err, KindGone)
	w2 := fakeWatcher(c, ":1.3", 1)
	close(w2.done)
	_, _, err = w2.Quiet(context.Background(), time.Hour, time.Hour)
	wantKind(t, err, KindInternal)
}

func TestWaitChange(t *testing.T) {
	c := New(Options{})
	w := fakeWatcher(c, ":1.3", 1)
	w.record(ChangeContent, "/old", childEvent{}, time.Now())
	mark := w.Counts()

	// An event already counted after the mark returns at once.
	if changed, err := w.WaitChange(context.Background(), Counts{}, time.Hour); !changed || err != nil {
		t.Fatalf("an event after the zero mark: %v %v", changed, err)
	}
	// None comes: false after maxWait.
	start := time.Now()
	if changed, err := w.WaitChange(context.Background(), mark, 30*time.Millisecond); changed || err != nil || time.Since(start) < 30*time.Millisecond {
		t.Fatalf("no event: %v %v after %v", changed, err, time.Since(start))
	}
	// One comes while waiting.
	go func() {
		waiting(w)
		w.record(ChangeStructure, "/new", childEvent{}, time.Now())
	}()
	if changed, err := w.WaitChange(context.Background(), mark, 5*time.Second); !changed || err != nil {
		t.Fatalf("an event while waiting: %v %v", changed, err)
	}
	// A close ends the wait.
	mark = w.Counts()
	go func() {
		waiting(w)
		close(w.done)
	}()
	_, err := w.WaitChange(context.Background(), mark, time.Hour)
	wantKind(t, err, KindInternal)
}

// waiting waits until a WaitChange is blocked on w (it has made the wake
// channel the next event closes).
func waiting(w *Watcher) {
	testkit.Poll(10*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.wake != nil
	})
}
