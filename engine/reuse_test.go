package engine_test

import (
	"context"
	"encoding/json"
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

// What a read, an act or a wait reads when the app reports its changes:
// the reads an act leaves out (reuse.go) and the one patcher that acts and
// waits share (patch.go). The two share their helpers: the acts' traces,
// and the whole reads a patched or kept read must equal.

// traces collects the ActTrace of every act.
type traces struct {
	mu  sync.Mutex
	all []engine.ActTrace
}

func (tr *traces) last(t *testing.T) engine.ActTrace {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.all) == 0 {
		t.Fatal("no act was traced")
	}
	return tr.all[len(tr.all)-1]
}

func withTraces(tr *traces) harnessOption {
	return func(o *engine.Options, h *harness) {
		o.ActTrace = func(a engine.ActTrace) {
			tr.mu.Lock()
			tr.all = append(tr.all, a)
			tr.mu.Unlock()
		}
	}
}

// TestActsLeaveOutReads checks the reads an act leaves out (reuse.go): a
// fresh read stands in for the read before the act when nothing changed
// since, and the settled read is built from the elements that changed. In
// every case the act's settled read must equal a whole read of the window
// made right after it.
func TestActsLeaveOutReads(t *testing.T) {
	tr := &traces{}
	h := newHarness(t, nil, withTraces(tr))
	h.start(nil)
	f := h.demo.Form

	// The first read starts the backend listening to the app, so the
	// first act can already take it for its read before.
	read := h.readForm(nil)
	h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Remember me")})
	if !tr.last(t).PreReadReused {
		t.Fatal("the first act did not reuse the read just made (the read started the app's reports)")
	}

	acts := []struct {
		name      string
		role, lbl string
		tool      string
		args      map[string]any
		wantPost  string // engine.PostRead*
		wantDiff  string // a label the diff must name ("" for none)
		beforeAct func()
	}{
		{name: "a check box", role: "check_box", lbl: "Dark mode", tool: "click", wantPost: engine.PostReadPatched, wantDiff: "Dark mode"},
		{name: "a radio button", role: "radio_button", lbl: "Weekly", tool: "click", wantPost: engine.PostReadPatched, wantDiff: "Weekly"},
		{name: "typing into an entry", role: "entry", lbl: "City", tool: "type_text", args: map[string]any{"text": " West"}, wantPost: engine.PostReadPatched, wantDiff: "City"},
		{name: "a slider's value", role: "slider", lbl: "Brightness", tool: "set_value", args: map[string]any{"value": "0.8"}, wantPost: engine.PostReadPatched, wantDiff: "Brightness"},
		{name: "a late change after Save", role: "push_button", lbl: "Save", tool: "click", wantPost: engine.PostReadPatched, wantDiff: "Saved (1)"},
		{name: "a row added (spliced in)", role: "push_button", lbl: "Add row", tool: "click", wantPost: engine.PostReadPatched, wantDiff: "Item 4"},
	}
	for _, a := range acts {
		t.Run(a.name, func(t *testing.T) {
			read := h.readForm(map[string]any{"max_elements": 400})
			args := map[string]any{"element_token": testkit.Token(t, read, a.role, a.lbl), "observe": map[string]any{"tree": true}}
			for k, v := range a.args {
				args[k] = v
			}
			res := h.ok(a.tool, args)
			got := tr.last(t)
			if !got.PreReadReused {
				t.Errorf("the read just made was not reused (nothing changed since)")
			}
			if got.PostReadKind != a.wantPost {
				t.Errorf("settled read made %q, want %q", got.PostReadKind, a.wantPost)
			}
			diff, _ := json.Marshal(res["diff"])
			if !strings.Contains(string(diff), a.wantDiff) {
				t.Errorf("diff does not name %q: %s", a.wantDiff, diff)
			}
			// The settled read shown by observe equals a whole read made now
			// (past the reuse bound: a read now would keep the act's
			// snapshot, and compare it with itself).
			obs := res["observe"].(map[string]any)
			h.clock.Advance(engine.ReuseMaxAge + time.Second)
			fresh := h.readForm(nil)
			if fresh["snapshot_kept"] == true {
				t.Fatal("the read after the act kept a snapshot instead of reading the window whole")
			}
			if want, got := testkit.RowLines(fresh["elements"]), testkit.RowLines(obs["elements"]); strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("the settled read differs from a whole read:\nsettled:\n%s\nwhole:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}

	t.Run("a second act with a token of the same read", func(t *testing.T) {
		read := h.readForm(nil)
		h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Send me updates")})
		// The first act's settled read stands in for the read the token
		// came from: the structure is the same and nothing changed since.
		res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Show notifications")})
		if !tr.last(t).PreReadReused {
			t.Error("the first act's settled read was not reused")
		}
		diff, _ := json.Marshal(res["diff"])
		if !strings.Contains(string(diff), "Show notifications") || strings.Contains(string(diff), "Send me updates") {
			t.Errorf("the second act's diff must hold only its own change: %s", diff)
		}
	})

	t.Run("a change after the read", func(t *testing.T) {
		read := h.readForm(nil)
		f.Hint.SetName("The app changed this by itself")
		h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Play sounds")})
		if tr.last(t).PreReadReused {
			t.Fatal("a read the app changed since was reused")
		}
	})

	t.Run("an old read", func(t *testing.T) {
		read := h.readForm(nil)
		h.clock.Advance(engine.ReuseMaxAge + time.Second)
		h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Start at login")})
		if tr.last(t).PreReadReused {
			t.Fatal("a read older than the reuse bound was reused")
		}
	})
}

// TestWhatAReadBeforeAnActStandsIn: the model's read stands in for the
// read before an act when what the app reported since asks for no
// element to be read (engine/patch.go's rules): nothing, a frame moved,
// or an element the read does not hold changed. Any report the patcher
// would read an element for means a fresh read. Either way the act's
// settled read is a whole read's.
func TestWhatAReadBeforeAnActStandsIn(t *testing.T) {
	cases := []struct {
		name   string
		opts   []harnessOption
		change func(f *mock.Form)
		reused bool
	}{
		{"nothing reported", nil, func(*mock.Form) {}, true},
		{"a frame moved", nil, func(f *mock.Form) { f.Logo.SetFrame(engine.Rect{X: 400, Y: 700, W: 48, H: 24}) }, true},
		{"an element past the read's depth", []harnessOption{withZoomBudget(engine.Budget{MaxElements: 5000, MaxDepth: 3})},
			func(f *mock.Form) { f.LanguageMenu.Find("menu_item", "Deutsch").SetName("German") }, false},
		{"a label's name", nil, func(f *mock.Form) { f.Status.SetName("Saved by someone else") }, false},
		{"a value", nil, func(f *mock.Form) { f.Email.SetValue("ada@engine.org") }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &traces{}
			h := newHarness(t, nil, append([]harnessOption{withTraces(tr)}, c.opts...)...)
			h.start(nil)
			read := h.readForm(allRows)
			c.change(h.demo.Form)
			res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Remember me"),
				"observe": map[string]any{"tree": true}})
			if got := tr.last(t).PreReadReused; got != c.reused {
				t.Errorf("the read before the act was reused: %v, want %v", got, c.reused)
			}
			observed := testkit.RowLines(res["observe"].(map[string]any)["elements"])
			sameRows(t, "the act's observed rows", observed, wholeRows(t, h, nil))
		})
	}
}

// TestAReadKeptAcrossAFrameMoveAimsWhereTheElementIs: after a frame move
// the model's read still stands in for the read before a takeover click,
// with its frames stale: the element's frame is read again, so the
// pointer goes where the element is now, not where the read saw it.
func TestAReadKeptAcrossAFrameMoveAimsWhereTheElementIs(t *testing.T) {
	tr := &traces{}
	h := takeoverHarness(t, withTraces(tr))
	// The last element in tree order is the one a click reaches where
	// it lies (mock: the last element holding the point).
	h.demo.Form.Window.Root().Add("push_button", "Last")
	read := h.readForm(allRows)
	moved := engine.Rect{X: 500, Y: 700, W: 80, H: 20}
	h.demo.Form.Window.Find("push_button", "Last").SetFrame(moved)
	h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Last"), "delivery_mode": "foreground"})
	if !tr.last(t).PreReadReused {
		t.Error("a frame move alone made the act read the window again")
	}
	var pressedAt *engine.Point
	var at engine.Point
	for _, ev := range h.desk.Sent() {
		switch ev.Kind {
		case engine.InputMotion:
			at = ev.At
		case engine.InputButtonPress:
			if pressedAt == nil {
				p := at
				pressedAt = &p
			}
		}
	}
	if pressedAt == nil || !moved.Contains(*pressedAt) {
		t.Fatalf("the click went to %v, not into the element's frame now, %v", pressedAt, moved)
	}
}

// TestUnchangedWindowsKeepTheirSnapshot: a read of a window whose app
// reported no change since the last read keeps that snapshot (the same id,
// its tokens still valid, snapshot_kept) and reads only the shown rows'
// frames again; a change the app reports, or age, means a fresh read.
func TestUnchangedWindowsKeepTheirSnapshot(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	first := h.readForm(nil)
	if _, said := first["snapshot_kept"]; said {
		t.Fatalf("a first read keeps nothing: %v", first["snapshot_kept"])
	}
	structureReads := len(h.desk.CallsOf("ReadStructure"))
	frames := len(h.desk.CallsOf("ReadFrames"))

	again := h.readForm(nil)
	if again["snapshot_id"] != first["snapshot_id"] || again["snapshot_kept"] != true {
		t.Fatalf("a read of an unchanged window keeps the snapshot: %v then %v (kept %v)", first["snapshot_id"], again["snapshot_id"], again["snapshot_kept"])
	}
	if n := len(h.desk.CallsOf("ReadStructure")); n != structureReads {
		t.Fatalf("the kept read read the window's structure again (%d reads)", n-structureReads)
	}
	if n := len(h.desk.CallsOf("ReadFrames")); n != frames+1 {
		t.Fatalf("the kept read reads its shown rows' frames again: %d calls", n-frames)
	}
	if again["tree_text"] != first["tree_text"] {
		t.Fatal("the kept read shows what the first showed")
	}
	// Its tokens act. The act's settled read is the window as it is now:
	// the next read keeps that one, with the act's change in it.
	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, again, "check_box", "Remember me")})
	after := h.readForm(nil)
	if after["snapshot_id"] != res["snapshot_id"] || after["snapshot_kept"] != true || after["snapshot_id"] == again["snapshot_id"] {
		t.Fatalf("a read after an act keeps the act's settled snapshot %v: %v (kept %v)", res["snapshot_id"], after["snapshot_id"], after["snapshot_kept"])
	}
	if !h.demo.Form.Remember.HasState("checked") || !strings.Contains(after["tree_text"].(string), `"Remember me" checked`) {
		t.Fatalf("the kept read shows the act's change:\n%s", after["tree_text"])
	}

	// A change the app reports by itself.
	kept := h.readForm(nil)
	if kept["snapshot_kept"] != true {
		t.Fatal("the window is unchanged since the last read")
	}
	h.demo.Form.Status.SetName("Saved by someone else")
	if r := h.readForm(nil); r["snapshot_kept"] == true {
		t.Fatal("a read after the app reported a change keeps the old snapshot")
	}

	// Age: a snapshot older than the reuse bound is read again.
	h.readForm(nil)
	h.clock.Advance(engine.ReuseMaxAge + time.Second)
	if r := h.readForm(nil); r["snapshot_kept"] == true {
		t.Fatal("a read kept a snapshot older than the reuse bound")
	}
}

