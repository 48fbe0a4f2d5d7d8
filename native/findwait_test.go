package native_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/schema"
)

// find_elements and wait_for on a real GTK app: a find for one button on the
// 1,000-row synthetic window replies in under 2 KB with a token that
// clicks, and a wait started before the click wakes on the app's change
// report and answers with the status label's new text.
func TestFindAndWaitOnTheSyntheticWindow(t *testing.T) {
	onDesktop(t)
	startSynthetic(t, 1000)
	h := newHarness(t, consentWait)
	grant(t, h, "synthetic.py")
	// The app announces itself once its window has shown, but GTK may
	// still be registering the window's widgets on the bus: a find then
	// matches nothing, as a read would find little, and the model reads
	// again.
	awaitFound(t, h, map[string]any{"app": "Synthetic 1000", "role": "button", "label": "click me"})
	r := h.call("find_elements", map[string]any{"app": "Synthetic 1000", "role": "button", "label": "click me"})
	if r.Err != nil {
		t.Fatal(r.Text)
	}
	noCanary(t, "find", r)
	if err := schema.ValidateOutput("find_elements", asMap(t, r.Structured)); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r.Structured)
	t.Logf("find for one button: %d bytes structured, %d bytes text", len(b), len(r.Text))
	if len(b)+len(r.Text) >= 2048 {
		t.Fatalf("a find for one button replied %d bytes, want under 2 KB", len(b)+len(r.Text))
	}
	found := asMap(t, r.Structured)
	rows := testkit.Rows(t, found)
	if len(rows) != 1 {
		t.Fatalf("want the one Click me button, got %v", rows)
	}
	button := rows[0]

	// The wait starts before the click and ends on the label's change.
	w := waitAcross(t, h, map[string]any{"kind": "text", "role": "label", "text": "clicked 1"}, button["element_token"])
	if err := schema.ValidateOutput("wait_for", asMap(t, w.Structured)); err != nil {
		t.Fatal(err)
	}
	res := asMap(t, w.Structured)
	el, _ := res["element"].(map[string]any)
	if res["met"] != true || el == nil || el["label"] != "clicked 1" {
		t.Fatalf("wait_for: %v", res)
	}
	t.Logf("wait_for met after %v ms", res["waited_ms"])

	// A text that never shows: met false at the timeout, not an error.
	miss := h.ok("wait_for", map[string]any{"app": "Synthetic 1000", "timeout_ms": 300,
		"condition": map[string]any{"kind": "text", "role": "label", "text": "never shown"}})
	if miss["met"] != false {
		t.Fatalf("want met:false, got %v", miss)
	}
}

// A wait for a row the app adds (GTK 3 reports it as a child added under
// its grid, naming it): it is met with the new label's row, the one a
// fresh find returns, and its snapshot has the structure a whole read
// finds, so its token holds.
func TestWaitForAnAddedRowOnTheSyntheticWindow(t *testing.T) {
	onDesktop(t)
	startSynthetic(t, 1000)
	h := newHarness(t, consentWait)
	grant(t, h, "synthetic.py")
	add := awaitFound(t, h, map[string]any{"app": "Synthetic 1000", "role": "button", "label": "add row"})[0].(map[string]any)

	w := waitAcross(t, h, map[string]any{"kind": "appears", "role": "label", "label": "added 1"}, add["element_token"])
	res := asMap(t, w.Structured)
	el, _ := res["element"].(map[string]any)
	if res["met"] != true || el == nil || el["label"] != "Added 1" {
		t.Fatalf("wait_for: %v", res)
	}
	found := h.ok("find_elements", map[string]any{"app": "Synthetic 1000", "role": "label", "label": "added 1"})["elements"].([]any)
	if len(found) != 1 || found[0].(map[string]any)["element_index"] != el["element_index"] || found[0].(map[string]any)["path"] != el["path"] {
		t.Fatalf("the wait's row %v, a fresh find's %v", el, found)
	}
	// The find read the window whole, and a read now stands on that
	// snapshot: it takes the wait's token only if the wait's snapshot has
	// the structure the whole read found.
	h.ok("get_window_state", map[string]any{"app": "Synthetic 1000", "root": el["element_token"]})
}

// waitAcross starts a wait_for on the synthetic window, clicks the element
// of token while it waits, and returns the wait's result, which must not
// be an error.
func waitAcross(t *testing.T, h *harness, cond map[string]any, token any) engine.Result {
	t.Helper()
	waited := make(chan engine.Result, 1)
	go func() {
		waited <- h.call("wait_for", map[string]any{"app": "Synthetic 1000", "timeout_ms": 30000, "condition": cond})
	}()
	h.ok("click", map[string]any{"element_token": token})
	w := <-waited
	if w.Err != nil {
		t.Fatal(w.Text)
	}
	return w
}

// awaitFound runs a find until it returns rows: a fixture that says it is
// ready may still be making its accessible objects (seen under load: the
// first find after start returned none).
func awaitFound(t *testing.T, h *harness, args map[string]any) []any {
	t.Helper()
	return testkit.Await(t, 20*time.Second, "find_elements rows", func() ([]any, error) {
		rows, _ := h.ok("find_elements", args)["elements"].([]any)
		if len(rows) == 0 {
			return nil, fmt.Errorf("no rows yet")
		}
		return rows, nil
	})
}
