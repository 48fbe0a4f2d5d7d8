package atspi

import "strings"

// Action names by kind of element. A read shows each element's action
// names as the app names them for acts ("click"), which GetActions does not
// give: it lists the localized names ("Click"), and the names take one
// GetName call per action. The client remembers an element's names once
// learnt (memoEntry), but a driver's first read of a window learns them
// all: on the 1,000-row synthetic window 3,718 elements, 7,436 calls, the
// larger part of what made a first read twice a warm one.
//
// A toolkit names the actions of a widget class in its code and
// translates them with one catalogue, so within one app the elements of
// one role and interfaces whose localized names are the same have the same
// names. A read therefore asks GetName of one element of each such kind
// and gives its names to the others of the kind (in that read and later
// ones), instead of asking every element.
//
// Should two classes of one app ever break that (two names translated to
// the same word), an act by the name a read showed is looked up live
// (DoAction reads the element's names itself) and refused, never sent to
// another action; the refusal forgets the element's names (forgetActions),
// and the kind they were taken from is distrusted: from then on each
// element of it is asked for its own names again, beginning with the
// engine's read of the refused element's actions before it tries once
// more (readActionsAgain).

// actionKind is what the elements sharing action names have in common:
// their app, role and interfaces, and their localized action names.
type actionKind struct {
	bus, role string
	ifaces    ifaceSet
	localized string // the localized names, joined by NUL
}

// kindOf is the action kind of an element with these localized names.
func kindOf(bus, role string, ifaces ifaceSet, localized []string) actionKind {
	return actionKind{bus: bus, role: role, ifaces: ifaces, localized: strings.Join(localized, "\x00")}
}

// maxActionKinds bounds the kinds remembered (a few dozen per app).
const maxActionKinds = 4096

// actionKinds is what the client knows of each kind: its names, or that
// it is distrusted.
type actionKinds struct {
	names      map[actionKind][]string
	distrusted map[actionKind]bool
}

// kindActions returns the names learnt for kind k; ok is false when none
// were, or the kind is distrusted.
func (c *Client) kindActions(k actionKind) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	names, ok := c.kinds.names[k]
	return names, ok
}

// trustsKind reports whether the elements of kind k may take each other's
// names.
func (c *Client) trustsKind(k actionKind) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.kinds.distrusted[k]
}

// learnKind keeps names as kind k's, unless k is distrusted.
func (c *Client) learnKind(k actionKind, names []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kinds.distrusted[k] {
		return
	}
	if c.kinds.names == nil || len(c.kinds.names) >= maxActionKinds {
		c.kinds.names = map[actionKind][]string{}
	}
	c.kinds.names[k] = names
}

// distrustKind forgets kind k's names and keeps its elements from taking
// each other's names again. Called with c.mu held.
func (c *Client) distrustKind(k actionKind) {
	delete(c.kinds.names, k)
	if c.kinds.distrusted == nil || len(c.kinds.distrusted) >= maxActionKinds {
		c.kinds.distrusted = map[actionKind]bool{}
	}
	c.kinds.distrusted[k] = true
}