// TestAKeptReadReadsAgainWhatWasPlacedSince: an element listed with no
// area and no text, as Writer lists a paragraph it has not laid out yet,
// is placed and filled while its app says nothing of the text (nothing at
// all, or only that a frame moved). The next read keeps the snapshot, and
// reads that row's details again whole: it shows the text a whole read
// shows, never a placed paragraph with none. Rows that were on screen
// before have only their frames read again.
func TestAKeptReadReadsAgainWhatWasPlacedSince(t *testing.T) {
	for _, c := range []struct {
		name  string
		keeps func(engine.Change) bool // the reports about the paragraph the app makes
	}{
		{"no report", func(engine.Change) bool { return false }},
		{"only a frame move", func(c engine.Change) bool { return c.Kind == engine.ChangeExtents }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rw := &reportLister{}
			h := newHarness(t, nil, withBackend(func(d *mock.Desktop) engine.Backend {
				rw.Desktop = d
				return rw
			}))
			h.start(nil)
			f := h.demo.Form
			para := f.Window.Root().Add("paragraph", "").SetFrame(engine.Rect{}).SetValue("")
			rw.rewrite = func(cs []engine.Change) ([]engine.Change, bool) {
				return slices.DeleteFunc(cs, func(ch engine.Change) bool { return ch.Source == para.ID() && !c.keeps(ch) }), true
			}
			first := h.readForm(allRows)
			if row := testkit.Row(t, first, "paragraph", ""); row["value"] != "" {
				t.Fatalf("the unplaced paragraph reads %v", row)
			}
			details := len(h.desk.CallsOf("ReadDetails"))

			const text = "Paragraph 2: the quick brown fox"
			para.SetFrame(engine.Rect{X: 10, Y: 300, W: 600, H: 15}).SetValue(text)
			again := h.readForm(allRows)
			if again["snapshot_kept"] != true || again["snapshot_id"] != first["snapshot_id"] {
				t.Fatalf("the app reported nothing that asks for a read, yet the snapshot was not kept: %v", again["snapshot_kept"])
			}
			if row := testkit.Row(t, again, "paragraph", ""); row["value"] != text {
				t.Fatalf("the paragraph placed since the kept read shows %v, want its text %q", row, text)
			}
			calls := h.desk.CallsOf("ReadDetails")
			if len(calls) != details+1 || calls[len(calls)-1].Nodes != 1 {
				t.Fatalf("the kept read read details %d times (the last of %v rows); want once, of the placed row alone", len(calls)-details, calls[len(calls)-1].Nodes)
			}
			sameRows(t, "the kept read", testkit.RowLines(keptRead(t, h, first["snapshot_id"].(string))["elements"]), wholeRows(t, h, allRows))
		})
	}
}

