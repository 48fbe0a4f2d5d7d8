package atspi

import (
	"context"
	"sync"
	"time"
)

// A Watcher counts one app's AT-SPI change events, so that a caller knows
// that a window changed, and whether its structure did, without reading
// it: after an act, Quiet waits until the app has been quiet for a while
// instead of re-reading the window every few milliseconds.
//
// Events tell that something changed, not what a read would return: a
// settled app still needs one read for its new state. An app may also
// change without an event (a toolkit that does not report some change);
// events are a fast path, not a proof.
//
// A watcher has no goroutine of its own: the connection's reader records
// each event (a few counters and a ring of recent sources under a mutex)
// and Quiet sleeps on a timer in its caller's goroutine. It is safe for
// concurrent use.
type Watcher struct {
	c    *Client
	app  string
	gen  int
	tag  string
	bus  *wireConn
	rule string // the match rule added for the app
	// leftRule is the match rule for the bus daemon's news that the app's
	// name has no owner any more: the app quit or lost its connection.
	leftRule string

	closeOnce sync.Once
	done      chan struct{} // closed by Close
	leftOnce  sync.Once
	left      chan struct{} // closed when the app left the bus

	mu     sync.Mutex
	counts Counts
	last   time.Time
	recent [recentChanges]recentChange // ring, indexed by sequence number
	wake   chan struct{}               // closed at the next event, made by a waiter
}

// Counts are a watcher's event counters since it started. Take them before
// an act and compare or pass them to Since afterwards.
type Counts struct {
	Structure uint64 // children added or removed, roles or parents changed
	Content   uint64 // names, descriptions, values, text, states, extents
	Subtree   uint64 // selections, active descendants, visible rows
}

// Total is the number of events counted.
func (c Counts) Total() uint64 { return c.Structure + c.Content + c.Subtree }

// Change is one recorded event.
type Change struct {
	Kind ChangeKind
	// Source is the element the event is about (an id as reads mint
	// them; it may name an element no read has returned yet, or one
	// already gone).
	Source ID
	At     time.Time
	// Op, Child and Index, on a children-changed event that names its
	// child: "add" or "remove", the child, and its index among Source's
	// children (-1 when the app did not say). Op is empty otherwise.
	Op    string
	Child ID
	Index int
}

// recentChanges is how many changes a watcher keeps for Since.
const recentChanges = 512

// recentChange is one slot of the ring.
type recentChange struct {
	kind  ChangeKind
	path  string
	child childEvent
	at    time.Time
}

// maxBusName bounds a bus name (the D-Bus limit).
const maxBusName = 255

// validBusName reports whether s can be a D-Bus bus name; the name is put
// in a match rule, so nothing else may pass.
func validBusName(s string) bool {
	if s == "" || len(s) > maxBusName {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9',
			b == '_', b == '-', b == '.', b == ':':
		default:
			return false
		}
	}
	return true
}

// watchBound bounds the clean-up writes of Close, which has no context.
const watchBound = time.Second

