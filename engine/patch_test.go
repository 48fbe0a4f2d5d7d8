package engine_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// reportLister stands between the engine and the mock's change reports.
// rewrite says of a batch what another app would (a children-changed
// naming no child, a selection reported on the list, reports it did not
// keep); it sees only batches that hold a report. gate holds the engine's
// view of the reports while a test makes a change of several steps, so a
// wait sees the window as it was before or after, never half way.
type reportLister struct {
	*mock.Desktop
	rewrite func([]engine.Change) ([]engine.Change, bool)
	gate    sync.RWMutex
}

func (r *reportLister) CurrentMark(w engine.WindowID) (engine.ChangeMark, bool) {
	r.gate.RLock()
	defer r.gate.RUnlock()
	return r.Desktop.CurrentMark(w)
}

func (r *reportLister) ChangesSince(w engine.WindowID, mark engine.ChangeMark) ([]engine.Change, bool) {
	r.gate.RLock()
	defer r.gate.RUnlock()
	cs, complete := r.Desktop.ChangesSince(w, mark)
	if len(cs) == 0 || !complete || r.rewrite == nil {
		return cs, complete
	}
	return r.rewrite(cs)
}

func (r *reportLister) WaitChange(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, max time.Duration) (bool, error) {
	changed, err := r.Desktop.WaitChange(ctx, w, mark, max)
	// A wait woken half way through a change wakes when it is made.
	r.gate.RLock()
	defer r.gate.RUnlock()
	return changed, err
}

// patchCase is one change an app makes and what its reports say of it.
type patchCase struct {
	name  string
	opts  []harnessOption
	setup func(f *mock.Form) // before the first read
	// change is the app's change; rewrite, when set, what the lister
	// says of it (given the form, for its elements' ids).
	change  func(f *mock.Form)
	rewrite func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool)
	// whole: the patch gives up and the window is read whole.
	whole bool
}

// patchCases cover each row of the patcher's table (engine/patch.go), in
// reports as the mock makes them and as other apps do.
var patchCases = []patchCase{
	{name: "content: a label's name", change: func(f *mock.Form) { f.Status.SetName("Saved (9)") }},
	{name: "content: an entry's value", change: func(f *mock.Form) { f.Email.SetValue("ada@engine.org") }},
	{name: "content: states", change: func(f *mock.Form) { f.DarkMode.AddStates("checked") }},
	{name: "child added", change: func(f *mock.Form) { f.Items.AddAt(1, "list_item", "Item 1½") }},
	{name: "child added with children of its own", change: func(f *mock.Form) {
		g := f.Items.AddAt(0, "panel", "Group")
		g.Add("label", "In the group")
		g.Add("push_button", "Open the group")
	}},
	{name: "child removed", change: func(f *mock.Form) { f.Items.Find("list_item", "Item 2").Remove() }},
	{name: "children-changed naming no child", change: func(f *mock.Form) { f.Items.AddAt(2, "list_item", "Item 2½") },
		rewrite: func(_ *mock.Form, cs []engine.Change) ([]engine.Change, bool) { return withoutChildNamed(cs), true }},
	{name: "subtree: a list's rows changed, reported on the list",
		change: func(f *mock.Form) { f.Items.Find("list_item", "Item 3").SetName("Item three").AddStates("selected") },
		rewrite: func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return reportedOn(cs, f.Items.Children()[2].ID(), f.Items.ID()), true
		}},
	{name: "subtree: about an element without children", change: func(f *mock.Form) { f.Status.SetName("Saved (10)") },
		rewrite: func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return reportedOn(cs, f.Status.ID(), f.Status.ID()), true
		}},
	{name: "extents: a frame moved", change: func(f *mock.Form) { f.Logo.SetFrame(engine.Rect{X: 400, Y: 700, W: 48, H: 24}) }},
	{name: "an element of another window", change: func(f *mock.Form) { f.Status.SetName("Saved (11)") }, whole: true,
		rewrite: func(_ *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return append(cs, engine.Change{Kind: engine.ChangeStructure, Source: "elsewhere:/7", Index: -1}), true
		}},
	{name: "an element past the read's depth", opts: []harnessOption{withZoomBudget(engine.Budget{MaxElements: 5000, MaxDepth: 3})},
		change: func(f *mock.Form) { f.LanguageMenu.Find("menu_item", "Deutsch").SetName("German") }, whole: true},
	{name: "reports not all kept", change: func(f *mock.Form) { f.Status.SetName("Saved (12)") }, whole: true,
		rewrite: func(_ *mock.Form, cs []engine.Change) ([]engine.Change, bool) { return cs, false }},
	{name: "structure of the frame itself", change: func(f *mock.Form) { f.Status.SetName("Saved (13)") }, whole: true,
		rewrite: func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return append(cs, engine.Change{Kind: engine.ChangeStructure, Source: f.Window.Root().ID(), Index: -1}), true
		}},
	{name: "a child count moved with no report of the child", change: func(f *mock.Form) { f.Items.AddAt(0, "list_item", "Item 0") }, whole: true,
		rewrite: func(_ *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return slices.DeleteFunc(cs, func(c engine.Change) bool { return c.Op != "" }), true
		}},
	{name: "more elements than a patch reads one by one", whole: true,
		setup: func(f *mock.Form) { addItems(f, 70) },
		change: func(f *mock.Form) {
			for i := 0; i < 70; i++ {
				f.Items.Find("list_item", fmt.Sprintf("Extra %d", i)).SetName(fmt.Sprintf("Renamed %d", i))
			}
		}},
	{name: "a subtree larger than a patch reads", whole: true,
		setup:  func(f *mock.Form) { addItems(f, 130) },
		change: func(f *mock.Form) { f.Items.AddAt(0, "list_item", "Item 0") },
		rewrite: func(_ *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return withoutChildNamed(cs), true
		}},
}

