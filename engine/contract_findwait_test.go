package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// find_elements and wait_for on the mock desktop (docs/contract.md#find-elements
// and #wait-for): what they match, that their tokens are a read's,
// that secure rows stay without values, and that a wait ends on the app's
// change, at its timeout, or when the call is cancelled.

func (h *harness) find(args map[string]any) map[string]any {
	h.t.Helper()
	args["window_id"] = uint64(h.demo.Form.Window.ID())
	return h.ok("find_elements", args)
}

// findFirst is the first row find_elements answers args with. A find
// without a list of rows (testkit.Rows) or with none fails the test
// showing the answer, where indexing it would panic.
func (h *harness) findFirst(args map[string]any) map[string]any {
	h.t.Helper()
	res := h.find(args)
	rows := testkit.Rows(h.t, res)
	if len(rows) == 0 {
		h.t.Fatalf("find_elements %v found no row: %v", args, res)
	}
	return rows[0]
}

func foundLabels(t *testing.T, res map[string]any) []string {
	t.Helper()
	var out []string
	for _, row := range testkit.Rows(t, res) {
		label, _ := row["label"].(string)
		out = append(out, label)
	}
	return out
}

func testFindElements(t *testing.T, h *harness) {
	h.fail(engine.CodeNoSession, "find_elements", map[string]any{"app": "Form Demo", "role": "push_button"})
	h.start(nil)

	cases := []struct {
		name  string
		args  map[string]any
		want  []string // labels, in tree order
		count int      // match_count
	}{
		{"by role and label", map[string]any{"role": "push_button", "label": "SAV"}, []string{"Save"}, 1},
		{"by tree_text's short role", map[string]any{"role": "button", "label": "save"}, []string{"Save"}, 1},
		{"by states", map[string]any{"role": "check_box", "states": []any{"checked"}}, []string{"Send me updates", "Show notifications"}, 2},
		{"disabled is a state", map[string]any{"states": []any{"disabled"}, "role": "push_button"}, []string{"Export"}, 1},
		{"max_results cuts, match_count counts all", map[string]any{"role": "list_item", "max_results": 2}, []string{"Item 1", "Item 2"}, 3},
		{"no match", map[string]any{"label": "nothing is called this"}, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := h.find(c.args)
			if got := foundLabels(t, res); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("labels %q, want %q", got, c.want)
			}
			if testkit.Int(t, res, "match_count") != c.count || res["truncated"] != (c.count > len(c.want)) {
				t.Fatalf("match_count %v truncated %v, want %d", res["match_count"], res["truncated"], c.count)
			}
		})
	}

	// A row carries its token and its ancestors' labels.
	save := h.findFirst(map[string]any{"role": "push_button", "label": "save"})
	if save["path"] != "Actions" || save["frame"] == nil {
		t.Fatalf("save row: %v", save)
	}
	// Its token is a read's token: it acts, and a read's root takes it.
	h.ok("click", map[string]any{"element_token": save["element_token"]})
	item := h.findFirst(map[string]any{"role": "list_item", "label": "item 1"})
	h.ok("get_window_state", map[string]any{"root": item["element_token"]})

	// Staleness is a read's: a row added makes the token stale.
	addRow := h.findFirst(map[string]any{"label": "add row"})
	h.ok("click", map[string]any{"element_token": addRow["element_token"]})
	h.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": addRow["element_token"]})

	// A secure row: found, marked, never a value (harness.check fails on
	// the canary anywhere in the result).
	h.desk.LeakSecureValues(true)
	pw := h.findFirst(map[string]any{"role": "password_text"})
	if pw["secure"] != true || pw["value"] != nil {
		t.Fatalf("secure row: %v", pw)
	}
	h.desk.LeakSecureValues(false)

	// A reply for one button stays small.
	res := h.call("find_elements", map[string]any{"app": "Form Demo", "role": "push_button", "label": "help"})
	if b, _ := json.Marshal(res.Structured); len(b)+len(res.Text) > 2048 {
		t.Fatalf("a find for one button replied %d bytes", len(b)+len(res.Text))
	}

	for _, bad := range []map[string]any{
		{"app": "Form Demo", "states": []any{"shiny"}},
		{"app": "Form Demo", "max_results": 0},
		{"app": "Form Demo", "max_results": 101},
	} {
		h.fail(engine.CodeInvalidArguments, "find_elements", bad)
	}
	h.fail(engine.CodeWindowTargetNotFound, "find_elements", map[string]any{"app": "No Such App"})
}

func (h *harness) waitFor(cond map[string]any, timeoutMs int) map[string]any {
	h.t.Helper()
	return h.ok("wait_for", map[string]any{"window_id": uint64(h.demo.Form.Window.ID()), "condition": cond, "timeout_ms": timeoutMs})
}

