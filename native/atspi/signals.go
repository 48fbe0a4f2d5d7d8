package atspi

import (
	"bytes"
	"strings"
	"time"
)

// This file routes the AT-SPI change events that arrive on the client's
// connections to the watchers of the app that sent them (watch.go).
//
// Apps send an event only when some client asked for its kind: the
// registry (org.a11y.atspi.Registry) tells every app which kinds are
// wanted, and the bus daemon forwards a signal only to connections whose
// match rules ask for it. GTK 3 (atk-bridge 2.46) sends its events on its
// bus connection only, never on the private sockets clients dial (measured
// in TestEventsArriveOnTheBus, and so in atk-adaptor/event.c); GTK 4 has no
// private socket. Signals that do arrive on a private socket are routed
// too: the socket belongs to one app, so it names the sender.

// signalFunc receives a signal message on a connection's reader
// goroutine. It must not block: the same goroutine delivers replies.
type signalFunc func(conn *wireConn, h *header, body []byte, big bool)

// eventObjectIface is the interface of AT-SPI's object events.
const eventObjectIface = "org.a11y.atspi.Event.Object"

// watchedEvents are the event kinds a watcher asks apps to send, in the
// registry's "class:major" spelling. Caret moves, text selection and text
// attributes are left out: nothing a read returns shows them, and a
// blinking or moving caret would keep a window from ever looking quiet.
var watchedEvents = []string{
	"object:children-changed",
	"object:property-change",
	"object:state-changed",
	"object:text-changed",
	"object:bounds-changed",
	"object:selection-changed",
	"object:active-descendant-changed",
	"object:visible-data-changed",
}

// ChangeKind is what an event says changed.
type ChangeKind string

const (
	// ChangeStructure: elements were added or removed (children-changed),
	// an element changed its role or parent, or went defunct. A read of
	// the window would find other ids, parents or child counts.
	ChangeStructure ChangeKind = "structure"
	// ChangeContent: an element's own name, description, value, text,
	// states or extents changed; the same elements are there.
	ChangeContent ChangeKind = "content"
	// ChangeSubtree: something among an element's descendants changed and
	// they may not report it themselves: a selection, an active
	// descendant, the rows a view shows.
	ChangeSubtree ChangeKind = "subtree"
	// ChangeExtents: an element moved or changed size (bounds-changed),
	// and nothing else is said of it.
	ChangeExtents ChangeKind = "extents"
)

// classify maps an object event (the signal's member, its detail argument
// such as "add" or "accessible-name", and its first number, which for a
// state change says whether the state was set) to a kind. ok is false for
// events that change nothing a read returns.
func classify(member, detail string, detail1 int32) (kind ChangeKind, ok bool) {
	switch member {
	case "ChildrenChanged":
		return ChangeStructure, true
	case "PropertyChange":
		switch detail {
		case "accessible-role", "accessible-parent":
			return ChangeStructure, true
		}
		return ChangeContent, true
	case "StateChanged":
		// GTK 3 reports every new accessible as "not defunct"; a
		// defunct one is gone.
		if detail == "defunct" && detail1 != 0 {
			return ChangeStructure, true
		}
		return ChangeContent, true
	case "TextCaretMoved", "TextSelectionChanged", "TextAttributesChanged", "AttributesChanged":
		return "", false
	case "SelectionChanged", "ActiveDescendantChanged", "VisibleDataChanged":
		return ChangeSubtree, true
	case "BoundsChanged":
		return ChangeExtents, true
	}
	return ChangeContent, true
}

// childEvent is what a children-changed event says of its child: added
// or removed, the child's index among its parent's children (-1 when the
// app does not say), and its object path (empty when the event carries no
// reference to it, or one to another app).
type childEvent struct {
	op    string // "add" or "remove"; empty for other events
	index int32
	path  string
}

// childOf reads the child a children-changed event names: its detail is
// "add" or "remove", its first number the index, and its variant (the
// fourth argument) the child's reference (so). A child of another app (a
// browser's frame in another process) is not followed.
func childOf(app string, h *header, body []byte, big bool) childEvent {
	if h.member != "ChildrenChanged" || !strings.HasPrefix(h.signature, "siiv") {
		return childEvent{}
	}
	d := decoder{b: body, big: big}
	detail := d.strBytes()
	index := d.int32()
	d.int32()
	if d.sig() != "(so)" {
		return childEvent{}
	}
	bus, path := d.ref()
	if d.err != nil {
		return childEvent{}
	}
	if i := bytes.IndexAny(detail, ":/"); i >= 0 {
		detail = detail[:i]
	}
	ev := childEvent{op: string(detail), index: index}
	if ev.op != "add" && ev.op != "remove" {
		return childEvent{}
	}
	if bus == app && path != nullPath {
		ev.path = path
	}
	return ev
}

