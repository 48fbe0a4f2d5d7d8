package atspi

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// Refresh reads again what a structure read holds of each node — role,
// states, name, description, child count — in one pipelined round (five
// calls a node), in place. Details are left as they were and Detailed is
// cleared: the caller reads them again if it needs them. An element that
// went away is an error (stale_element_token), so the caller reads the
// whole window instead of keeping a node that is gone. Secure is never
// cleared: a password field stays one whatever its role says now.
//
// The engine uses it to build the read after an act from the read before
// and the elements the app reported changed (engine.ChangeLister).
func (c *Client) Refresh(ctx context.Context, nodes []*engine.Node) error {
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
		p.add(w, i*callKinds+callRole, bus, path, "org.a11y.atspi.Accessible", "GetRole")
		p.add(w, i*callKinds+callState, bus, path, "org.a11y.atspi.Accessible", "GetState")
		addNameAndDescription(p, w, i*callKinds, bus, path)
		p.add(w, i*callKinds+callChildCount, bus, path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "ChildCount")
	}
	p.flush()
	fresh := make([]elem, len(nodes))
	for i := range fresh {
		fresh[i].childCount = -1
	}
	for {
		rep, ok, err := p.next()
		if err != nil {
			return mapErr(err, nil, ctx, targetElement)
		}
		if !ok {
			break
		}
		i, kind := rep.tag/callKinds, rep.tag%callKinds
		if rep.err != nil {
			if isPropKind(kind) && !isGone(rep.err) && !errConnGone(rep.err) {
				continue // a property the app cannot give stays empty
			}
			return mapErr(rep.err, nil, ctx, targetElement)
		}
		if err := applyProps(&fresh[i], kind, &rep); err != nil {
			return mapErr(err, nil, ctx, targetElement)
		}
	}
	for i, n := range nodes {
		e := &fresh[i]
		bus, _, _, _ := c.parseID(ctx, n.ID, targetElement)
		n.Role = RoleName(e.role)
		n.States = stateNames(c.showingFor(bus, e.states))
		n.Name = e.name
		n.Description = e.desc
		if e.childCount >= 0 {
			n.ChildCount = int(e.childCount)
		}
		n.Secure = n.Secure || secureRole(n.Role)
		n.Detailed = false
	}
	return nil
}

// applyProps stores one role, state or property reply in e (the part of
// reader.apply that does not touch the tree).
func applyProps(e *elem, kind int, rep *reply) error {
	d := rep.decoder()
	switch kind {
	case callRole:
		e.role = d.uint32()
	case callState:
		e.states = decodeStates(d)
	case callName:
		if d.sig() == "s" {
			e.name = d.str()
		}
	case callDesc:
		if d.sig() == "s" {
			e.desc = d.str()
		}
	case callChildCount:
		if d.sig() == "i" {
			e.childCount = d.int32()
		}
	}
	if isPropKind(kind) {
		// A property reply that does not decode (a getter that wrote
		// nothing) leaves that property as it was; it is no reason to
		// give up the read.
		return nil
	}
	return d.err
}
