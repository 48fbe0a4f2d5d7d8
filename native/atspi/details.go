package atspi

import "context"

// maxValueBytes bounds a text value read with a tree (the engine cuts row
// values much shorter; ReadText reads whole texts).
const maxValueBytes = 4096

// detailTarget is one node whose details are read, with what the reader
// knows about it.
type detailTarget struct {
	node   *Node
	bus    string
	path   string
	ifaces ifaceSet
	states stateSet
	// recheck makes the value read re-check the role live before reading
	// text (for nodes from an earlier read, whose role may have changed).
	recheck bool
	// textValue: the element's text is its value whatever its role (a
	// sheet's cell, named by its address, shows its content as text).
	textValue bool
	// inPage: the element lies in a web page (elem.inPage).
	inPage bool
}

// maxActions bounds the action names read per element.
const maxActions = 64

// detailPlan is what is read of one target.
type detailPlan struct{ extents, actions, value, text bool }

func (pl detailPlan) any() bool { return pl.extents || pl.actions || pl.value || pl.text }

// detailRead is one pipelined read of details: the targets and their
// plans, the pipe, and the state of the reads that take more than one
// reply.
type detailRead struct {
	c       *Client
	ctx     context.Context
	targets []detailTarget
	plans   []detailPlan
	p       *pipe
	conns   map[string]*wireConn
	coords  map[string]uint32 // each app's coordinate type, asked before the pipe (coordType)
	// queued: follow-up calls were added since the last flush.
	queued bool
	// checks counts, per text element, the security checks still due
	// (attributes, the length, a role re-check); its text is asked for
	// when the last one passes, never after one fails (-1).
	checks []int8
	// lengths are the texts' lengths as reported: Gecko answers GetText
	// with nothing when the end asked for lies past the text's end, so
	// the end is the length (or the bound, when it is longer).
	lengths []int32
	actions map[int]*actionRead
	// asking is, per action kind, the target asked for the kind's names
	// in this read (actionkinds.go).
	asking map[actionKind]int
	values map[int]*valueRead
	// Action lists (actionlists.go): live says, per app, whether its
	// lists were live when the read began, and pageActions whether an
	// element of a web page listed actions in this read, and whether to a
	// first question (so they are live now, and were before any second
	// question was sent); firstAsks counts the first questions about
	// actions still unanswered, and reask the elements that listed none
	// while their app's lists may not have been live, to ask again once
	// every first question is answered.
	live        map[string]bool
	pageActions map[string]pageActions
	firstAsks   int
	reask       []int
}

// pageActions says whether an element of a web page listed actions in a
// read (any), and whether it was to a first question (first).
type pageActions struct{ any, first bool }

// details reads the selected details of the targets with every call in
// flight at once, and fills their nodes. It returns the number of calls.
// An element that vanished or refuses a call keeps that detail empty; the
// context ending fails the whole read.
//
// Text values are read in two steps per element: first its attributes
// (and, for a re-check, its role), then its text only if neither marks it
// as secure; a secure field's text is never requested.
func (c *Client) details(ctx context.Context, targets []detailTarget, which Details) (int, error) {
	r := &detailRead{c: c, ctx: ctx, targets: targets}
	if r.plan(which) == 0 {
		return 0, nil
	}
	r.coords = map[string]uint32{}
	for i, t := range targets {
		if _, known := r.coords[t.bus]; !known && r.plans[i].extents {
			r.coords[t.bus] = c.coordType(ctx, t.bus)
		}
	}
	r.p = newPipe(ctx)
	defer r.p.close()
	if err := r.send(); err != nil {
		return r.p.sent, err
	}
	err := r.dispatch()
	if err == nil {
		for bus := range r.pageActions {
			c.markActionListsLive(bus)
		}
	}
	return r.p.sent, err
}

// plan decides what to read of each target and counts the calls. Action
// names an earlier read learnt are filled in at once.
func (r *detailRead) plan(which Details) int {
	r.plans = make([]detailPlan, len(r.targets))
	n := 0
	for i := range r.targets {
		t := &r.targets[i]
		pl := &r.plans[i]
		if which&DetailExtents != 0 && t.ifaces&ifComponent != 0 &&
			(t.states.has(stateShowing) || which&DetailHiddenExtents != 0) {
			pl.extents = true
			n++
		}
		if which&DetailActions != 0 && t.ifaces&ifAction != 0 {
			if names, ok := r.c.knownActions(t.node.ID); ok {
				t.node.Actions = append([]string(nil), names...)
			} else {
				pl.actions = true
				n++
			}
		}
		if which&DetailValues != 0 && !t.node.Secure {
			switch {
			case t.textValue && t.ifaces&ifText != 0:
				pl.text = true
				n += 3
				if t.recheck {
					n++
				}
			case t.ifaces&ifValue != 0:
				pl.value = true
				n += valueCalls
			case isTextValue(t.node.Role, t.node.Name, t.ifaces, t.states):
				pl.text = true
				n += 3 // attributes and length, then text
				if t.recheck {
					n++
				}
			}
		}
	}
	return n
}

// connOf is the connection to a target's app, opened once per read.
func (r *detailRead) connOf(bus string) (*wireConn, error) {
	if w := r.conns[bus]; w != nil {
		return w, nil
	}
	w, err := r.c.connFor(r.ctx, bus)
	if err != nil {
		return nil, err
	}
	r.conns[bus] = w
	return w, nil
}

