package mock

import (
	"slices"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// TestChangeReports: the mock reports its windows' changes as an AT-SPI
// app would, so the engine's settle and read-saving paths are honest in
// the contract tests: nothing changed is "unchanged", a renamed element is
// a content change about it, an added element a structural change about
// its parent.
func TestChangeReports(t *testing.T) {
	d, f, w, ctx := formDemo(t)

	mark, err := d.MarkChanges(ctx, w)
	wantCode(t, "MarkChanges", err, "")
	_, changed, _, err := d.WaitQuiet(ctx, w, mark, 5*time.Millisecond, time.Second)
	wantCode(t, "WaitQuiet", err, "")
	if changed {
		t.Fatal("WaitQuiet says the untouched window changed")
	}
	if changes, complete := d.ChangesSince(w, mark); !complete || len(changes) != 0 {
		t.Fatalf("untouched window: %v complete=%v", changes, complete)
	}

	f.Hint.SetName("Renamed by the app")
	_, changed, _, err = d.WaitQuiet(ctx, w, mark, 5*time.Millisecond, time.Second)
	wantCode(t, "WaitQuiet", err, "")
	if !changed {
		t.Fatal("WaitQuiet missed a rename")
	}
	changes, complete := d.ChangesSince(w, mark)
	if !complete || len(changes) == 0 {
		t.Fatalf("a rename: %v complete=%v", changes, complete)
	}
	renamed := false
	for _, c := range changes {
		if c.Source == f.Hint.ID() && c.Kind == engine.ChangeContent {
			renamed = true
		}
		if c.Kind == engine.ChangeStructure {
			t.Fatalf("a rename reported as structural: %v", c)
		}
	}
	if !renamed {
		t.Fatalf("no content change about the renamed element: %v", changes)
	}

	after, ok := d.CurrentMark(w)
	if !ok {
		t.Fatal("a window the mock listens to has no current mark")
	}
	item := f.Items.AddAt(1, "list_item", "Item added by the app")
	changes, _ = d.ChangesSince(w, after)
	want := engine.Change{Kind: engine.ChangeStructure, Source: f.Items.ID(), Op: engine.ChildAdded, Child: item.ID(), Index: 1}
	if !slices.Contains(changes, want) {
		t.Fatalf("an added child is not a structural change about its parent naming it: %v", changes)
	}

	again, _ := d.CurrentMark(w)
	item.Remove()
	changes, _ = d.ChangesSince(w, again)
	want = engine.Change{Kind: engine.ChangeStructure, Source: f.Items.ID(), Op: engine.ChildRemoved, Child: item.ID(), Index: -1}
	if !slices.Contains(changes, want) {
		t.Fatalf("a removed child is not a structural change about its parent naming it: %v", changes)
	}
}
