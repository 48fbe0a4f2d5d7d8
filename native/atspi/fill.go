package atspi

import "time"

// fillPropKinds is how many replies make an element's own properties
// known in a fill-in: role, states, interfaces, name, description and
// child count (each property its own Properties.Get, never GetAll:
// appcalls.go says why). Its children are asked for only once these say it
// is safe to (mayListChildren, nextForChildren).
const fillPropKinds = 6

// fill reads what the cache reply left out, until the tree within the
// budget is complete. Each round starts from a plan of what is missing;
// within a round every answer that makes more calls possible makes them
// at once, as follow-ups on the same pipe: an element's children are
// asked for as soon as its properties say that is safe, and the children's
// properties as soon as the list comes. An app without a cache reply (Qt 5)
// is then read in one stream of calls rather than one round per level
// (KeePassXC's 41 levels, each a wait for the slowest reply of its round).
// The next plan finds whatever the follow-ups did not reach (counts to ask
// first, tables, what the budget cut) and ends the fill when nothing is
// missing.
func (r *reader) fill() error {
	for r.rounds = 0; r.rounds < maxFillRounds; r.rounds++ {
		r.tables = r.tables[:0]
		needKids, needProps, needCount, planned := r.plan()
		if len(r.tables) > 0 {
			t0 := time.Now()
			for _, e := range r.tables {
				if err := r.readBlock(e, r.budget.MaxElements-len(r.known)); err != nil {
					return err
				}
				r.blockCells += len(e.children)
			}
			r.blockTime += time.Since(t0)
			continue
		}
		if len(needKids)+len(needProps)+len(needCount) == 0 {
			return nil
		}
		f := &fillRound{r: r, p: newPipe(r.ctx), asked: map[*elem]bool{}, room: r.budget.MaxElements - planned}
		err := f.run(needKids, needCount, needProps)
		r.calls += f.p.sent
		f.p.close()
		if err != nil {
			return err
		}
	}
	return nil
}

// fillRound is one round of fill-in calls and their follow-ups.
type fillRound struct {
	r *reader
	p *pipe
	// targets are the elements the round's calls are about; a call's
	// target is an index here. props counts, per target, the replies of
	// its properties that are in (fillPropKinds make it known).
	targets []*elem
	props   []int
	// asked holds the elements whose properties the round asks for, so
	// an element listed twice (a cycle, a child in two lists) is asked
	// once.
	asked map[*elem]bool
	// room is how many more elements the round may ask properties for
	// beyond the plan's: the plan walked planned elements of the budget,
	// and follow-ups never take the read past it.
	room int
	// queued: follow-up calls were added since the last flush.
	queued bool
}

// run sends the plan's calls, then takes the answers as they come and
// sends each one's follow-ups, until no call is outstanding.
func (f *fillRound) run(needKids, needCount, needProps []*elem) error {
	r, p := f.r, f.p
	for _, e := range needKids {
		if err := f.askChildren(e); err != nil {
			return err
		}
	}
	for _, e := range needCount {
		e.counted = true
		conn, err := r.c.connFor(r.ctx, e.bus)
		if err != nil {
			return mapErr(err, nil, r.ctx, r.targetOf(e))
		}
		p.add(conn, call{target: f.target(e), kind: kindChildCount}, e.bus, e.path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "ChildCount")
	}
	for _, e := range needProps {
		if err := f.askProps(e); err != nil {
			return err
		}
	}
	p.flush()
	f.queued = false
	for {
		a, ok := p.ready()
		if !ok {
			// Nothing waiting: write the follow-ups, then wait.
			if f.queued {
				p.flush()
				f.queued = false
			}
			var err error
			a, ok, err = p.next()
			if err != nil {
				return mapErr(err, nil, r.ctx, targetFrame)
			}
			if !ok {
				return nil
			}
		}
		if err := f.take(a); err != nil {
			return err
		}
	}
}

// target adds e to the round's targets and returns its index.
func (f *fillRound) target(e *elem) int {
	f.targets = append(f.targets, e)
	f.props = append(f.props, 0)
	return len(f.targets) - 1
}

// askChildren queues GetChildren for e.
func (f *fillRound) askChildren(e *elem) error {
	r := f.r
	conn, err := r.c.connFor(r.ctx, e.bus)
	if err != nil {
		return mapErr(err, nil, r.ctx, r.targetOf(e))
	}
	f.p.add(conn, call{target: f.target(e), kind: kindChildren}, e.bus, e.path, "org.a11y.atspi.Accessible", "GetChildren")
	f.queued = true
	return nil
}

// askProps queues the calls that make e's own properties known. Its
// children are not asked for with them: its states and child count must
// first say that listing them is safe (take, nextForChildren).
func (f *fillRound) askProps(e *elem) error {
	r := f.r
	conn, err := r.c.connFor(r.ctx, e.bus)
	if err != nil {
		return mapErr(err, nil, r.ctx, r.targetOf(e))
	}
	f.asked[e] = true
	i := f.target(e)
	p := f.p
	p.add(conn, call{target: i, kind: kindRole}, e.bus, e.path, "org.a11y.atspi.Accessible", "GetRole")
	p.add(conn, call{target: i, kind: kindState}, e.bus, e.path, "org.a11y.atspi.Accessible", "GetState")
	p.add(conn, call{target: i, kind: kindIfaces}, e.bus, e.path, "org.a11y.atspi.Accessible", "GetInterfaces")
	addNameAndDescription(p, conn, i, e.bus, e.path)
	p.add(conn, call{target: i, kind: kindChildCount}, e.bus, e.path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "ChildCount")
	f.queued = true
	return nil
}

// take stores one answer and queues what it makes possible.
func (f *fillRound) take(a answer) error {
	r := f.r
	e := f.targets[a.target]
	switch {
	case a.err == nil:
		if err := r.apply(e, a.kind, &a.reply); err != nil {
			return mapErr(err, nil, r.ctx, r.targetOf(e))
		}
	case isGone(a.err) && e != r.root:
		// The element went away during the read.
		e.gone = true
		return nil
	case a.kind.isProperty() && !errConnGone(a.err):
		// A property the app cannot give (a getter that failed) stays
		// empty; the element itself is there.
	default:
		return mapErr(a.err, r.connOf(e), r.ctx, r.targetOf(e))
	}
	if a.kind == kindChildren {
		return f.childrenCame(e)
	}
	if f.asked[e] {
		f.props[a.target]++
		if f.props[a.target] < fillPropKinds {
			return nil
		}
		e.hasProps = true
	}
	// Its properties, or the count it was asked for on its own, are in.
	if e.gone || int(e.depth) >= r.budget.MaxDepth || nextForChildren(e, r.budget) != childrenAsk {
		// None, a count still unknown, or left out: the next plan's.
		return nil
	}
	return f.askChildren(e)
}

// childrenCame queues the properties of e's new children, within the
// round's room; the rest are the next plan's.
func (f *fillRound) childrenCame(e *elem) error {
	for _, k := range e.children {
		if f.room <= 0 {
			return nil
		}
		if k.hasProps || k.gone || f.asked[k] {
			continue
		}
		k.depth = e.depth + 1
		f.room--
		if err := f.askProps(k); err != nil {
			return err
		}
	}
	return nil
}