// Watch starts counting the change events of one app, named by its unique
// bus name (App.Bus, the bus part of its element ids). It asks the
// registry that apps send the event kinds it watches (once per bus
// connection, however many watchers), asks the bus daemon to forward this
// app's events, and makes one call to the app that, answered, means the
// app has learnt that events are wanted: a change the caller causes after
// Watch returns is reported.
//
// A bus without the AT-SPI registry is KindUnavailable; a name that is
// not on the bus is KindGone; a name on the bus that is not an
// accessible application is KindUnsupported.
func (c *Client) Watch(ctx context.Context, app string) (*Watcher, error) {
	if !validBusName(app) {
		return nil, failure(KindInternal, "the app's bus name is not valid")
	}
	bus, err := c.busConn(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	if err := c.holdEvents(ctx, bus); err != nil {
		return nil, err
	}
	w := &Watcher{
		c: c, app: app, gen: gen, tag: tagFor(gen), bus: bus, done: make(chan struct{}), left: make(chan struct{}),
		rule:     "type='signal',interface='" + eventObjectIface + "',sender='" + app + "'",
		leftRule: "type='signal',sender='" + busDaemon + "',interface='" + busDaemon + "',member='NameOwnerChanged',arg0='" + app + "'",
	}
	// Subscribed before the match rule is added: no forwarded event can
	// come before the watcher is there to count it.
	c.addWatcher(w)
	if err := w.start(ctx); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// start adds the watcher's match rules and checks, through the bus (so that
// the call reaches the app after the registry's news of the registration),
// that the app is an accessible application. The app answering after the
// rules were added means its leaving the bus later is heard.
func (w *Watcher) start(ctx context.Context) error {
	p := newPipe(ctx)
	defer p.close()
	p.add(w.bus, call{kind: kindMatch}, busDaemon, "/org/freedesktop/DBus", busDaemon, "AddMatch", w.rule)
	p.add(w.bus, call{kind: kindMatch}, busDaemon, "/org/freedesktop/DBus", busDaemon, "AddMatch", w.leftRule)
	p.add(w.bus, call{kind: kindRole}, w.app, rootPath, "org.a11y.atspi.Accessible", "GetRole")
	p.flush()
	for r, err := range p.answers() {
		if err != nil {
			return mapErr(err, w.bus, ctx, targetApp)
		}
		if r.kind == kindMatch {
			if r.err != nil {
				return wrapFailure(KindUnavailable, r.err, "the accessibility bus refused to forward the app's events")
			}
			continue
		}
		if r.err != nil {
			return mapErr(r.err, w.bus, ctx, targetApp)
		}
		d := r.decoder()
		if role := RoleName(d.uint32()); d.err != nil || role != "application" {
			return failure(KindUnsupported, "the bus name is not an accessible application")
		}
	}
	return nil
}

// holdEvents makes sure the watched event kinds are registered on this bus
// connection and counts one more watcher relying on them.
func (c *Client) holdEvents(ctx context.Context, bus *wireConn) error {
	c.evM.Lock()
	defer c.evM.Unlock()
	if c.evConn == bus && c.evRefs > 0 {
		c.evRefs++
		return nil
	}
	p := newPipe(ctx)
	defer p.close()
	for i, ev := range watchedEvents {
		p.add(bus, call{target: i, kind: kindRegister}, registryName, "/org/a11y/atspi/registry", "org.a11y.atspi.Registry", "RegisterEvent", ev, []string{})
	}
	p.flush()
	for r, err := range p.answers() {
		if err != nil {
			c.dropEvents(bus)
			return c.busErr(err, bus, ctx)
		}
		if r.err != nil {
			c.dropEvents(bus)
			return wrapFailure(KindUnavailable, r.err, "the accessibility registry does not take event listeners")
		}
	}
	c.evConn, c.evRefs = bus, 1
	return nil
}

// releaseEvents counts one watcher less; the last one withdraws the
// registration, so apps stop sending events nobody counts.
func (c *Client) releaseEvents(bus *wireConn) {
	c.evM.Lock()
	defer c.evM.Unlock()
	if c.evConn != bus || c.evRefs == 0 {
		return
	}
	c.evRefs--
	if c.evRefs == 0 {
		c.dropEvents(bus)
		c.evConn = nil
	}
}

// dropEvents withdraws the watched kinds from the registry without waiting
// for its answers (a closed connection has withdrawn them already: the
// registry forgets a listener that leaves the bus).
func (c *Client) dropEvents(bus *wireConn) {
	if bus.isClosed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), watchBound)
	defer cancel()
	for _, ev := range watchedEvents {
		if bus.send(ctx, registryName, "/org/a11y/atspi/registry", "org.a11y.atspi.Registry", "DeregisterEvent", ev) != nil {
			return
		}
	}
}

// App is the bus name of the watched app.
func (w *Watcher) App() string { return w.app }

// record counts one event; called on a reader goroutine.
func (w *Watcher) record(kind ChangeKind, path string, child childEvent, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	seq := w.counts.Total()
	w.recent[seq%recentChanges] = recentChange{kind: kind, path: path, child: child, at: at}
	switch kind {
	case ChangeStructure:
		w.counts.Structure++
	case ChangeSubtree:
		w.counts.Subtree++
	default:
		w.counts.Content++
	}
	w.last = at
	if w.wake != nil {
		close(w.wake)
		w.wake = nil
	}
}

// Counts returns the events counted so far.
func (w *Watcher) Counts() Counts {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counts
}

// LastChange is when the newest event arrived (zero before the first).
func (w *Watcher) LastChange() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// Since returns the changes counted after mark (a Counts taken earlier), in
// arrival order. complete is false when more changes came than the
// watcher keeps (the oldest are left out).
func (w *Watcher) Since(mark Counts) (changes []Change, complete bool) {
	return w.SinceSeq(mark.Total())
}

// SinceSeq is Since with the mark as a number of events (Counts.Total).
func (w *Watcher) SinceSeq(from uint64) (changes []Change, complete bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	to := w.counts.Total()
	complete = true
	if to > recentChanges && from < to-recentChanges {
		from, complete = to-recentChanges, false
	}
	if from >= to {
		return nil, complete
	}
	changes = make([]Change, 0, to-from)
	for s := from; s < to; s++ {
		r := w.recent[s%recentChanges]
		c := Change{Kind: r.kind, Source: w.c.mintID(w.tag, w.app, r.path), At: r.at}
		if r.child.op != "" && r.child.path != "" {
			c.Op, c.Child, c.Index = r.child.op, w.c.mintID(w.tag, w.app, r.child.path), int(r.child.index)
		}
		changes = append(changes, c)
	}
	return changes, complete
}

