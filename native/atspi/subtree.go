package atspi

import (
	"context"
)

// ReadSubtree reads the structure of one element's subtree (ids, roles,
// names, descriptions, states, child counts; no details), in pre-order
// within the budget, Nodes[0] being the element. It asks the elements
// themselves, a level per round, with the calls a window read makes for
// what the app's cache reply leaves out, and under the same rule: an
// element is asked for its children only when its count is known and fits
// the budget (mayListChildren), so a container that makes its children on
// demand is never made to build them; what is left out sets Truncated.
// There is no cache call: the cache answers for the whole app.
//
// The engine uses it, through package native, when a wait hears an
// element added under another or children coming or going: it reads that
// part of the window instead of the window. An element that is gone is an
// error (KindStale).
func (c *Client) ReadSubtree(ctx context.Context, root ID, budget Budget) (*Tree, error) {
	if budget.MaxElements <= 0 {
		budget.MaxElements = DefaultBudget.MaxElements
	}
	if budget.MaxDepth <= 0 {
		budget.MaxDepth = DefaultBudget.MaxDepth
	}
	_, bus, path, tag, err := c.reach(ctx, root, targetElement)
	if err != nil {
		return nil, err
	}
	r := &reader{c: c, ctx: ctx, app: bus, tag: tag, known: map[string]*elem{}, budget: budget, subtree: true}
	r.root = newElem(bus, path)
	r.known[r.root.key()] = r.root
	// Inside an editable document the root's place in it counts, as in a
	// window read (documentStates).
	r.rootUp = &elem{inEditableDoc: c.recallInDocument(root), inPage: c.recallInPage(root)}
	if err := r.fill(); err != nil {
		return nil, err
	}
	for _, e := range r.known {
		e.states = c.showingFor(e.bus, e.states)
	}
	r.writesText = c.WritesText(ctx, bus)
	r.placeKids = remakesChildren(c.ToolkitName(ctx, bus))
	tree, elems := r.assemble()
	c.remember(tag, elems)
	return tree, nil
}
