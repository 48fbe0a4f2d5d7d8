package engine_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// A wait reads what its app's reports name, not the window
// (docs/contract.md#wait-for): on a window grown to some 350 rows, each
// condition kind is met after one change with the window read once (the
// wait's first look), and the elements read again after the report are
// the changed ones: the label, the field, the frame, the list that gained
// or lost a row and that row. The wait's snapshot is laid out as a whole
// read of the window would be, so the row it answers with carries a token
// that acts.
func testWaitForReadsWhatChanged(t *testing.T, h *harness) {
	h.start(nil)
	form := h.demo.Form
	for i := 0; i < 300; i++ {
		form.Items.Add("list_item", fmt.Sprintf("Filler %d", i))
	}
	item2 := testkit.Field[string](t, h.findFirst(map[string]any{"role": "list_item", "label": "item 2"}), "element_token")
	status := h.findFirst(map[string]any{"role": "label", "label": "not saved yet"})

	cases := []waitCase{
		{"a label's text", func() { form.Status.SetName("Saved (7)") },
			map[string]any{"kind": "text", "role": "label", "text": "saved (7)"}, 1, 1, 1},
		{"a value", func() { form.Email.SetValue("ada@engine.org") },
			map[string]any{"kind": "text", "role": "entry", "label": "email", "text": "@engine"}, 1, 1, 2},
		{"an element appears", func() { form.Items.AddAt(0, "list_item", "Item 0") },
			map[string]any{"kind": "appears", "role": "list_item", "label": "item 0"}, 1, 2, 1},
		{"an element disappears", func() { form.Items.Find("list_item", "Item 2").Remove() },
			map[string]any{"kind": "disappears", "element_token": item2}, 1, 1, 0},
		{"the title", func() { form.Window.SetTitle("Form Demo — Sent") },
			map[string]any{"kind": "title", "text": "— sent"}, 1, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { h.runWaitCase(t, c, testkit.Int(t, status, "element_index")) })
	}

	// The row of an element that appeared acts.
	h.desk.After(30*time.Millisecond, func() { form.Items.AddAt(1, "push_button", "Undo") })
	res := h.waitFor(map[string]any{"kind": "appears", "role": "push_button", "label": "undo"}, 10000)
	if res["met"] != true {
		t.Fatalf("the wait for the Undo button that appeared is not met: %v", res)
	}
	undo := testkit.Field[map[string]any](t, res, "element")
	h.ok("click", map[string]any{"element_token": testkit.Field[string](t, undo, "element_token")})
}

// waitCase is one change a wait is met by, and what it may read after the
// change report.
type waitCase struct {
	name   string
	change func()
	cond   map[string]any
	// windowReads: whole reads of the window in all (the wait's first
	// look, and one more where the reports cannot say what changed);
	// reread: elements read again after the report (Refresh and
	// ReadSubtree nodes); details: at most this many elements' details
	// read after it (the condition's values and the answer's row).
	windowReads, reread, details int
}

// runWaitCase starts a wait, makes the change once it is listening, and
// checks what the wait read and that its snapshot is laid out as a whole
// read would be. fallback is the element index of a row that stays.
func (h *harness) runWaitCase(t *testing.T, c waitCase, fallback int) {
	h.desk.ResetCalls()
	p := startWait(h.c, uint64(h.demo.Form.Window.ID()), c.cond, 10000)
	h.waitsListening(t, 1)
	before := len(h.desk.Calls())
	c.change()
	res := h.metWait(t, <-p.done)
	all := h.desk.Calls()
	if n := countCalls(all, "ReadStructure") + countCalls(all, "ReadTree"); n != c.windowReads {
		t.Fatalf("the window was read %d times, want %d", n, c.windowReads)
	}
	after := all[before:]
	if n := countNodes(after, "Refresh") + countNodes(after, "ReadSubtree"); n != c.reread {
		t.Fatalf("%d elements read again after the report, want %d: %v", n, c.reread, after)
	}
	if n := countNodes(after, "ReadDetails"); n > c.details {
		t.Fatalf("details of %d elements read after the report, want at most %d", n, c.details)
	}
	// The wait's snapshot has the structure a whole read finds: once it
	// is too old to stand in for a read, a drill-down reads the window
	// whole and takes its token only if the two agree (the answer's row,
	// or a row that stays).
	h.clock.Advance(engine.ReuseMaxAge + time.Second)
	tok := fmt.Sprintf("%s:%d", res["snapshot_id"], fallback)
	if el, _ := res["element"].(map[string]any); el != nil {
		tok = testkit.Field[string](t, el, "element_token")
	}
	if d := h.ok("get_window_state", map[string]any{"root": tok}); d["snapshot_id"] == res["snapshot_id"] {
		t.Fatalf("the drill-down kept the wait's snapshot instead of reading the window")
	}
}

// A window cut by the element budget is the first so many elements in
// tree order: a wait puts an added element in and cuts as many off the
// end as a whole read would, but an element taken away would bring in
// elements past the cut, so that takes a whole read.
func testWaitForInACutWindow(t *testing.T, h *harness) {
	h.start(nil)
	form := h.demo.Form
	for i := 0; i < 300; i++ {
		form.Items.Add("list_item", fmt.Sprintf("Filler %d", i))
	}
	first := h.findFirst(map[string]any{"role": "list_item", "label": "item 1"})
	cases := []waitCase{
		{"an element appears", func() { form.Items.AddAt(0, "list_item", "Item 0") },
			map[string]any{"kind": "appears", "role": "list_item", "label": "item 0"}, 1, 2, 1},
		{"an element disappears", func() { form.Items.Find("list_item", "Item 2").Remove() },
			map[string]any{"kind": "disappears", "role": "list_item", "label": "item 2"}, 2, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { h.runWaitCase(t, c, testkit.Int(t, first, "element_index")) })
	}
}

// withZoomBudget bounds the harness's reads.
func withZoomBudget(b engine.Budget) harnessOption {
	return func(o *engine.Options, _ *harness) { o.ZoomBudget = b }
}

// countCalls counts the calls of one method.
func countCalls(calls []mock.Call, method string) int {
	n := 0
	for _, c := range calls {
		if c.Method == method {
			n++
		}
	}
	return n
}

// countNodes adds up the elements the calls of one method covered.
func countNodes(calls []mock.Call, method string) int {
	n := 0
	for _, c := range calls {
		if c.Method == method {
			n += c.Nodes
		}
	}
	return n
}
