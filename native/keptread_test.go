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

// TestFirstReadHearsTheChangesAfterIt: a driver's first read of a window
// subscribes to its app's change reports before it reads (engine/reuse.go
// readWindow: the watcher is live, the read then takes its mark), so a
// change the app makes just after that read is heard and the next read is
// fresh and shows it; with no change the next read keeps the first's
// snapshot. The app was read by another driver first, so it reports
// nothing of its own while the new driver reads it (GTK has built its
// accessible objects), and the other driver makes the change.
func TestFirstReadHearsTheChangesAfterIt(t *testing.T) {
	onDesktop(t)
	pid, other := grantedSynthetic(t, 200)
	args := map[string]any{"pid": pid, "max_elements": 5000}
	other.ok("get_window_state", args)
	for _, c := range []struct {
		name   string
		change bool
	}{{"no change", false}, {"a click by another driver", true}} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, consentWait)
			grant(t, h, pid)
			first := h.ok("get_window_state", args)
			if first["snapshot_kept"] == true {
				t.Fatal("a driver's first read says it kept a snapshot")
			}
			if c.change {
				before := other.ok("get_window_state", args)
				other.ok("click", map[string]any{"element_token": testkit.Token(t, before, "push_button", "Click me")})
			}
			next := h.ok("get_window_state", args)
			if kept := next["snapshot_kept"] == true; kept == c.change {
				t.Fatalf("the read after the first: kept %v, want %v", kept, !c.change)
			}
			if c.change {
				testkit.Row(t, next, "label", "clicked 1")
			}
		})
	}
}
