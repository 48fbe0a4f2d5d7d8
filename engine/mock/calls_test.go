package mock

import (
	"context"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// A desktop told to keep its last n calls forgets older ones as calls
// come, and still marks the newest as done; an untold one keeps all.
func TestKeepCallsBoundsTheCallLog(t *testing.T) {
	tests := []struct {
		name      string
		keep      int
		calls     int
		atMostLen int
	}{
		{"every call kept by default", 0, 100, 100},
		{"bounded to 8", 8, 100, 8},
		{"under the bound", 8, 5, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := New()
			d.KeepCalls(tc.keep)
			for i := 0; i < tc.calls; i++ {
				d.Registry(context.Background())
			}
			got := d.Calls()
			if len(got) > tc.atMostLen || (tc.keep == 0 && len(got) != tc.calls) {
				t.Fatalf("%d calls kept, want at most %d", len(got), tc.atMostLen)
			}
			if last := got[len(got)-1]; last.Method != "Registry" || !last.Done {
				t.Errorf("newest call %+v, want a finished Registry", last)
			}
		})
	}
}

// ChangeCalls counts the acts on elements and the events sent, and not
// the reads: what a test compares to tell that a refused call did nothing.
func TestChangeCallsCountsActsNotReads(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	if _, err := d.ReadTree(testCtx(t), f.Window.ID(), engine.DefaultZoomBudget()); err != nil {
		t.Fatal(err)
	}
	if n := d.ChangeCalls(); n != 0 {
		t.Fatalf("after a read ChangeCalls = %d, want 0", n)
	}
	if err := d.DoAction(testCtx(t), f.Remember.Ref(), "click"); err != nil {
		t.Fatal(err)
	}
	if err := d.Send(testCtx(t), engine.InputEvent{Kind: engine.InputMotion}); err != nil {
		t.Fatal(err)
	}
	if n := d.ChangeCalls(); n != 2 {
		t.Fatalf("after an action and an event ChangeCalls = %d, want 2", n)
	}
}
