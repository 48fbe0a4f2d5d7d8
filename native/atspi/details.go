package atspi

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
)

// maxValueBytes bounds a text value read with a tree (the engine cuts row
// values much shorter; ReadText reads whole texts).
const maxValueBytes = 4096

// detailTarget is one node whose details are read, with what the reader
// knows about it.
type detailTarget struct {
	node   *engine.Node
	bus    string
	path   string
	ifaces ifaceSet
	states stateSet
	// recheck makes the value read re-check the role live before reading
	// text (for nodes from an earlier read, whose role may have changed).
	recheck bool
}

// Kinds of detail calls.
const (
	detExtents = iota
	detActions
	detValue // the Value interface's current value
	detValueMin
	detValueMax
	detValueStep
	detAttrs
	detRole
	detCount // the text's length, so GetText asks for no more than there is
	detText
	detName
	detKinds
)

// maxActions bounds the action names read per element.
const maxActions = 64

// detTag packs a target's position, a call kind and an action index into
// a reply tag.
func detTag(i, kind, j int) int { return (i*detKinds+kind)*maxActions + j }

func detUntag(tag int) (i, kind, j int) {
	j = tag % maxActions
	tag /= maxActions
	return tag / detKinds, tag % detKinds, j
}

// details reads the selected details of the targets with every call in
// flight at once, and fills their nodes. It returns the number of calls.
// An element that vanished or refuses a call keeps that detail empty; the
// context ending fails the whole read.
//
// Text values are read in two steps per element: first its attributes
// (and, for a re-check, its role), then its text only if neither marks it
// as secure; a secure field's text is never requested.
func (c *Client) details(ctx context.Context, targets []detailTarget, which Details) (int, error) {
	type plan struct{ extents, actions, value, text bool }
	plans := make([]plan, len(targets))
	n := 0
	for i := range targets {
		t := &targets[i]
		p := &plans[i]
		if which&DetailExtents != 0 && t.ifaces&ifComponent != 0 &&
			(t.states.has(stateShowing) || which&DetailHiddenExtents != 0) {
			p.extents = true
			n++
		}
		if which&DetailActions != 0 && t.ifaces&ifAction != 0 {
			if names, ok := c.knownActions(t.node.ID); ok {
				t.node.Actions = append([]string(nil), names...)
			} else {
				p.actions = true
				n++
			}
		}
		if which&DetailValues != 0 && !t.node.Secure {
			switch {
			case t.ifaces&ifValue != 0:
				p.value = true
				n += valueCalls
			case isTextValue(t.node.Role, t.node.Name, t.ifaces, t.states):
				p.text = true
				n += 3 // attributes and length, then text
				if t.recheck {
					n++
				}
			}
		}
	}
	if n == 0 {
		return 0, nil
	}
	p := newPipe(ctx)
	defer p.close()
	conns := map[string]*wireConn{}
	connOf := func(bus string) (*wireConn, error) {
		if w := conns[bus]; w != nil {
			return w, nil
		}
		w, err := c.connFor(ctx, bus)
		if err != nil {
			return nil, err
		}
		conns[bus] = w
		return w, nil
	}
	for i := range targets {
		t := &targets[i]
		pl := plans[i]
		if !pl.extents && !pl.actions && !pl.value && !pl.text {
			continue
		}
		w, err := connOf(t.bus)
		if err != nil {
			return p.sent, mapErr(err, nil, ctx, targetElement)
		}
		if pl.extents {
			p.add(w, detTag(i, detExtents, 0), t.bus, t.path, "org.a11y.atspi.Component", "GetExtents", uint32(0))
		}
		if pl.actions {
			p.add(w, detTag(i, detActions, 0), t.bus, t.path, "org.a11y.atspi.Action", "GetActions")
		}
		if pl.value {
			p.add(w, detTag(i, detValue, 0), t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "CurrentValue")
			p.add(w, detTag(i, detValueMin, 0), t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "MinimumValue")
			p.add(w, detTag(i, detValueMax, 0), t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "MaximumValue")
			p.add(w, detTag(i, detValueStep, 0), t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "MinimumIncrement")
		}
		if pl.text {
			p.add(w, detTag(i, detAttrs, 0), t.bus, t.path, "org.a11y.atspi.Accessible", "GetAttributes")
			p.add(w, detTag(i, detCount, 0), t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Text", "CharacterCount")
			if t.recheck {
				p.add(w, detTag(i, detRole, 0), t.bus, t.path, "org.a11y.atspi.Accessible", "GetRole")
			}
		}
	}
	p.flush()
	// checks counts the security checks still due per text element; its
	// text is asked for when the last one passes.
	// The text's length is waited for the same way: Gecko answers GetText
	// with nothing when the end asked for lies past the text's end, so the
	// end is the length (or the bound, when it is longer).
	queued := false
	checks := make([]int8, len(targets))
	lengths := make([]int32, len(targets))
	for i := range targets {
		if plans[i].text {
			checks[i] = 2
			if targets[i].recheck {
				checks[i] = 3
			}
			lengths[i] = maxValueBytes
		}
	}
	// passed counts one check of element i done; after the last, its text
	// is asked for.
	passed := func(i int) {
		if checks[i] <= 0 {
			return
		}
		checks[i]--
		if checks[i] > 0 {
			return
		}
		t := &targets[i]
		end := min(lengths[i], maxValueBytes)
		if end <= 0 {
			t.node.Value, t.node.HasValue = "", true
			return
		}
		p.add(conns[t.bus], detTag(i, detText, 0), t.bus, t.path, "org.a11y.atspi.Text", "GetText", int32(0), end)
		queued = true
	}
	type actionRead struct {
		localized, names []string
		left             int
	}
	pending := map[int]*actionRead{}
	values := map[int]*valueRead{}
	for {
		rep, ok := p.ready()
		if !ok {
			if queued {
				p.flush()
				queued = false
			}
			var err error
			rep, ok, err = p.next()
			if err != nil {
				return p.sent, mapErr(err, nil, ctx, targetFrame)
			}
			if !ok {
				break
			}
		}
		i, kind, j := detUntag(rep.tag)
		t := &targets[i]
		if rep.err != nil {
			if errConnGone(rep.err) {
				return p.sent, mapErr(rep.err, conns[t.bus], ctx, targetFrame)
			}
			if kind == detAttrs || kind == detRole {
				checks[i] = -1 // unchecked: never read its text
			}
			if kind == detCount {
				passed(i) // length unknown: ask up to the bound
			}
			if kind == detName {
				delete(pending, i) // names incomplete: report none
			}
			continue
		}
		d := rep.decoder()
		switch kind {
		case detExtents:
			d.align(8)
			x, y, w, h := d.int32(), d.int32(), d.int32(), d.int32()
			if d.err == nil {
				t.node.Frame = engine.Rect{X: int(x), Y: int(y), W: int(w), H: int(h)}
			}
		case detActions:
			// GetActions gives localized names; the names a caller acts
			// by ("click") come from GetName, one call per action, unless
			// an earlier read already learnt them for these localized
			// names.
			localized := decodeActionNames(d)
			if len(localized) > maxActions {
				localized = localized[:maxActions]
			}
			if names, ok := c.recallActions(t.node.ID, localized); ok {
				t.node.Actions = append([]string(nil), names...)
				continue
			}
			if len(localized) == 0 {
				continue
			}
			pending[i] = &actionRead{localized: localized, names: make([]string, len(localized)), left: len(localized)}
			for k := range localized {
				p.add(conns[t.bus], detTag(i, detName, k), t.bus, t.path, "org.a11y.atspi.Action", "GetName", int32(k))
			}
			queued = true
		case detName:
			a := pending[i]
			if a == nil {
				continue
			}
			a.names[j] = d.str()
			a.left--
			if a.left == 0 && d.err == nil {
				t.node.Actions = a.names
				c.rememberActions(t.node.ID, a.localized, append([]string(nil), a.names...))
				delete(pending, i)
			}
		case detValue, detValueMin, detValueMax, detValueStep:
			v := values[i]
			if v == nil {
				v = &valueRead{}
				values[i] = v
			}
			v.set(kind, d)
		case detAttrs, detRole:
			secure := false
			if kind == detAttrs {
				secure = secureAttrs(d)
			} else {
				role := RoleName(d.uint32())
				t.node.Role = role
				secure = secureRole(role) || d.err != nil
			}
			if secure {
				t.node.Secure = true
				t.node.Value, t.node.HasValue = "", false
				checks[i] = -1
				continue
			}
			passed(i)
		case detCount:
			if d.sig() == "i" {
				if n := d.int32(); d.err == nil && n >= 0 {
					lengths[i] = n
				}
			}
			passed(i)
		case detText:
			if t.node.Secure {
				continue
			}
			s := d.str()
			if d.err == nil {
				t.node.Value, _ = cutUTF8(dropEmbeds(s), maxValueBytes)
				t.node.HasValue = true
			}
		}
	}
	for i, v := range values {
		v.store(targets[i].node)
	}
	return p.sent, nil
}

// errConnGone reports whether a reply failed because its connection
// closed (rather than the element refusing the call).
func errConnGone(err error) bool {
	return err == errConnClosed
}

// isTextValue reports whether an element's text is its value: it is
// editable, or its role is one whose text is content (not a label), or it
// is a block of a page with no name of its own, whose text is what it
// shows (see unnamedTextRoles).
func isTextValue(role, name string, ifaces ifaceSet, states stateSet) bool {
	if ifaces&ifText == 0 {
		return false
	}
	return editableText(ifaces, states) || textValueRoles[role] || (name == "" && unnamedTextRoles[role])
}

// decodeActionNames reads GetActions' a(sss) (name, localized name, key
// binding) and keeps the names.
func decodeActionNames(d *decoder) []string {
	end := d.array(8)
	var names []string
	for d.more(end) {
		d.align(8)
		name := d.str()
		d.strBytes()
		d.strBytes()
		names = append(names, name)
	}
	if d.err != nil {
		return nil
	}
	return names
}

// valueCalls is how many calls read an element's Value properties: one
// Properties.Get each for the current value, minimum, maximum and step
// (appcalls.go says why never GetAll).
const valueCalls = 4

// valueRead gathers one element's Value properties as their replies come.
type valueRead struct {
	cur, lo, hi, step float64
	have              bool // the current value was read
}

// set stores one property's reply (a variant holding a double); a reply
// of another shape leaves it unset.
func (v *valueRead) set(kind int, d *decoder) {
	if d.sig() != "d" {
		return
	}
	x := d.float64()
	if d.err != nil {
		return
	}
	switch kind {
	case detValue:
		v.cur, v.have = x, true
	case detValueMin:
		v.lo = x
	case detValueMax:
		v.hi = x
	case detValueStep:
		v.step = x
	}
}

// store puts what was read into the node: nothing without a current value.
func (v *valueRead) store(n *engine.Node) {
	if !v.have {
		return
	}
	n.Value = formatNumber(v.cur)
	n.HasValue = true
	n.Numeric = &engine.NumericRange{Min: v.lo, Max: v.hi, Step: v.step}
}

// formatNumber writes a value the shortest way that reads back the same.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) (string, bool) {
	if n <= 0 || len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// Details reads details of nodes from an earlier read, in place: the
// engine reads a whole window's structure (DetailsNone) and then the
// details of the rows it returns. The nodes' ids, roles and states are
// taken as read; the interfaces come from what the client remembers of the
// read (or are asked for). Text values are read only after a live check of
// the element's role and attributes.
func (c *Client) Details(ctx context.Context, nodes []*engine.Node, which Details) error {
	targets := make([]detailTarget, 0, len(nodes))
	var unknown []int
	for _, n := range nodes {
		bus, path, _, err := c.parseID(ctx, n.ID, targetElement)
		if err != nil {
			return err
		}
		t := detailTarget{node: n, bus: bus, path: path, recheck: true}
		if n.HasState("showing") {
			t.states |= 1 << stateShowing
		}
		if s, ok := c.recallIfaces(n.ID); ok {
			t.ifaces = s
		} else {
			unknown = append(unknown, len(targets))
		}
		targets = append(targets, t)
	}
	if len(unknown) > 0 {
		p := newPipe(ctx)
		defer p.close()
		for _, i := range unknown {
			t := &targets[i]
			w, err := c.connFor(ctx, t.bus)
			if err != nil {
				return mapErr(err, nil, ctx, targetElement)
			}
			p.add(w, i, t.bus, t.path, "org.a11y.atspi.Accessible", "GetInterfaces")
		}
		p.flush()
		for {
			r, ok, err := p.next()
			if err != nil {
				return mapErr(err, nil, ctx, targetElement)
			}
			if !ok {
				break
			}
			if r.err != nil {
				continue // gone: no details
			}
			d := r.decoder()
			end := d.array(4)
			for d.more(end) {
				targets[r.tag].ifaces |= ifaceBits[string(d.strBytes())]
			}
		}
	}
	_, err := c.details(ctx, targets, which)
	return err
}

// embedChar is U+FFFC, OBJECT REPLACEMENT CHARACTER: a hypertext (a web
// page's blocks, in both browsers) holds one in its text where each child
// element sits. The children are rows of their own, so the marks are
// dropped from the text: a document's value would otherwise read as a
// string of them.
const embedChar = "\uFFFC"

// dropEmbeds removes the child marks from a text.
func dropEmbeds(s string) string {
	if !strings.Contains(s, embedChar) {
		return s
	}
	return strings.ReplaceAll(s, embedChar, "")
}
