package native_test

import (
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/schema"
)

// findAndWaitInBrowser checks find_elements and wait_for on the fixture
// page, fresh (no click yet), in TestBrowserActs' browser: a find for the
// Save button is one small row whose token clicks; a wait started before
// that click is met by the status line's new text; a wait for a button the
// page adds is met by it, with a token that acts; a text that never shows
// is met:false at the timeout.
func findAndWaitInBrowser(t *testing.T, b *browser, h *harness, read map[string]any) {
	t.Helper()
	find := func(args map[string]any) map[string]any {
		t.Helper()
		args["pid"] = b.pid
		r := h.call("find_elements", args)
		if r.Err != nil {
			t.Fatal(r.Text)
		}
		if err := schema.ValidateOutput("find_elements", asMap(t, r.Structured)); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(r.Structured)
		if len(raw)+len(r.Text) >= 2048 {
			t.Fatalf("a find for one button replied %d bytes, want under 2 KB", len(raw)+len(r.Text))
		}
		return asMap(t, r.Structured)
	}
	// one picks the match labelled exactly label, as a model would
	// among "Save" and the browser's own hidden "Save card".
	one := func(found map[string]any, label string) map[string]any {
		t.Helper()
		var hit map[string]any
		for _, row := range testkit.Rows(t, found) {
			if row["label"] == label {
				if hit != nil {
					t.Fatalf("two %q buttons: %v", label, found["elements"])
				}
				hit = row
			}
		}
		if hit == nil {
			t.Fatalf("no %q button in %v", label, found["elements"])
		}
		return hit
	}
	wait := func(cond map[string]any, timeoutMS int, during func()) map[string]any {
		t.Helper()
		done := make(chan engine.Result, 1)
		go func() {
			done <- h.call("wait_for", map[string]any{"pid": b.pid, "timeout_ms": timeoutMS, "condition": cond})
		}()
		if during != nil {
			during()
		}
		r := <-done
		if r.Err != nil {
			t.Fatal(r.Text)
		}
		if err := schema.ValidateOutput("wait_for", asMap(t, r.Structured)); err != nil {
			t.Fatal(err)
		}
		return asMap(t, r.Structured)
	}

	// The status line, as this browser names its role.
	status := ""
	for _, row := range testkit.Rows(t, read) {
		if row["value"] == "ready" || row["label"] == "ready" {
			status = testkit.Field[string](t, row, "role")
		}
	}
	if status == "" {
		t.Fatalf("no status line reading \"ready\" in:\n%.3000s", read["tree_text"])
	}
	save := one(find(map[string]any{"role": "push_button", "label": "save"}), "Save")
	res := wait(map[string]any{"kind": "text", "role": status, "text": "clicked: Save 1"}, 30000, func() {
		h.ok("click", map[string]any{"element_token": save["element_token"]})
	})
	if res["met"] != true {
		t.Fatalf("a wait for the status line: %v", res)
	}

	add := one(find(map[string]any{"role": "push_button", "label": "add item"}), "Add item")
	res = wait(map[string]any{"kind": "appears", "role": "push_button", "label": "Added 1"}, 30000, func() {
		h.ok("click", map[string]any{"element_token": add["element_token"]})
	})
	el, _ := res["element"].(map[string]any)
	if res["met"] != true || el == nil || el["label"] != "Added 1" {
		t.Fatalf("a wait for the added button: %v", res)
	}
	// The wait's token acts (the snapshot it came from has the
	// window's structure), and a fresh find sees the same button.
	one(find(map[string]any{"role": "push_button", "label": "added 1"}), "Added 1")
	h.ok("click", map[string]any{"element_token": el["element_token"]})
	t.Logf("the added button's wait met after %v ms", res["waited_ms"])

	if miss := wait(map[string]any{"kind": "text", "role": status, "text": "never shown"}, 300, nil); miss["met"] != false {
		t.Fatalf("want met:false at the timeout, got %v", miss)
	}
}
