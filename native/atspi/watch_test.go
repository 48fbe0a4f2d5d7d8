package atspi

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// watch starts a watcher on an app and closes it when the test ends.
func watch(t *testing.T, app string) *Watcher {
	t.Helper()
	w, err := client.Watch(callCtx(t), app)
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	t.Cleanup(w.Close)
	return w
}

// settle waits for the app to be quiet for 50 ms (at most 2 s) and fails
// the test if it does not settle.
func settle(t *testing.T, w *Watcher) time.Time {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	settled, last, err := w.Quiet(ctx, 50*time.Millisecond, 2*time.Second)
	if err != nil || !settled {
		t.Fatalf("Quiet: settled %v, %v", settled, err)
	}
	return last
}

// settleAfter waits until w has heard something since before (an act's
// first event; it comes through the bus daemon, a process of its own,
// not with the act's reply), then until the app is quiet, and returns
// when the last event came. Quiet alone could return before the first
// event of a loaded machine arrived.
func settleAfter(t *testing.T, w *Watcher, before Counts) time.Time {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if changed, err := w.WaitChange(ctx, before, 10*time.Second); !changed || err != nil {
		t.Fatalf("no event came after the act (%v)", err)
	}
	settled, last, err := w.Quiet(ctx, 300*time.Millisecond, 10*time.Second)
	if err != nil || !settled {
		t.Fatalf("Quiet after the act: settled %v, %v", settled, err)
	}
	return last
}

// statusLabel returns the synthetic window's status label.
func statusLabel(t *testing.T, tree *Tree) Node {
	t.Helper()
	for _, n := range tree.Nodes {
		if n.Role == "label" && (n.Name == "not clicked" || strings.HasPrefix(n.Name, "clicked ")) {
			return n
		}
	}
	t.Fatal("no status label in the read")
	return Node{}
}

// sources collects the sources of changes of one kind.
func sources(changes []Change, kind ChangeKind) map[ID]bool {
	m := map[ID]bool{}
	for _, c := range changes {
		if c.Kind == kind {
			m[c.Source] = true
		}
	}
	return m
}

func TestClickBumpsContentNotStructure(t *testing.T) {
	f := synthetic200(t)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	btn := find(t, tree, "push_button", "Click me")
	label := statusLabel(t, tree)
	w := watch(t, f.frame.Bus)
	settle(t, w) // nothing left over from earlier tests
	before := w.Counts()
	acted := time.Now()
	if err := client.DoAction(callCtx(t), ref(btn), "click"); err != nil {
		t.Fatal(err)
	}
	last := settleAfter(t, w, before)
	after := w.Counts()
	if after.Content <= before.Content {
		t.Errorf("content count %d -> %d: the click's label change was not counted", before.Content, after.Content)
	}
	if after.Structure != before.Structure {
		t.Errorf("structure count %d -> %d: a click that changes a label's text changed no element", before.Structure, after.Structure)
	}
	if !last.After(acted) {
		t.Errorf("the last change (%v) is not after the act (%v)", last, acted)
	}
	changes, complete := w.Since(before)
	if !complete || uint64(len(changes)) != after.Total()-before.Total() {
		t.Fatalf("Since: %d changes (complete %v), counts say %d", len(changes), complete, after.Total()-before.Total())
	}
	if !sources(changes, ChangeContent)[label.ID] {
		t.Errorf("the status label %s is not among the changes' sources", label.ID)
	}
	if !changes[len(changes)-1].At.Equal(last) {
		t.Errorf("Quiet's last change %v is not the newest change %v", last, changes[len(changes)-1].At)
	}
}

func TestAddingAChildBumpsStructure(t *testing.T) {
	f := startSynthetic(t, 3)
	keep(f)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	add := find(t, tree, "push_button", "Add row")
	grid := tree.Nodes[add.Parent]
	w := watch(t, f.frame.Bus)
	before := w.Counts()
	if err := client.DoAction(callCtx(t), ref(add), "click"); err != nil {
		t.Fatal(err)
	}
	settleAfter(t, w, before)
	after := w.Counts()
	if after.Structure <= before.Structure {
		t.Fatalf("structure count %d -> %d after a label was added", before.Structure, after.Structure)
	}
	changes, _ := w.Since(before)
	if !sources(changes, ChangeStructure)[grid.ID] {
		t.Errorf("the grid %s that got the label is not among the structure changes' sources", grid.ID)
	}
	again, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Nodes) != len(tree.Nodes)+1 {
		t.Errorf("after adding a label the window has %d elements, was %d", len(again.Nodes), len(tree.Nodes))
	}
	find(t, again, "label", "Added 1")
}