// TestFindInAnUnchangedWindowKeepsItsSnapshot: find_elements reads the
// window as a read does, so a find in a window whose app reported no
// change since the last read keeps that read's snapshot (its tokens are
// the read's) and asks the app only for the matches' frames; a change the
// app reports means a fresh read.
func TestFindInAnUnchangedWindowKeepsItsSnapshot(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	read := h.readForm(nil)
	structureReads := len(h.desk.CallsOf("ReadStructure"))
	win := uint64(h.demo.Form.Window.ID())
	found := h.ok("find_elements", map[string]any{"window_id": win, "role": "check_box", "label": "remember"})
	if found["snapshot_id"] != read["snapshot_id"] {
		t.Fatalf("a find in an unchanged window: snapshot %v, want the read's %v", found["snapshot_id"], read["snapshot_id"])
	}
	if n := len(h.desk.CallsOf("ReadStructure")); n != structureReads {
		t.Fatalf("the find read the window's structure again (%d reads)", n-structureReads)
	}
	rows := found["elements"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["element_token"] != testkit.Token(t, read, "check_box", "Remember me") {
		t.Fatalf("the find's row is not the read's: %v", rows)
	}
	h.demo.Form.Status.SetName("Saved by someone else")
	if again := h.ok("find_elements", map[string]any{"window_id": win, "role": "check_box"}); again["snapshot_id"] == read["snapshot_id"] {
		t.Fatal("a find after the app reported a change kept the old snapshot")
	}
}

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
	{name: "child added, then a report about the child itself",
		change: func(f *mock.Form) { f.Items.AddAt(1, "list_item", "Item 1¼") },
		rewrite: func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return aboutTheAdded(f, cs, "Item 1¼", false), true
		}},
	{name: "a text node replaced as Firefox reports it: removed, added without its index, a report about the new one",
		change: func(f *mock.Form) {
			f.Items.Find("list_item", "Item 2").Remove()
			f.Items.AddAt(1, "list_item", "Item two")
		},
		rewrite: func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			return aboutTheAdded(f, cs, "Item two", true), true
		}},
	{name: "a report about a child of an added child", whole: true,
		change: func(f *mock.Form) {
			g := f.Items.AddAt(0, "panel", "Group")
			g.Add("label", "In the group")
		},
		rewrite: func(f *mock.Form, cs []engine.Change) ([]engine.Change, bool) {
			in := f.Items.Find("panel", "Group").Find("label", "In the group")
			return append(cs, engine.Change{Kind: engine.ChangeStructure, Source: in.ID(), Index: -1}), true
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
	h.clock.Advance(engine.ReuseMaxAge + time.Second)
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

// aboutTheAdded is cs with a structural report about the list item
// labelled name, which cs reports added, after them all; without its
// index when noIndex (Firefox names the child but gives -1).
func aboutTheAdded(f *mock.Form, cs []engine.Change, name string, noIndex bool) []engine.Change {
	child := f.Items.Find("list_item", name).ID()
	for i := range cs {
		if noIndex && cs[i].Op == engine.ChildAdded {
			cs[i].Index = -1
		}
	}
	return append(cs, engine.Change{Kind: engine.ChangeStructure, Source: child, Index: -1})
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

// TestASettledReadMadeEarlyStandsOnlyWhenNothingCameAfter: while an act's
// quiet period runs, its settled read is patched early (settle.go); it
// stands only when the app reported nothing after it. A change the app
// reports after an early patch, within the quiet period, is in the act's
// diff and settled read all the same: patched early again, or after the
// quiet period once the early patches are spent. The quiet period is long
// here (1 s) so that the early patches are surely made inside it; the test
// waits for each by its call into the app, not by time.
func TestASettledReadMadeEarlyStandsOnlyWhenNothingCameAfter(t *testing.T) {
	cases := []struct {
		name  string
		later int  // the app changes again after this many early patches
		early bool // the settled read is an early patch
	}{
		{name: "nothing after the early patch", early: true},
		{name: "a change after the first early patch", later: 1, early: true},
		{name: "a change after every early patch", later: engine.MaxEarlyPatches},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &traces{}
			h := newHarness(t, nil, withTraces(tr), func(o *engine.Options, _ *harness) {
				o.SettleQuiet, o.SettleMax = time.Second, 10*time.Second
			})
			h.start(nil)
			f := h.demo.Form
			f.Window.Root().Add("push_button", "Go").OnAction("click", func(*mock.ActionContext) { f.Status.SetName("Went") })
			read := h.readForm(allRows)
			refreshes := len(h.desk.CallsOf("Refresh"))
			changed := make(chan struct{})
			go func() {
				defer close(changed)
				for k := 1; k <= c.later; k++ {
					if !testkit.Poll(10*time.Second, func() bool { return len(h.desk.CallsOf("Refresh")) >= refreshes+k }) {
						return
					}
					f.Hint.SetName(fmt.Sprintf("Changed later %d", k))
				}
			}()
			res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Go"),
				"observe": map[string]any{"tree": true}})
			<-changed
			got := tr.last(t)
			if got.PostReadEarly != c.early || got.PostReadKind != engine.PostReadPatched {
				t.Errorf("settled read early %v (%s), want early %v, patched", got.PostReadEarly, got.PostReadKind, c.early)
			}
			want := []string{"Went"}
			if c.later > 0 {
				want = append(want, fmt.Sprintf("Changed later %d", c.later))
			}
			diff, _ := json.Marshal(res["diff"])
			for _, w := range want {
				if !strings.Contains(string(diff), w) {
					t.Errorf("the diff does not name %q: %s", w, diff)
				}
			}
			sameRows(t, "the act's observed rows", testkit.RowLines(res["observe"].(map[string]any)["elements"]), wholeRows(t, h, nil))
		})
	}
}