// eventDetail reads an event's first two arguments: its detail string
// ("add", "accessible-name", "focused") and first number. AT-SPI events
// carry (siiva{sv}); the detail may come with a suffix after "/" (atk-bridge
// turns "add:system" into "add/system"), which is cut.
func eventDetail(h *header, body []byte, big bool) (detail string, detail1 int32) {
	if !strings.HasPrefix(h.signature, "si") {
		return "", 0
	}
	d := decoder{b: body, big: big}
	s := d.strBytes()
	detail1 = d.int32()
	if d.err != nil {
		return "", 0
	}
	if i := bytes.IndexAny(s, ":/"); i >= 0 {
		s = s[:i]
	}
	return string(s), detail1
}

// busSignal returns the signal handler of a bus connection of generation
// gen: the sender's unique name is the app.
func (c *Client) busSignal(gen int) signalFunc {
	return func(conn *wireConn, h *header, body []byte, big bool) {
		if h.sender == busDaemon {
			c.ownerChanged(gen, h, body, big)
			return
		}
		c.dispatch(gen, h.sender, h, body, big)
	}
}

// ownerChanged hears the bus daemon's NameOwnerChanged (name, old owner,
// new owner): a watched app's unique name with no new owner has left the
// bus, and its watchers' waits end at once instead of at their bound.
func (c *Client) ownerChanged(gen int, h *header, body []byte, big bool) {
	if h.iface != busDaemon || h.member != "NameOwnerChanged" || h.signature != "sss" {
		return
	}
	d := decoder{b: body, big: big}
	name := d.str()
	_ = d.str()
	owner := d.str()
	if d.err != nil || owner != "" {
		return
	}
	c.watchM.RLock()
	ws := c.watchers[name]
	c.watchM.RUnlock()
	for _, w := range ws {
		if w.gen == gen {
			w.appLeft()
		}
	}
}

// peerSignal returns the signal handler of an app's private socket: there
// is no sender on a peer connection, the socket is the app's.
func (c *Client) peerSignal(gen int, app string) signalFunc {
	return func(conn *wireConn, h *header, body []byte, big bool) {
		c.dispatch(gen, app, h, body, big)
	}
}

// dispatch hands one event to the app's watchers of the same bus
// generation (after a bus restart an app's unique name may be another
// app's). It runs on a reader goroutine and only takes short locks.
func (c *Client) dispatch(gen int, app string, h *header, body []byte, big bool) {
	if h.iface != eventObjectIface || app == "" {
		return
	}
	c.watchM.RLock()
	ws := c.watchers[app] // replaced, never modified in place
	c.watchM.RUnlock()
	if len(ws) == 0 {
		return
	}
	detail, detail1 := eventDetail(h, body, big)
	kind, ok := classify(h.member, detail, detail1)
	if !ok {
		return
	}
	child := childOf(app, h, body, big)
	now := time.Now()
	for _, w := range ws {
		if w.gen == gen {
			w.record(kind, h.path, child, now)
		}
	}
}

// addWatcher subscribes a watcher to its app's events.
func (c *Client) addWatcher(w *Watcher) {
	c.watchM.Lock()
	defer c.watchM.Unlock()
	if c.watchers == nil {
		c.watchers = map[string][]*Watcher{}
	}
	old := c.watchers[w.app]
	ws := make([]*Watcher, 0, len(old)+1)
	ws = append(ws, old...)
	c.watchers[w.app] = append(ws, w)
}

// removeWatcher unsubscribes a watcher.
func (c *Client) removeWatcher(w *Watcher) {
	c.watchM.Lock()
	defer c.watchM.Unlock()
	old := c.watchers[w.app]
	ws := make([]*Watcher, 0, len(old))
	for _, o := range old {
		if o != w {
			ws = append(ws, o)
		}
	}
	if len(ws) == 0 {
		delete(c.watchers, w.app)
		return
	}
	c.watchers[w.app] = ws
}
