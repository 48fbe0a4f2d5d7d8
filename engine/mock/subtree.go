package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

var _ engine.SubtreeReader = (*Desktop)(nil)

// ReadSubtree reads one element's subtree, structure only, as
// ReadStructure reads a window (engine.SubtreeReader): the mock is one, so
// a wait that hears children come or go reads only that part of the
// window in every contract test. The call's Nodes is how many elements it
// returned. An element no longer in the window is stale_element_token.
func (d *Desktop) ReadSubtree(ctx context.Context, win engine.WindowID, root engine.ElementID, budget engine.Budget) (*engine.Tree, error) {
	var t *engine.Tree
	i := d.record(Call{Method: "ReadSubtree", Window: win, Element: root})
	err := d.appCallWait(ctx, win, func(w *Window) error {
		e := w.byID[root]
		if e == nil {
			return engine.Errf(engine.CodeStaleElementToken, "the element is no longer in window %d", uint64(w.id))
		}
		t = w.readFrom(e, budget)
		return nil
	})
	d.finish(i, err)
	if err != nil {
		return nil, err
	}
	for k := range t.Nodes {
		n := &t.Nodes[k]
		n.Value, n.HasValue, n.Numeric, n.Actions, n.Frame, n.Detailed = "", false, nil, nil, engine.Rect{}, false
	}
	d.noteNodes(i, len(t.Nodes))
	return t, nil
}
