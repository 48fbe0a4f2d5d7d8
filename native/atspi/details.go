package atspi

import (
	"context"
	"strconv"
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
	detValue
	detAttrs
	detRole
	detText
	detKinds
)

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
			p.actions = true
			n++
		}
		if which&DetailValues != 0 && !t.node.Secure {
			switch {
			case t.ifaces&ifValue != 0:
				p.value = true
				n++
			case isTextValue(t.node.Role, t.ifaces):
				p.text = true
				n += 2 // attributes, then text
				if t.recheck {
					n++
				}
			}
		}
	}
	if n == 0 {
		return 0, nil
	}
	p := newPipe(ctx, n)
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
		tag := i * detKinds
		if pl.extents {
			p.add(w, tag+detExtents, t.bus, t.path, "org.a11y.atspi.Component", "GetExtents", uint32(0))
		}
		if pl.actions {
			p.add(w, tag+detActions, t.bus, t.path, "org.a11y.atspi.Action", "GetActions")
		}
		if pl.value {
			p.add(w, tag+detValue, t.bus, t.path, "org.freedesktop.DBus.Properties", "GetAll", "org.a11y.atspi.Value")
		}
		if pl.text {
			p.add(w, tag+detAttrs, t.bus, t.path, "org.a11y.atspi.Accessible", "GetAttributes")
			if t.recheck {
				p.add(w, tag+detRole, t.bus, t.path, "org.a11y.atspi.Accessible", "GetRole")
			}
		}
	}
	p.flush()
	// checks counts the security checks still due per text element; its
	// text is asked for when the last one passes.
	checks := make([]int8, len(targets))
	for i := range targets {
		if plans[i].text {
			checks[i] = 1
			if targets[i].recheck {
				checks[i] = 2
			}
		}
	}
	queued := false
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
		i, kind := rep.tag/detKinds, rep.tag%detKinds
		t := &targets[i]
		if rep.err != nil {
			if errConnGone(rep.err) {
				return p.sent, mapErr(rep.err, conns[t.bus], ctx, targetFrame)
			}
			if kind == detAttrs || kind == detRole {
				checks[i] = -1 // unchecked: never read its text
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
			t.node.Actions = decodeActionNames(d)
		case detValue:
			decodeValue(d, t.node)
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
			if checks[i] > 0 {
				checks[i]--
				if checks[i] == 0 {
					w := conns[t.bus]
					p.add(w, i*detKinds+detText, t.bus, t.path, "org.a11y.atspi.Text", "GetText", int32(0), int32(maxValueBytes))
					queued = true
				}
			}
		case detText:
			if t.node.Secure {
				continue
			}
			s := d.str()
			if d.err == nil {
				t.node.Value, _ = cutUTF8(s, maxValueBytes)
				t.node.HasValue = true
			}
		}
	}
	return p.sent, nil
}

// errConnGone reports whether a reply failed because its connection
// closed (rather than the element refusing the call).
func errConnGone(err error) bool {
	return err == errConnClosed
}

// isTextValue reports whether an element's text is its value: it is
// editable, or its role is one whose text is content (not a label).
func isTextValue(role string, ifaces ifaceSet) bool {
	if ifaces&ifText == 0 {
		return false
	}
	return ifaces&ifEditableText != 0 || textValueRoles[role]
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

// decodeValue reads the Value interface's properties (a{sv}).
func decodeValue(d *decoder, n *engine.Node) {
	var cur, lo, hi, step float64
	have := false
	end := d.array(8)
	for d.more(end) {
		d.align(8)
		key := string(d.strBytes())
		vsig := d.sig()
		if vsig != "d" {
			d.skip(vsig)
			continue
		}
		v := d.float64()
		switch key {
		case "CurrentValue":
			cur, have = v, true
		case "MinimumValue":
			lo = v
		case "MaximumValue":
			hi = v
		case "MinimumIncrement":
			step = v
		}
	}
	if d.err != nil || !have {
		return
	}
	n.Value = formatNumber(cur)
	n.HasValue = true
	n.Numeric = &engine.NumericRange{Min: lo, Max: hi, Step: step}
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
