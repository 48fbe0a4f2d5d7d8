package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestAReadAfterAnActCostsWhatAKeptReadCosts: a model nearly always reads
// the window right after acting. That read keeps the act's settled read
// (its id and tokens), and asks the app for what a kept re-read of a
// whole read asks: the shown rows' frames, and details only of the rows
// the settled read read again without them (the elements the patch read
// again or spliced in). It used to read
// every row's details again, each time, as the settled read is a patch
// with its frames stale, and the next read again, as what a kept read
// read was dropped after it (engine/reuse.go details). What it shows is
// what a whole read shows.
func TestAReadAfterAnActCostsWhatAKeptReadCosts(t *testing.T) {
	acts := []struct {
		name, role, label, tool string
		args                    map[string]any
	}{
		{name: "a check box", role: "check_box", label: "Dark mode", tool: "click"},
		{name: "typing into an entry", role: "entry", label: "City", tool: "type_text", args: map[string]any{"text": " West"}},
		{name: "a slider's value", role: "slider", label: "Brightness", tool: "set_value", args: map[string]any{"value": "0.8"}},
		{name: "a row added", role: "push_button", label: "Add row", tool: "click"},
	}
	for _, a := range acts {
		t.Run(a.name, func(t *testing.T) {
			h, read := formRead(t)
			args := map[string]any{"element_token": testkit.Token(t, read, a.role, a.label)}
			for k, v := range a.args {
				args[k] = v
			}
			h.desk.ResetCalls()
			res := h.ok(a.tool, args)
			patched := countNodes(h.desk.Calls(), "Refresh") + countNodes(h.desk.Calls(), "ReadSubtree")

			h.desk.ResetCalls()
			after := keptRead(t, h, res["snapshot_id"].(string))
			calls := h.desk.Calls()
			if n := countNodes(calls, "ReadDetails"); n > patched {
				t.Errorf("the read after the act read the details of %d rows again; the settled read read %d again", n, patched)
			}
			if n := countNodes(calls, "ReadFrames"); n == 0 {
				t.Error("the read after the act did not read its rows' frames again")
			}
			// The next read keeps the same snapshot, with the details
			// this one read: it reads frames alone. The rows of both are
			// the window as it is now.
			h.desk.ResetCalls()
			again := keptRead(t, h, res["snapshot_id"].(string))
			if n := countNodes(h.desk.Calls(), "ReadDetails"); n > 0 {
				t.Errorf("the second read after the act read the details of %d rows again", n)
			}
			rows := testkit.RowLines(after["elements"])
			sameRows(t, "the rows of a read after the act", rows, wholeRows(t, h, allRows))
			sameRows(t, "the rows of the read after it", testkit.RowLines(again["elements"]), rows)
		})
	}
}

// formRead is a session on the demo's apps and a read of the form's every
// row, the read a model acts from.
func formRead(t *testing.T) (*harness, map[string]any) {
	t.Helper()
	h := newHarness(t, nil)
	h.start(nil)
	return h, h.readForm(allRows)
}

// TestAChangeAfterAnActShowsInTheNextRead: what the app changes after an
// act's settled read is in the next read, whichever way the read is made:
// a change the reports ask an element to be read for makes a fresh read;
// a frame that moved, reported or not, keeps the settled read and shows
// the element where it is now.
func TestAChangeAfterAnActShowsInTheNextRead(t *testing.T) {
	cases := []struct {
		name   string
		change func(f *mock.Form)
		kept   bool
		want   string // in the next read's tree_text
	}{
		{"a label's name", func(f *mock.Form) { f.Status.SetName("Saved by someone else") }, false, "Saved by someone else"},
		{"a value", func(f *mock.Form) { f.Email.SetValue("ada@engine.org") }, false, "ada@engine.org"},
		{"a check box unchecked", func(f *mock.Form) { f.Updates.RemoveStates("checked") }, false, ""},
		{"a frame moved", func(f *mock.Form) { f.Logo.SetFrame(engine.Rect{X: 400, Y: 700, W: 48, H: 24}) }, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, read := formRead(t)
			res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Remember me")})
			keptRead(t, h, res["snapshot_id"].(string)) // the settled read stands, with its details

			c.change(h.demo.Form)
			next := h.readForm(allRows)
			if kept := next["snapshot_kept"] == true; kept != c.kept {
				t.Errorf("the read after the change kept the act's snapshot: %v, want %v", kept, c.kept)
			}
			if !strings.Contains(next["tree_text"].(string), c.want) {
				t.Errorf("the read after the change does not show %q:\n%s", c.want, next["tree_text"])
			}
			sameRows(t, "the rows of the read after the change", testkit.RowLines(next["elements"]), wholeRows(t, h, allRows))
		})
	}
}

// TestAKeptReadKeepsTheDetailsItRead: a kept read that shows rows its
// snapshot never read the details of (the read before showed fewer) reads
// them once; the next read keeping the snapshot reads frames alone, and
// shows the same rows, a whole read's.
func TestAKeptReadKeepsTheDetailsItRead(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	first := h.readForm(map[string]any{"max_elements": 10})
	id := first["snapshot_id"].(string)
	h.desk.ResetCalls()
	more := keptRead(t, h, id)
	if n := countNodes(h.desk.Calls(), "ReadDetails"); n == 0 {
		t.Fatal("the read of all rows read no details the read of 10 did not hold")
	}
	h.desk.ResetCalls()
	again := keptRead(t, h, id)
	if n := countNodes(h.desk.Calls(), "ReadDetails"); n > 0 {
		t.Errorf("the read after it read the details of %d rows again", n)
	}
	if n := countNodes(h.desk.Calls(), "ReadFrames"); n != len(again["elements"].([]any)) {
		t.Errorf("the read after it read %d rows' frames again, want its %d rows'", n, len(again["elements"].([]any)))
	}
	rows := testkit.RowLines(more["elements"])
	sameRows(t, "the rows of the second kept read", testkit.RowLines(again["elements"]), rows)
	sameRows(t, "the rows of the kept reads", rows, wholeRows(t, h, allRows))
}

// TestKeptReadsAtOnce: reads that keep the same snapshot at once, each
// showing a different number of rows, and an act on a token of it, in one
// session: each read's copy takes the kept snapshot's place as the others
// copy it (engine/reuse.go details). Run under -race, as the engine's
// tests are; each call must succeed, and a read after them shows the
// window as a whole read does.
func TestKeptReadsAtOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	read := h.readForm(map[string]any{"max_elements": 10})
	win := uint64(h.demo.Form.Window.ID())
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"get_window_state", map[string]any{"window_id": win, "max_elements": 20}},
		{"get_window_state", map[string]any{"window_id": win, "max_elements": 1000}},
		{"find_elements", map[string]any{"window_id": win, "role": "check_box"}},
		{"get_window_state", map[string]any{"window_id": win, "max_elements": 50}},
		{"type_text", map[string]any{"element_token": testkit.Token(t, read, "entry", "Name"), "text": "!", "observe": map[string]any{"tree": true}}},
	}
	errs := make(chan string, len(calls)*3)
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				raw, _ := json.Marshal(c.args)
				if r := h.c.Call(context.Background(), c.tool, raw); r.Err != nil {
					errs <- c.tool + ": " + r.Text
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	after := h.readForm(allRows)
	sameRows(t, "the rows of a read after them", testkit.RowLines(after["elements"]), wholeRows(t, h, allRows))
}
