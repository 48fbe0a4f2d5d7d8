package atspi

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a Client.
type Options struct {
	// Getenv looks up the environment (default os.Getenv). The client reads
	// AT_SPI_BUS_ADDRESS (the accessibility bus, if set) and
	// DBUS_SESSION_BUS_ADDRESS (where org.a11y.Bus tells the accessibility
	// bus's address) through it, so a caller can aim it at a private
	// desktop without touching its own environment.
	Getenv func(string) string
	// NoPeerToPeer makes every call go through the bus daemon even when an
	// app offers a private socket. For measurements and tests.
	NoPeerToPeer bool
	// WindowCoordinates makes extents and points relative to their
	// window's top-left instead of the screen's (hittest.go): on Wayland,
	// where no client knows where a window is.
	WindowCoordinates bool
}

// Client talks to the AT-SPI accessibility bus and to the apps on it. It
// connects lazily, reconnects after the bus restarts (the next call after a
// failure dials again), and is safe for concurrent use. Calls to one app
// never wait on another app: each call has its own context, and a stopped
// app only makes its own calls fail (KindNotResponding) when their
// contexts end.
type Client struct {
	opts Options

	mu    sync.Mutex
	bus   *wireConn
	apps  map[string]*appConn // by bus name
	gen   int                 // bumps on every new bus connection
	memo  map[ID]*memoEntry
	kinds actionKinds // action names by kind of element (actionkinds.go)
	dialM sync.Mutex  // one bus dial at a time
	// noShowing marks the apps that report showing on their windows only
	// (showing.go), by bus name.
	noShowing map[string]bool
	// late marks the apps that act on an accessible action some time
	// after the call (toolkit.go), by bus name.
	late map[string]bool
	// kits remembers each app's toolkit name and version (toolkit.go),
	// by bus name.
	kits map[string][2]string
	// liveActions marks the apps whose action lists are live
	// (actionlists.go), by bus name.
	liveActions map[string]bool
	// places maps place ids (places.go) to the objects they stood for in
	// the last read, by bus name and place path.
	places map[string]string
	// blockTables are the tables read by their visible block (tables.go),
	// by bus name and path, so a hit-test names their cells by place.
	blockTables map[string]bool
	// silent are the apps a listing no longer waits for (silent.go).
	silent silentApps
	// counts counts calls to chosen apps for tests (callcount.go).
	counts callCounts

	// Change events (signals.go, watch.go). The watchers have their own
	// lock so that a reader goroutine routing an event never waits on a
	// read holding mu.
	watchM   sync.RWMutex
	watchers map[string][]*Watcher // by app bus name; slices are replaced, not modified
	evM      sync.Mutex            // one event registration change at a time
	evConn   *wireConn             // the bus connection the event kinds are registered on
	evRefs   int                   // watchers relying on that registration
}

// appConn is how the client reaches one app: its private socket when it
// offers one (GTK 3 does, GTK 4 does not), else the bus.
type appConn struct {
	// lock is a one-slot semaphore rather than a mutex so that a caller
	// waiting for another's dial (to an app that may not answer) still
	// gives up when its own context ends.
	lock  chan struct{}
	tried bool
	peer  *wireConn
	gen   int // the bus generation the app's name belongs to
}

func newAppConn(gen int) *appConn { return &appConn{lock: make(chan struct{}, 1), gen: gen} }

