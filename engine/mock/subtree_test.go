package mock

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// TestReadSubtree: an element's subtree reads as the window's read has it
// (structure only, the element first at depth 0, parents counted within),
// the call says how many elements it returned, and an element that is
// gone is stale.
func TestReadSubtree(t *testing.T) {
	d, f, w, ctx := formDemo(t)

	d.ResetCalls()
	sub, err := d.ReadSubtree(ctx, w, f.Items.ID(), engine.DefaultZoomBudget())
	wantCode(t, "ReadSubtree", err, "")
	if len(sub.Nodes) != 4 || sub.Nodes[0].ID != f.Items.ID() || sub.Nodes[0].Depth != 0 || sub.Nodes[0].Parent != -1 {
		t.Fatalf("the list and its three items, the list first: %+v", sub.Nodes)
	}
	for i, n := range sub.Nodes[1:] {
		if n.Parent != 0 || n.IndexInParent != i || n.Depth != 1 || n.Detailed || n.Frame != (engine.Rect{}) {
			t.Fatalf("item %d: %+v", i, n)
		}
	}
	if calls := d.CallsOf("ReadSubtree"); len(calls) != 1 || calls[0].Nodes != 4 || !calls[0].Done {
		t.Fatalf("calls: %+v", calls)
	}

	cut, err := d.ReadSubtree(ctx, w, f.Items.ID(), engine.Budget{MaxElements: 2, MaxDepth: 10})
	wantCode(t, "ReadSubtree", err, "")
	if len(cut.Nodes) != 2 || !cut.Truncated {
		t.Fatalf("a budget of 2: %d nodes, truncated %v", len(cut.Nodes), cut.Truncated)
	}

	item := f.Items.Children()[0]
	item.Remove()
	_, err = d.ReadSubtree(ctx, w, item.ID(), engine.DefaultZoomBudget())
	wantCode(t, "ReadSubtree", err, engine.CodeStaleElementToken)
}
