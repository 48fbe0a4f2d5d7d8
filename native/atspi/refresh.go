package atspi

import (
	"context"
)

// Refresh reads again what a structure read holds of each node — role,
// states, name, description, child count — in one pipelined round (five
// calls a node), in place. Details (value, actions, frame) are left as
// they were: the caller reads them again if it needs them. An element
// that went away is an error (KindStale), so the caller reads the whole
// window instead of keeping a node that is gone. Secure is never cleared:
// a password field stays one whatever its role says now.
//
// The engine uses it, through package native, to build the read after an
// act from the read before and the elements the app reported changed.
func (c *Client) Refresh(ctx context.Context, nodes []*Node) error {
	if len(nodes) == 0 {
		return nil
	}
	p := newPipe(ctx)
	defer p.close()
	conns := map[string]*wireConn{}
	for i, n := range nodes {
		bus, path, _, err := c.parseID(ctx, n.ID, targetElement)
		if err != nil {
			return err
		}
		w := conns[bus]
		if w == nil {
			if w, err = c.connFor(ctx, bus); err != nil {
				return mapErr(err, nil, ctx, targetElement)
			}
			conns[bus] = w
		}
		p.add(w, call{target: i, kind: kindRole}, bus, path, "org.a11y.atspi.Accessible", "GetRole")
		p.add(w, call{target: i, kind: kindState}, bus, path, "org.a11y.atspi.Accessible", "GetState")
		addNameAndDescription(p, w, i, bus, path)
		p.add(w, call{target: i, kind: kindChildCount}, bus, path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "ChildCount")
	}
	p.flush()
	fresh := make([]elem, len(nodes))
	for i := range fresh {
		fresh[i].childCount = -1
	}
	for a, err := range p.answers() {
		if err != nil {
			return mapErr(err, nil, ctx, targetElement)
		}
		if a.err != nil {
			if a.kind.isProperty() && !isGone(a.err) && !errConnGone(a.err) {
				continue // a property the app cannot give stays empty
			}
			return mapErr(a.err, nil, ctx, targetElement)
		}
		if err := applyProps(&fresh[a.target], a.kind, &a.reply); err != nil {
			return mapErr(err, nil, ctx, targetElement)
		}
	}
	for i, n := range nodes {
		e := &fresh[i]
		bus, _, _, _ := c.parseID(ctx, n.ID, targetElement)
		n.Role = RoleName(e.role)
		if c.recallInDocument(n.ID) {
			e.inEditableDoc = true
			e.states = usableInDocument(e.states)
		}
		n.States = stateNames(c.showingFor(bus, e.states))
		n.Name = e.name
		n.Description = e.desc
		if e.childCount >= 0 {
			n.ChildCount = int(e.childCount)
		}
		n.Secure = n.Secure || secureRole(n.Role)
	}
	return nil
}

// applyProps stores one role, state or property reply in e (the part of
// reader.apply that does not touch the tree).
func applyProps(e *elem, kind callKind, rep *reply) error {
	d := rep.decoder()
	switch kind {
	case kindRole:
		e.role = d.uint32()
	case kindState:
		e.states = decodeStates(d)
	case kindName:
		if d.sig() == "s" {
			e.name = d.str()
		}
	case kindDesc:
		if d.sig() == "s" {
			e.desc = d.str()
		}
	case kindChildCount:
		if d.sig() == "i" {
			e.childCount = d.int32()
		}
	}
	if kind.isProperty() {
		// A property reply that does not decode (a getter that wrote
		// nothing) leaves that property as it was; it is no reason to
		// give up the read.
		return nil
	}
	return d.err
}