func (a *appConn) acquire(ctx context.Context) error {
	select {
	case a.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *appConn) release() { <-a.lock }

// New makes a client. It does not connect until first used.
func New(opts Options) *Client {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	return &Client{opts: opts, apps: map[string]*appConn{}}
}

// Close closes every connection. The client may be used again afterwards
// (it reconnects).
func (c *Client) Close() {
	c.mu.Lock()
	bus, apps := c.bus, c.apps
	c.bus, c.apps = nil, map[string]*appConn{}
	c.mu.Unlock()
	if bus != nil {
		bus.close(errConnClosed)
	}
	for _, a := range apps {
		a.closePeer()
	}
}

// closePeer closes the app's private connection, if any. Its own lock may
// be held by a caller waiting on the app; the connection's close is safe
// to call concurrently, so it is read without the lock.
func (a *appConn) closePeer() {
	select {
	case a.lock <- struct{}{}:
		if a.peer != nil {
			a.peer.close(errConnClosed)
		}
		a.release()
	default:
		// A caller holds it; the connection it ends up with is dropped
		// with the map this appConn belonged to.
	}
}

// busConn returns the bus connection, dialling it (again) if needed. A new
// bus connection forgets every app connection: after a bus restart the
// apps' bus names are new, and old element ids are gone.
func (c *Client) busConn(ctx context.Context) (*wireConn, error) {
	c.mu.Lock()
	b := c.bus
	c.mu.Unlock()
	if b != nil && !b.isClosed() {
		return b, nil
	}
	c.dialM.Lock()
	defer c.dialM.Unlock()
	c.mu.Lock()
	b = c.bus
	c.mu.Unlock()
	if b != nil && !b.isClosed() {
		return b, nil
	}
	addr, err := c.busAddress(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	gen := c.gen + 1 // only changed under dialM
	c.mu.Unlock()
	nb, err := dialWire(ctx, addr, false, c.busSignal(gen))
	if err != nil {
		if ctx.Err() != nil {
			return nil, wrapFailure(KindUnavailable, err, "the accessibility bus did not answer in time")
		}
		return nil, wrapFailure(KindUnavailable, err, "cannot connect to the accessibility bus")
	}
	nb.counts = &c.counts
	c.mu.Lock()
	old := c.apps
	c.bus, c.apps = nb, map[string]*appConn{}
	c.gen = gen
	c.mu.Unlock()
	for _, a := range old {
		a.closePeer()
	}
	return nb, nil
}

// busAddress finds the accessibility bus: AT_SPI_BUS_ADDRESS, else ask
// org.a11y.Bus on the session bus.
func (c *Client) busAddress(ctx context.Context) (string, error) {
	if a := c.opts.Getenv("AT_SPI_BUS_ADDRESS"); a != "" {
		return a, nil
	}
	return c.AnnouncedBusAddress(ctx)
}

// genTag is what ids minted now carry after the bus name.
func (c *Client) genTag() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return tagFor(c.gen)
}

// tagFor is the id tag of bus generation gen: none for the first.
func tagFor(gen int) string {
	if gen <= 1 {
		return ""
	}
	return "@" + strconv.Itoa(gen)
}

// mintID makes the ElementID of an object.
func (c *Client) mintID(tag, bus, path string) ID {
	return ID(bus + tag + path)
}

// parseID checks an ElementID against the current bus connection (it
// connects first if needed) and returns the bus name and path to call.
// An id from before a bus restart is KindGone.
func (c *Client) parseID(ctx context.Context, id ID, t target) (bus, path, tag string, err error) {
	if _, err := c.busConn(ctx); err != nil {
		return "", "", "", err
	}
	full, path, ok := splitID(id)
	if !ok {
		if t == targetFrame {
			return "", "", "", failure(KindGone, "the window's accessibility id is not valid")
		}
		return "", "", "", failure(KindStale, "the element id is not valid")
	}
	bus, gen, _ := strings.Cut(full, "@")
	tag = c.genTag()
	if gen != strings.TrimPrefix(tag, "@") {
		return "", "", "", failure(KindGone, "the accessibility bus restarted since the element was read")
	}
	if strings.Contains(path, placeMark) {
		if path, err = c.resolvePlace(ctx, bus, path, t); err != nil {
			return "", "", "", err
		}
	}
	return bus, path, tag, nil
}

// reach parses an ElementID (parseID) and connects to its app (connFor),
// a failure to connect mapped as for t.
func (c *Client) reach(ctx context.Context, id ID, t target) (conn *wireConn, bus, path, tag string, err error) {
	if bus, path, tag, err = c.parseID(ctx, id, t); err != nil {
		return nil, "", "", "", err
	}
	if conn, err = c.connFor(ctx, bus); err != nil {
		return nil, "", "", "", mapErr(err, nil, ctx, t)
	}
	return conn, bus, path, tag, nil
}

// connFor returns the connection that reaches an app: its private socket
// if it has one, else the bus.
func (c *Client) connFor(ctx context.Context, bus string) (*wireConn, error) {
	b, err := c.busConn(ctx)
	if err != nil {
		return nil, err
	}
	if c.opts.NoPeerToPeer {
		return b, nil
	}
	c.mu.Lock()
	a := c.apps[bus]
	if a == nil {
		a = newAppConn(c.gen)
		c.apps[bus] = a
	}
	c.mu.Unlock()
	if err := a.acquire(ctx); err != nil {
		return nil, mapErr(err, nil, ctx, targetApp)
	}
	defer a.release()
	if a.peer != nil && a.peer.isClosed() {
		// The app's socket closed: it exited, or stopped reading and a
		// write timed out. Try again (a gone app fails on the bus).
		a.peer, a.tried = nil, false
	}
	if a.peer != nil {
		return a.peer, nil
	}
	if a.tried {
		return b, nil
	}
	r, err := b.call(ctx, bus, "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Application", "GetApplicationBusAddress")
	if err != nil {
		var de *dbusError
		if errors.As(err, &de) && (de.Name == "org.freedesktop.DBus.Error.UnknownMethod" ||
			de.Name == "org.freedesktop.DBus.Error.UnknownObject") {
			// The app has no private socket (GTK 4), or the bus name has
			// no root object: Qt 5 serves its windows from a second
			// connection, whose name only the elements carry.
			a.tried = true
			return b, nil
		}
		return nil, mapErr(err, b, ctx, targetApp)
	}
	addr := r.decoder().str()
	if addr == "" || !strings.HasPrefix(addr, "unix:") {
		a.tried = true
		return b, nil
	}
	pctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	p, err := dialWire(pctx, addr, true, c.peerSignal(a.gen, bus))
	if err != nil {
		if ctx.Err() != nil {
			return nil, mapErr(ctx.Err(), b, ctx, targetApp)
		}
		a.tried = true // fall back to the bus for this app
		return b, nil
	}
	p.counts = &c.counts
	a.peer, a.tried = p, true
	return p, nil
}

// maxRemembered bounds the memo of elements.
const maxRemembered = 100000

// memoEntry is what the client remembers about an element between calls:
// its interfaces (so Details knows which calls apply) and its action names
// with the localized names they were read with (a later read that gets the
// same localized names reuses the names instead of asking for each).
type memoEntry struct {
	ifaces    ifaceSet
	inDoc     bool // inside an editable document (documentStates)
	inPage    bool // inside a web page (elem.inPage)
	localized []string
	names     []string
	// kind is the action kind the names belong to (actionkinds.go): a
	// refused act by one of them distrusts it.
	kind *actionKind
}

// remember keeps the interfaces of the elements a read saw.
func (c *Client) remember(tag string, elems []*elem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.memo == nil || len(c.memo)+len(elems) > maxRemembered {
		c.memo = make(map[ID]*memoEntry, len(elems))
	}
	for _, e := range elems {
		id := e.id
		if id == "" {
			id = c.mintID(tag, e.bus, e.path)
		}
		m := c.memo[id]
		if m == nil {
			m = &memoEntry{}
			c.memo[id] = m
		}
		m.ifaces = e.ifaces
		m.inDoc = e.inEditableDoc
		m.inPage = e.inPage
	}
}

// recallInPage reports whether an element was inside a web page when
// last read (elem.inPage).
func (c *Client) recallInPage(id ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memo[id]
	return m != nil && m.inPage
}

// recallInDocument reports whether an element was inside an editable
// document when last read (documentStates).
func (c *Client) recallInDocument(id ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memo[id]
	return m != nil && m.inDoc
}

// recallIfaces returns an element's remembered interfaces.
func (c *Client) recallIfaces(id ID) (ifaceSet, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.memo[id]; m != nil {
		return m.ifaces, true
	}
	return 0, false
}

// recallActions returns remembered action names if they were read with
// the same localized names.
func (c *Client) recallActions(id ID, localized []string) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memo[id]
	if m == nil || m.names == nil || len(m.localized) != len(localized) {
		return nil, false
	}
	for i := range localized {
		if m.localized[i] != localized[i] {
			return nil, false
		}
	}
	return m.names, true
}