// Quiet waits until the app has sent no event for the quiet period, or
// until maxWait has passed since the call. The quiet period starts at the call
// or at the newest event, whichever is later, so an event that came just
// before the call still counts. settled is false when maxWait ran out first.
// lastChange is when the newest event arrived (zero if none ever did);
// compare it with the time of the act.
//
// An error means the watcher cannot tell: it was closed
// (KindInternal), its bus connection dropped (KindGone: the bus restarted,
// ids are stale), or ctx ended (KindNotResponding, as a cancelled
// settle).
func (w *Watcher) Quiet(ctx context.Context, quiet, maxWait time.Duration) (settled bool, lastChange time.Time, err error) {
	start := time.Now()
	end := start.Add(maxWait)
	timer := time.NewTimer(quiet)
	defer timer.Stop()
	for {
		last := w.LastChange()
		from := start
		if last.After(from) {
			from = last
		}
		now := time.Now()
		if now.Sub(from) >= quiet {
			return true, last, nil
		}
		if !now.Before(end) {
			return false, last, nil
		}
		wake := from.Add(quiet)
		if wake.After(end) {
			wake = end
		}
		timer.Reset(wake.Sub(now))
		select {
		case <-timer.C:
		case <-ctx.Done():
			return false, last, wrapFailure(KindNotResponding, ctx.Err(), "the call was cancelled while waiting for the app to settle")
		case <-w.done:
			return false, last, errWatcherClosed()
		case <-w.left:
			return false, last, errAppLeft()
		case <-w.bus.done:
			return false, last, mapErr(errConnClosed, w.bus, nil, targetApp)
		}
	}
}

// WaitChange waits until the watcher has counted an event after mark (a
// Counts taken earlier), or until maxWait has passed. Some toolkits act
// late: GTK 4 runs a button's accessible click as a keyboard activation,
// which shows the button pressed for 250 ms before it clicks, so a quiet
// period started at the act ends before anything happened. Waiting for the
// first event, then for Quiet, covers that; an act that changes nothing
// then costs maxWait. Errors are Quiet's.
func (w *Watcher) WaitChange(ctx context.Context, mark Counts, maxWait time.Duration) (changed bool, err error) {
	timer := time.NewTimer(maxWait)
	defer timer.Stop()
	for {
		w.mu.Lock()
		if w.counts.Total() > mark.Total() {
			w.mu.Unlock()
			return true, nil
		}
		if w.wake == nil {
			w.wake = make(chan struct{})
		}
		wake := w.wake
		w.mu.Unlock()
		select {
		case <-wake:
		case <-timer.C:
			return false, nil
		case <-ctx.Done():
			return false, wrapFailure(KindNotResponding, ctx.Err(), "the call was cancelled while waiting for the app to change")
		case <-w.done:
			return false, errWatcherClosed()
		case <-w.left:
			return false, errAppLeft()
		case <-w.bus.done:
			return false, mapErr(errConnClosed, w.bus, nil, targetApp)
		}
	}
}

// errWatcherClosed is the error of a wait on a closed watcher.
func errWatcherClosed() error {
	return failure(KindInternal, "the change watcher is closed")
}

// errAppLeft is the error of a wait on an app that left the bus: it quit,
// or lost its display (a compositor that died takes its apps with it).
func errAppLeft() error {
	return failure(KindGone, "the app left the accessibility bus")
}

// appLeft wakes the watcher's waits for good: its app left the bus, so no
// event will come. Called on a reader goroutine.
func (w *Watcher) appLeft() {
	w.leftOnce.Do(func() { close(w.left) })
}

// Broken reports whether the watcher can no longer count events: it was
// closed, its app left the bus, or its bus connection dropped (watch
// again after the client reconnects).
func (w *Watcher) Broken() bool {
	select {
	case <-w.done:
		return true
	case <-w.left:
		return true
	case <-w.bus.done:
		return true
	default:
		return false
	}
}

// Close stops the watcher: it leaves the app's events, removes its match
// rule and, if it was the last watcher, withdraws the event registration.
// The clean-up calls are written without waiting for answers. Close may be
// called more than once.
func (w *Watcher) Close() {
	w.closeOnce.Do(func() {
		close(w.done)
		w.c.removeWatcher(w)
		if !w.bus.isClosed() {
			ctx, cancel := context.WithTimeout(context.Background(), watchBound)
			_ = w.bus.send(ctx, busDaemon, "/org/freedesktop/DBus", busDaemon, "RemoveMatch", w.rule)
			_ = w.bus.send(ctx, busDaemon, "/org/freedesktop/DBus", busDaemon, "RemoveMatch", w.leftRule)
			cancel()
		}
		w.c.releaseEvents(w.bus)
	})
}
