package engine

import (
	"context"
	"strings"
)

// waitCheck evaluates a wait's condition: on the whole of a read (the
// first one, and any read the reports could not spare), or on the
// elements a batch of reports changed (reportRead). An element the
// reports did not name is as it was when last checked, so checking the
// changed ones alone decides as a whole check would, at the cost of what
// changed. A disappearance needs to know what is still there: present
// holds the matching elements as of the last check.
type waitCheck struct {
	cond    waitCondition
	present map[ElementID]bool
}

// candidate tells whether the node at position p is an element the
// condition is about: the token's element (and the query's, when it has
// one too), else any element matching the query.
func (c *waitCheck) candidate(sn *snapshot, p int) bool {
	n := &sn.tree.Nodes[p]
	if c.cond.token != nil {
		return sn.rows[p] == c.cond.token.Index && (c.cond.query.empty() || c.cond.query.matches(n))
	}
	return c.cond.query.matches(n)
}

// all checks the whole read: met, and the matching node's position (-1
// for none: a title or a disappearance).
func (c *waitCheck) all(ctx context.Context, d *Driver, sn *snapshot) (bool, int, *Error) {
	if c.cond.kind == condTitle {
		return c.titleMet(sn), -1, nil
	}
	var ps []int
	if c.cond.token != nil {
		if p, ok := sn.pos[c.cond.token.Index]; ok && c.candidate(sn, p) {
			ps = []int{p}
		}
	} else {
		ps, _ = c.cond.query.find(sn.tree, len(sn.tree.Nodes))
	}
	return c.among(ctx, d, sn, ps, true)
}

// changed checks only what a batch of reports read again.
func (c *waitCheck) changed(ctx context.Context, d *Driver, sn *snapshot, rr reportRead) (bool, int, *Error) {
	if c.cond.kind == condTitle {
		if len(rr.changed) > 0 && rr.changed[0] == 0 {
			return c.titleMet(sn), -1, nil
		}
		return false, -1, nil
	}
	if c.cond.kind == condDisappears {
		for _, id := range rr.dropped {
			delete(c.present, id)
		}
	}
	var ps []int
	for _, p := range rr.changed {
		if c.candidate(sn, p) {
			ps = append(ps, p)
		} else if c.present != nil {
			delete(c.present, sn.tree.Nodes[p].ID)
		}
	}
	return c.among(ctx, d, sn, ps, false)
}

// among decides the condition from its candidates ps (in tree order):
// every candidate of the read when whole, else the changed ones.
func (c *waitCheck) among(ctx context.Context, d *Driver, sn *snapshot, ps []int, whole bool) (bool, int, *Error) {
	t := sn.tree
	switch c.cond.kind {
	case condAppears:
		if len(ps) > 0 {
			return true, ps[0], nil
		}
		return false, -1, nil
	case condDisappears:
		if whole || c.present == nil {
			c.present = map[ElementID]bool{}
		}
		for _, p := range ps {
			c.present[t.Nodes[p].ID] = true
		}
		return len(c.present) == 0, -1, nil
	}
	for _, p := range ps {
		if strings.Contains(strings.ToLower(labelOf(&t.Nodes[p])), c.cond.text) {
			return true, p, nil
		}
	}
	// Values are details: read the candidates' that are not read yet.
	sn.fillMu.Lock()
	err := d.fillDetails(ctx, t, ps)
	sn.fillMu.Unlock()
	if err != nil {
		return false, -1, err
	}
	for _, p := range ps {
		n := &t.Nodes[p]
		if v, ok := shownValue(n); ok && strings.Contains(strings.ToLower(v), c.cond.text) {
			return true, p, nil
		}
	}
	return false, -1, nil
}

// titleMet tells whether the window's title, its frame's name, holds the
// condition's text.
func (c *waitCheck) titleMet(sn *snapshot) bool {
	return strings.Contains(strings.ToLower(shownTitle(sn.tree.Nodes[0].Name)), c.cond.text)
}