// knownActions returns the action names an earlier read learnt for an
// element. A widget's actions do not change while it lives, so a read need
// not ask again; acts look the action up live anyway.
func (c *Client) knownActions(id ID) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memo[id]
	if m == nil || m.names == nil {
		return nil, false
	}
	return m.names, true
}

// ForgetActions drops what the client learnt of an element's actions, so
// the next read asks the app: an act whose read listed none of the
// actions it wants asks again before refusing (the element may have
// gained one since).
func (c *Client) ForgetActions(id ID) { c.forgetActions(id) }

// forgetActions drops an element's remembered action names, so the next
// read asks for them: an element renamed its actions (Chromium's check
// box says "check", then "uncheck"), or took the names of its kind and
// they were not its own (actionkinds.go), so the kind is distrusted.
func (c *Client) forgetActions(id ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.memo[id]; m != nil {
		if m.kind != nil {
			c.distrustKind(*m.kind)
		}
		m.localized, m.names, m.kind = nil, nil, nil
	}
}

// rememberActions keeps an element's action names, and the kind they were
// taken from when they were (nil: its own, or none).
func (c *Client) rememberActions(id ID, localized, names []string, kind *actionKind) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.memo == nil || len(c.memo) >= maxRemembered {
		c.memo = map[ID]*memoEntry{}
	}
	m := c.memo[id]
	if m == nil {
		m = &memoEntry{}
		c.memo[id] = m
	}
	m.localized, m.names, m.kind = localized, names, nil
	if kind != nil {
		k := *kind
		m.kind = &k
	}
}
