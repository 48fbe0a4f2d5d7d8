package native_test

import (
	"encoding/json"
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
	startSynthetic(t, 1000)
	h := newHarness(t, 20*time.Second)
	grant(t, h, "synthetic.py")

	// The app announces itself once its window has shown, but GTK may
	// still be registering the window's widgets on the bus: a find then
	// matches nothing, as a read would find little, and the model reads
	// again. A miss must say why when the window reads empty.
	var r engine.Result
	testkit.Eventually(t, 20*time.Second, "a find of the Click me button", func() bool {
		r = h.call("find_elements", map[string]any{"app": "Synthetic 1000", "role": "button", "label": "click me"})
		if r.Err != nil {
			t.Fatal(r.Text)
		}
		found := asMap(t, r.Structured)
		if found["match_count"] == float64(0) {
			t.Logf("no match yet; hint %v", found["accessibility_hint"])
			return false
		}
		return true
	})
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
	rows := found["elements"].([]any)
	if len(rows) != 1 {
		t.Fatalf("want the one Click me button, got %v", rows)
	}
	button := rows[0].(map[string]any)

	// The wait starts before the click and ends on the label's change.
	waited := make(chan engine.Result, 1)
	go func() {
		waited <- h.call("wait_for", map[string]any{"app": "Synthetic 1000", "timeout_ms": 30000,
			"condition": map[string]any{"kind": "text", "role": "label", "text": "clicked 1"}})
	}()
	h.ok("click", map[string]any{"element_token": button["element_token"]})
	w := <-waited
	if w.Err != nil {
		t.Fatal(w.Text)
	}
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
