package native_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestUnchangedWindowKeepsItsSnapshot: on a real app, a read of a window
// nothing changed in since the last read keeps that read's snapshot, and a
// click that changes the window gives the act's settled snapshot.
func TestUnchangedWindowKeepsItsSnapshot(t *testing.T) {
	onDesktop(t)
	pid, h := grantedSynthetic(t, 200)
	// The first read of a window starts listening to the app, and the app
	// reports changes of its own while it is first read (GTK builds its
	// accessible objects as they are asked for): the read after it is
	// fresh. From then on an unchanged window keeps its snapshot.
	h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	first := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	again := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	if again["snapshot_id"] != first["snapshot_id"] || again["snapshot_kept"] != true {
		t.Fatalf("a re-read of an unchanged window keeps its snapshot: %v then %v (kept %v)", first["snapshot_id"], again["snapshot_id"], again["snapshot_kept"])
	}
	if again["element_count"] != first["element_count"] {
		t.Fatalf("the kept read has %v rows, the first %v", again["element_count"], first["element_count"])
	}
	click := testkit.Token(t, again, "push_button", "Click me")
	res := h.ok("click", map[string]any{"element_token": click})
	after := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	if after["snapshot_id"] == first["snapshot_id"] || after["snapshot_id"] != res["snapshot_id"] {
		t.Fatalf("after the click the read is the act's settled snapshot %v: %v", res["snapshot_id"], after["snapshot_id"])
	}
	testkit.Row(t, after, "label", "clicked 1") // the read after the click shows it
}
