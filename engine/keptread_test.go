package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

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
	h.clock.Advance(3 * time.Second)
	if r := h.readForm(nil); r["snapshot_kept"] == true {
		t.Fatal("a read kept a snapshot older than the reuse bound")
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