// TestActsAndWaitsPatchAlike runs each report sequence through an act
// (its settled read) and a wait (its read after the report): both follow
// it by the one patcher's rules, so both patch, or both read the window
// whole, and both end with the read a whole read of the window gives.
func TestActsAndWaitsPatchAlike(t *testing.T) {
	paths := []struct {
		name string
		run  func(t *testing.T, h *harness, rw *reportLister, tr *traces, c patchCase) patchedBy
	}{
		{"act", patchByAct},
		{"wait_for", patchByWait},
	}
	for _, c := range patchCases {
		for _, p := range paths {
			t.Run(c.name+"/"+p.name, func(t *testing.T) {
				rw := &reportLister{}
				tr := &traces{}
				opts := append([]harnessOption{withTraces(tr), withBackend(func(d *mock.Desktop) engine.Backend {
					rw.Desktop = d
					return rw
				})}, c.opts...)
				h := newHarness(t, nil, opts...)
				h.start(nil)
				f := h.demo.Form
				if c.setup != nil {
					c.setup(f)
				}
				if c.rewrite != nil {
					rw.rewrite = func(cs []engine.Change) ([]engine.Change, bool) { return c.rewrite(f, cs) }
				}
				// The app says it is done by its title, which the wait
				// waits for; an act sees the same reports.
				done := func() {
					c.change(f)
					f.Window.SetTitle("Form Demo — done")
				}
				f.Window.Root().Add("push_button", "Go").OnAction("click", func(*mock.ActionContext) { done() })
				h.readForm(allRows) // the app's reports start with the first read

				got := p.run(t, h, rw, tr, c)
				if got.whole != c.whole {
					t.Errorf("read the window whole: %v, want %v", got.whole, c.whole)
				}
				// Every row of the read, and for an act the rows its
				// observe showed (a default read's), as a whole read has
				// them.
				kept := keptRead(t, h, got.snapshot)
				sameRows(t, "the read after the reports", testkit.RowLines(kept["elements"]), wholeRows(t, h, allRows))
				// Its structure is a whole read's, elements in the same
				// order: its tokens act on the whole read.
				h.ok("get_window_state", map[string]any{"root": testkit.Token(t, kept, "push_button", "Go")})
				if got.observed != nil {
					sameRows(t, "the act's observed rows", got.observed, wholeRows(t, h, nil))
				}
			})
		}
	}
}