// send queues the planned calls and writes them.
func (r *detailRead) send() error {
	r.conns = map[string]*wireConn{}
	r.checks = make([]int8, len(r.targets))
	r.lengths = make([]int32, len(r.targets))
	r.actions = map[int]*actionRead{}
	r.values = map[int]*valueRead{}
	r.live = map[string]bool{}
	r.pageActions = map[string]pageActions{}
	p := r.p
	for i := range r.targets {
		t := &r.targets[i]
		pl := r.plans[i]
		if !pl.any() {
			continue
		}
		w, err := r.connOf(t.bus)
		if err != nil {
			return mapErr(err, nil, r.ctx, targetElement)
		}
		if pl.extents {
			p.add(w, call{target: i, kind: kindExtents}, t.bus, t.path, "org.a11y.atspi.Component", "GetExtents", r.coords[t.bus])
		}
		if pl.actions {
			if _, known := r.live[t.bus]; !known {
				r.live[t.bus] = r.c.actionListsLive(t.bus)
			}
			r.firstAsks++
			p.add(w, call{target: i, kind: kindActions}, t.bus, t.path, "org.a11y.atspi.Action", "GetActions")
		}
		if pl.value {
			p.add(w, call{target: i, kind: kindValue}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "CurrentValue")
			p.add(w, call{target: i, kind: kindValueStep}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Value", "MinimumIncrement")
		}
		if pl.text {
			r.checks[i], r.lengths[i] = 2, maxValueBytes
			p.add(w, call{target: i, kind: kindAttrs}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetAttributes")
			p.add(w, call{target: i, kind: kindTextLength}, t.bus, t.path, propertiesIface, "Get", "org.a11y.atspi.Text", "CharacterCount")
			if t.recheck {
				r.checks[i] = 3
				p.add(w, call{target: i, kind: kindRole}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetRole")
			}
		}
	}
	p.flush()
	return nil
}

// dispatch hands each answer to the handler of its kind until none is
// outstanding; follow-up calls the handlers add are written whenever no
// answer is waiting. Numeric values are stored last, when all their
// properties are in.
func (r *detailRead) dispatch() error {
	for {
		a, ok := r.p.ready()
		if !ok {
			if r.queued {
				r.p.flush()
				r.queued = false
			}
			var err error
			a, ok, err = r.p.next()
			if err != nil {
				return mapErr(err, nil, r.ctx, targetFrame)
			}
			if !ok {
				break
			}
		}
		if a.err != nil {
			if err := r.failed(a); err != nil {
				return err
			}
			continue
		}
		d := a.decoder()
		switch a.kind {
		case kindExtents:
			r.extents(a.target, d)
		case kindActions:
			r.actionList(a.target, a.sub, d)
		case kindActionName:
			r.actionName(a.target, a.sub, d)
		case kindValue, kindValueStep:
			r.value(a.target, a.kind, d)
		case kindAttrs:
			r.checked(a.target, secureAttrs(d))
		case kindRole:
			r.roleChecked(a.target, d)
		case kindTextLength:
			r.textLength(a.target, d)
		case kindText:
			r.text(a.target, d)
		}
	}
	for i, v := range r.values {
		v.store(r.targets[i].node)
	}
	return nil
}

// failed handles a call the app answered with an error: a closed
// connection fails the read; otherwise that detail stays empty, and a
// failed security check means the text is never read.
func (r *detailRead) failed(a answer) error {
	i := a.target
	if errConnGone(a.err) {
		return mapErr(a.err, r.conns[r.targets[i].bus], r.ctx, targetFrame)
	}
	switch a.kind {
	case kindAttrs, kindRole:
		r.checks[i] = -1 // unchecked: never read its text
	case kindTextLength:
		r.passed(i) // length unknown: ask up to the bound
	case kindActions:
		r.answeredFirst(a.sub)
	case kindActionName:
		r.namesFailed(i) // names incomplete: report none
	}
	return nil
}

// Details reads details of nodes from an earlier read, in place: the
// engine reads a whole window's structure (DetailsNone) and then the
// details of the rows it returns. The nodes' ids, roles and states are
// taken as read; the interfaces come from what the client remembers of the
// read (or are asked for). Text values are read only after a live check of
// the element's role and attributes.
func (c *Client) Details(ctx context.Context, nodes []*Node, which Details) error {
	targets := make([]detailTarget, 0, len(nodes))
	var unknown []int
	for _, n := range nodes {
		bus, path, _, err := c.parseID(ctx, n.ID, targetElement)
		if err != nil {
			return err
		}
		t := detailTarget{node: n, bus: bus, path: path, recheck: true, textValue: isCellID(n.ID), inPage: c.recallInPage(n.ID)}
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
			p.add(w, call{target: i, kind: kindIfaces}, t.bus, t.path, "org.a11y.atspi.Accessible", "GetInterfaces")
		}
		p.flush()
		for a, err := range p.answers() {
			if err != nil {
				return mapErr(err, nil, ctx, targetElement)
			}
			if a.err != nil {
				continue // gone: no details
			}
			targets[a.target].ifaces |= decodeIfaces(a.decoder())
		}
	}
	_, err := c.details(ctx, targets, which)
	return err
}