// TestQuietWaitsForTheChangesToStop: Quiet, called while a burst of
// clicks changes the app, returns only once the app has sent nothing for
// the quiet period, and after the burst it reports the burst's last
// change. How the burst's events spread in time depends on the machine's
// load, so the checks are the ones that hold however they spread: Quiet
// never returns within the quiet period of the newest change it saw nor
// of its call, and once every click's change is counted, a Quiet reports
// a change no older than the last click.
func TestQuietWaitsForTheChangesToStop(t *testing.T) {
	f := startSynthetic(t, 3)
	keep(f)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	add := find(t, tree, "push_button", "Add row")
	w := watch(t, f.frame.Bus)

	// A burst: five clicks in a row, each adding a label.
	const clicks = 5
	const quiet = 150 * time.Millisecond
	lastClick := make(chan time.Time, 1)
	before := w.Counts()
	go func() {
		var at time.Time
		for i := 0; i < clicks; i++ {
			at = time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_ = client.DoAction(ctx, ref(add), "click")
			cancel()
		}
		lastClick <- at
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	settled, last, err := w.Quiet(ctx, quiet, 20*time.Second)
	returned := time.Now()
	if err != nil || !settled {
		t.Fatalf("Quiet: settled %v, %v", settled, err)
	}
	if returned.Sub(last) < quiet || returned.Sub(start) < quiet {
		t.Errorf("Quiet returned %v after the last change and %v after its call, within the quiet period %v",
			returned.Sub(last), returned.Sub(start), quiet)
	}

	// Every click's label is counted, then the burst's last change is
	// what Quiet reports.
	lastAt := <-lastClick
	testkit.Eventually(t, 10*time.Second, "a structure event for each added label", func() bool {
		return w.Counts().Structure-before.Structure >= clicks
	})
	settled, last, err = w.Quiet(ctx, quiet, 20*time.Second)
	if err != nil || !settled {
		t.Fatalf("Quiet after the burst: settled %v, %v", settled, err)
	}
	if last.Before(lastAt) {
		t.Errorf("the last change %v is before the last click %v", last, lastAt)
	}
	changes, _ := w.Since(before)
	if len(changes) == 0 || !changes[len(changes)-1].At.Equal(last) {
		t.Errorf("the last change reported is not the newest event")
	}
}

// TestQuietBounds: Quiet counts its quiet period from the call, not from
// an event long ago, and gives up at its bound. Only lower bounds are
// checked (a busy machine makes Quiet late, never early); the contexts
// are hang guards.
func TestQuietBounds(t *testing.T) {
	f := synthetic200(t)
	w := watch(t, f.frame.Bus)
	settle(t, w)
	cases := []struct {
		name       string
		quiet, max time.Duration
		settled    bool
		atLeast    time.Duration
	}{
		// An idle app settles after the quiet period, counted from the
		// call.
		{"idle app", 30 * time.Millisecond, 20 * time.Second, true, 30 * time.Millisecond},
		// A bound shorter than the quiet period ends the wait unsettled.
		{"bound shorter than the quiet period", time.Hour, 40 * time.Millisecond, false, 40 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			settled, _, err := w.Quiet(ctx, tc.quiet, tc.max)
			took := time.Since(start)
			if err != nil || settled != tc.settled {
				t.Fatalf("settled %v, %v; want settled %v", settled, err, tc.settled)
			}
			if took < tc.atLeast {
				t.Errorf("Quiet took %v, want at least %v", took, tc.atLeast)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := w.Quiet(ctx, time.Second, time.Second)
	wantKind(t, err, KindNotResponding)
}

func TestWatcherSeesOnlyItsApp(t *testing.T) {
	f := synthetic200(t)
	other := startSynthetic(t, 3)
	keep(other)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	btn := find(t, tree, "push_button", "Click me")
	mine := watch(t, f.frame.Bus)
	theirs := watch(t, other.frame.Bus)
	settle(t, theirs)
	m0, o0 := mine.Counts(), theirs.Counts()
	if err := client.DoAction(callCtx(t), ref(btn), "click"); err != nil {
		t.Fatal(err)
	}
	settleAfter(t, mine, m0)
	settle(t, theirs)
	if mine.Counts().Total() == m0.Total() {
		t.Fatal("the clicked app's watcher counted nothing")
	}
	if theirs.Counts() != o0 {
		t.Errorf("the other app's watcher counted %+v -> %+v", o0, theirs.Counts())
	}
	changes, _ := mine.Since(m0)
	for _, c := range changes {
		if bus, _, _ := splitID(c.Source); bus != f.frame.Bus {
			t.Errorf("a change of %s reported as %s", f.frame.Bus, c.Source)
		}
	}
}

// TestEventsArriveOnTheBus records where GTK 3 sends its events: on its
// bus connection, not on the private socket the client reads it through.
func TestEventsArriveOnTheBus(t *testing.T) {
	f := synthetic200(t)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	btn := find(t, tree, "push_button", "Click me")
	peer, err := client.connFor(callCtx(t), f.frame.Bus)
	if err != nil || !peer.peer {
		t.Fatalf("the fixture is not read peer to peer (%v)", err)
	}
	bus, err := client.busConn(callCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	w := watch(t, f.frame.Bus)
	settle(t, w)
	p0, b0, before := peer.signals.Load(), bus.signals.Load(), w.Counts()
	if err := client.DoAction(callCtx(t), ref(btn), "click"); err != nil {
		t.Fatal(err)
	}
	settleAfter(t, w, before)
	onPeer, onBus := peer.signals.Load()-p0, bus.signals.Load()-b0
	t.Logf("signals after a click: %d on the bus, %d on the private socket", onBus, onPeer)
	if onBus == 0 || onPeer != 0 {
		t.Errorf("signals after a click: %d on the bus, %d on the private socket; want some on the bus only", onBus, onPeer)
	}
}

// TestWatchGTK4 watches a GTK 4 app, which sends its events on the bus. GTK
// 4 runs a button's accessible "click" as a keyboard activation: the
// button looks pressed for 250 ms and only then clicks, so the test waits
// for the first event before it waits for quiet.
func TestWatchGTK4(t *testing.T) {
	calc := startApp(t, "Calculator", "/usr/bin/gnome-calculator")
	keep(calc)
	tree := readUntil(t, calc.frame.ID, func(tr *Tree) bool {
		for _, n := range tr.Nodes {
			if n.Role == "push_button" && n.Name == "7 7" {
				return true
			}
		}
		return false
	})
	seven := find(t, tree, "push_button", "7 7")
	w := watch(t, calc.frame.Bus)
	before := w.Counts()
	acted := time.Now()
	if err := client.DoAction(callCtx(t), ref(seven), "click"); err != nil {
		t.Fatal(err)
	}
	if changed, err := w.WaitChange(callCtx(t), before, 10*time.Second); !changed || err != nil {
		t.Fatalf("pressing 7 on the GTK 4 calculator sent no event (%v)", err)
	}
	firstAfter := time.Since(acted)
	last := settleAfter(t, w, before)
	after := w.Counts()
	if after.Content == before.Content {
		t.Fatal("pressing 7 on the GTK 4 calculator sent no content event")
	}
	t.Logf("GTK 4: %d events, the first %v and the last %v after the act", after.Total()-before.Total(), firstAfter, last.Sub(acted))
}

func TestWatchRefusals(t *testing.T) {
	f := synthetic200(t)
	cases := []struct {
		name string
		app  string
		kind Kind
	}{
		{"not a bus name", "x',member='y", KindInternal},
		{"nobody on the bus", ":1.99999", KindGone},
		{"not an application", registryName, KindUnsupported},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := client.Watch(callCtx(t), tc.app)
			if w != nil {
				w.Close()
			}
			wantKind(t, err, tc.kind)
		})
	}
	// A bus without the AT-SPI registry: the desktop's session bus.
	session := desk.Vars()["DBUS_SESSION_BUS_ADDRESS"]
	plain := New(Options{Getenv: func(k string) string {
		if k == "AT_SPI_BUS_ADDRESS" {
			return session
		}
		return ""
	}})
	defer plain.Close()
	_, err := plain.Watch(callCtx(t), f.frame.Bus)
	wantKind(t, err, KindUnavailable)
}

// registeredEvents lists the registry's event listeners that are this
// client's bus connection.
func registeredEvents(t *testing.T) []string {
	t.Helper()
	bus, err := client.busConn(callCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := bus.call(callCtx(t), registryName, "/org/a11y/atspi/registry", "org.a11y.atspi.Registry", "GetRegisteredEvents")
	if err != nil {
		t.Fatal(err)
	}
	d := r.decoder()
	end := d.array(8)
	var mine []string
	for d.more(end) {
		d.align(8)
		who, ev := d.str(), d.str()
		if who == bus.name {
			mine = append(mine, ev)
		}
	}
	if d.err != nil {
		t.Fatal(d.err)
	}
	return mine
}

func TestCloseLeavesNothingBehind(t *testing.T) {
	f := synthetic200(t)
	tree := readUntil(t, f.frame.ID, func(*Tree) bool { return true })
	btn := find(t, tree, "push_button", "Click me")
	bus, err := client.busConn(callCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(registeredEvents(t)); n != 0 {
		t.Fatalf("%d event kinds registered before any watcher", n)
	}
	goroutines := runtime.NumGoroutine()

	a, err := client.Watch(callCtx(t), f.frame.Bus)
	if err != nil {
		t.Fatal(err)
	}
	b, err := client.Watch(callCtx(t), f.frame.Bus)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(registeredEvents(t)); got != len(watchedEvents) {
		t.Fatalf("%d event kinds registered by two watchers, want %d (once)", got, len(watchedEvents))
	}
	aBefore, bBefore := a.Counts(), b.Counts()
	if err := client.DoAction(callCtx(t), ref(btn), "click"); err != nil {
		t.Fatal(err)
	}
	settleAfter(t, a, aBefore)
	settleAfter(t, b, bBefore)
	a.Close()
	a.Close() // twice is fine
	if _, _, err := a.Quiet(callCtx(t), time.Millisecond, time.Second); err == nil || !a.Broken() {
		t.Errorf("a closed watcher's Quiet: %v, broken %v", err, a.Broken())
	}
	if got := len(registeredEvents(t)); got != len(watchedEvents) {
		t.Errorf("%d event kinds registered while one watcher is left, want %d", got, len(watchedEvents))
	}
	if b.Broken() || b.Counts().Total() == 0 {
		t.Errorf("the other watcher broke (%v) or counted nothing", b.Broken())
	}
	b.Close()
	if n := len(registeredEvents(t)); n != 0 {
		t.Errorf("%d event kinds still registered after the last watcher closed", n)
	}
	// Nothing is forwarded any more: a click sends no signal to the client.
	// The read that shows the click's new label is the app's answer sent
	// after the change: a signal about the change, had it been forwarded,
	// would have come before it on the same connection.
	aCounts := a.Counts()
	s0 := bus.signals.Load()
	was := statusLabel(t, readUntil(t, f.frame.ID, func(*Tree) bool { return true })).Name
	if err := client.DoAction(callCtx(t), ref(btn), "click"); err != nil {
		t.Fatal(err)
	}
	readUntil(t, f.frame.ID, func(tree *Tree) bool { return statusLabel(t, tree).Name != was })
	if n := bus.signals.Load() - s0; n != 0 {
		t.Errorf("%d signals forwarded after every watcher closed", n)
	}
	if a.Counts() != aCounts {
		t.Errorf("a closed watcher still counts")
	}
	// No goroutine outlives the watchers.
	testkit.Poll(10*time.Second, func() bool { return runtime.NumGoroutine() <= goroutines })
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines after the watchers closed, %d before", n, goroutines)
	}
}

// An app that leaves the bus (it quit, or its display went away) ends its
// watcher's waits at once, with KindGone, instead of at their bound: no
// event will ever come from it.
func TestWaitsEndWhenTheAppLeaves(t *testing.T) {
	f := startSynthetic(t, 3)
	w := watch(t, f.frame.Bus)
	settle(t, w)
	ended := make(chan error, 2)
	go func() {
		_, err := w.WaitChange(context.Background(), w.Counts(), time.Minute)
		ended <- err
	}()
	go func() {
		_, _, err := w.Quiet(context.Background(), time.Minute, time.Minute)
		ended <- err
	}()
	time.Sleep(50 * time.Millisecond) // both are waiting
	left := time.Now()
	f.stop()
	for range 2 {
		select {
		case err := <-ended:
			wantKind(t, err, KindGone)
		case <-time.After(5 * time.Second):
			t.Fatal("a wait on an app that left the bus still runs after 5 s")
		}
	}
	t.Logf("the waits ended %v after the app was killed", time.Since(left).Round(time.Millisecond))
	if !w.Broken() {
		t.Fatal("the watcher of an app that left the bus is not broken")
	}
}