// patchedBy is what a path made of the reports: its read's snapshot,
// whether it read the window whole instead of patching, and the rows an
// act's observe showed.
type patchedBy struct {
	snapshot string
	whole    bool
	observed []string
}

// patchByAct clicks Go, whose handler makes the change: the act's settled
// read follows the reports since the act began.
func patchByAct(t *testing.T, h *harness, _ *reportLister, tr *traces, _ patchCase) patchedBy {
	read := h.readForm(allRows)
	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Go"),
		"observe": map[string]any{"tree": true}})
	return patchedBy{snapshot: res["snapshot_id"].(string), whole: tr.last(t).PostReadKind == engine.PostReadFull,
		observed: testkit.RowLines(res["observe"].(map[string]any)["elements"])}
}

// patchByWait waits for the title the change ends with, making the change
// once the wait listens: the wait's read follows the reports.
func patchByWait(t *testing.T, h *harness, rw *reportLister, _ *traces, c patchCase) patchedBy {
	h.desk.ResetCalls()
	p := startWait(h.c, uint64(h.demo.Form.Window.ID()), map[string]any{"kind": "title", "text": "— done"}, 10000)
	h.waitsListening(t, 1)
	rw.gate.Lock()
	c.change(h.demo.Form)
	h.demo.Form.Window.SetTitle("Form Demo — done")
	rw.gate.Unlock()
	res := h.metWait(t, <-p.done)
	calls := h.desk.Calls()
	return patchedBy{snapshot: res["snapshot_id"].(string), whole: countCalls(calls, "ReadStructure")+countCalls(calls, "ReadTree") > 1}
}

// allRows reads every row of the form.
var allRows = map[string]any{"max_elements": 1000}

// keptRead is a read of snapshot id's every row, which a read made now
// keeps (the app reported nothing since it was made).
func keptRead(t *testing.T, h *harness, id string) map[string]any {
	t.Helper()
	r := h.readForm(allRows)
	if r["snapshot_id"] != id || r["snapshot_kept"] != true {
		t.Fatalf("a read now did not keep snapshot %s: %v (kept %v)", id, r["snapshot_id"], r["snapshot_kept"])
	}
	return r
}

// wholeRows are the rows of a whole read of the form (read arguments
// args), made past the reuse bound so that no snapshot is kept.
func wholeRows(t *testing.T, h *harness, args map[string]any) []string {
	t.Helper()
	h.clock.Advance(3 * time.Second)
	r := h.readForm(args)
	if r["snapshot_kept"] == true {
		t.Fatal("a read past the reuse bound kept a snapshot")
	}
	return testkit.RowLines(r["elements"])
}

// sameRows fails the test when got, the rows of what, differ from want,
// a whole read's.
func sameRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s differ from a whole read's:\n%s\nwhole:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// addItems adds n list items, Extra 0 to Extra n-1, to the form's list.
func addItems(f *mock.Form, n int) {
	for i := 0; i < n; i++ {
		f.Items.Add("list_item", fmt.Sprintf("Extra %d", i))
	}
}

// withoutChildNamed is cs with its children-changed reports naming no
// child, as AT-SPI sends them when the child is in another process.
func withoutChildNamed(cs []engine.Change) []engine.Change {
	for i := range cs {
		if cs[i].Op != "" {
			cs[i].Op, cs[i].Child, cs[i].Index = "", "", -1
		}
	}
	return cs
}

// reportedOn is cs with the reports about from replaced by one subtree
// report about to, as a toolkit reports a selection or the rows a view
// shows on the view.
func reportedOn(cs []engine.Change, from, to engine.ElementID) []engine.Change {
	out := slices.DeleteFunc(cs, func(c engine.Change) bool { return c.Source == from })
	return append(out, engine.Change{Kind: engine.ChangeSubtree, Source: to, Index: -1})
}