func testWaitFor(t *testing.T, h *harness) {
	h.fail(engine.CodeNoSession, "wait_for", map[string]any{"app": "Form Demo", "condition": map[string]any{"kind": "title", "text": "x"}})
	h.start(nil)
	form := h.demo.Form
	item2 := testkit.Field[string](t, h.findFirst(map[string]any{"role": "list_item", "label": "item 2"}), "element_token")

	cases := []struct {
		name   string
		change func()
		cond   map[string]any
		check  func(t *testing.T, res map[string]any)
	}{
		{"a label's text", func() { form.Status.SetName("Saved (9)") },
			map[string]any{"kind": "text", "role": "label", "text": "saved (9)"},
			func(t *testing.T, res map[string]any) {
				if el := testkit.Field[map[string]any](t, res, "element"); el["label"] != "Saved (9)" || el["path"] != "Status" {
					t.Fatalf("element: %v", el)
				}
			}},
		{"an element appears", func() { form.Items.Add("list_item", "Item 9") },
			map[string]any{"kind": "appears", "role": "list_item", "label": "item 9"},
			func(t *testing.T, res map[string]any) {
				// The element's token is a read's token.
				tok := testkit.Field[string](t, testkit.Field[map[string]any](t, res, "element"), "element_token")
				if r := h.ok("get_window_state", map[string]any{"root": tok}); testkit.Int(t, r, "element_count") != 1 {
					t.Fatalf("a drill-down on the found token: %v", r["tree_text"])
				}
			}},
		{"an element disappears", func() { form.Items.Find("list_item", "Item 2").Remove() },
			map[string]any{"kind": "disappears", "element_token": item2},
			func(t *testing.T, res map[string]any) {
				if res["element"] != nil {
					t.Fatalf("a disappearance has no element: %v", res)
				}
			}},
		{"a value", func() { form.Email.SetValue("ada@analytical.org") },
			map[string]any{"kind": "text", "role": "entry", "label": "email", "text": "@analytical"},
			func(t *testing.T, res map[string]any) {
				if el := testkit.Field[map[string]any](t, res, "element"); el["value"] != "ada@analytical.org" {
					t.Fatalf("element: %v", el)
				}
			}},
		{"the title", func() { form.Window.SetTitle("Form Demo — Saved") },
			map[string]any{"kind": "title", "text": "— saved"},
			func(t *testing.T, res map[string]any) {
				if testkit.Field[map[string]any](t, res, "window")["title"] != "Form Demo — Saved" {
					t.Fatalf("window: %v", res["window"])
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Not met before the change: a zero timeout answers met:false.
			if res := h.waitFor(c.cond, 0); res["met"] != false {
				t.Fatalf("met before the change: %v", res)
			}
			h.desk.After(30*time.Millisecond, c.change)
			res := h.waitFor(c.cond, 10000)
			if res["met"] != true {
				t.Fatalf("not met after the change: %v", res)
			}
			c.check(t, res)
		})
	}

	// The timeout: met false, not an error, with a snapshot to act on.
	res := h.waitFor(map[string]any{"kind": "appears", "label": "never shown"}, 50)
	if res["met"] != false || res["element"] != nil || res["snapshot_id"] == "" {
		t.Fatalf("timeout: %v", res)
	}

	// Cancelling the call ends the wait.
	ctx, cancel := context.WithCancel(context.Background())
	h.desk.After(30*time.Millisecond, cancel)
	args, _ := json.Marshal(map[string]any{"app": "Form Demo", "timeout_ms": 30000,
		"condition": map[string]any{"kind": "appears", "label": "never shown"}})
	r := h.c.Call(ctx, "wait_for", args)
	h.check("wait_for", r)
	if r.Err == nil || r.Err.Code != engine.CodeAppNotResponding {
		t.Fatalf("a cancelled wait: %s", r.Text)
	}

	for _, bad := range []map[string]any{
		{"app": "Form Demo"},
		{"app": "Form Demo", "condition": map[string]any{"kind": "soon"}},
		{"app": "Form Demo", "condition": map[string]any{"kind": "appears"}},
		{"app": "Form Demo", "condition": map[string]any{"kind": "text", "role": "label"}},
		{"app": "Form Demo", "condition": map[string]any{"kind": "title"}},
		{"app": "Form Demo", "condition": map[string]any{"kind": "title", "text": "x"}, "timeout_ms": 30001},
	} {
		h.fail(engine.CodeInvalidArguments, "wait_for", bad)
	}
	h.fail(engine.CodeStaleElementToken, "wait_for", map[string]any{"app": "Form Demo", "condition": map[string]any{"kind": "disappears", "element_token": "s999999:1"}})
}
