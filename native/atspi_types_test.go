package native

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// TestAtspiErrMapsEveryKind checks the one place atspi failures become
// engine errors: each kind has its code, the fixed message is kept, the
// atspi error stays reachable as the cause, and anything else is internal.
func TestAtspiErrMapsEveryKind(t *testing.T) {
	cases := []struct {
		kind atspi.Kind
		want engine.Code
	}{
		{atspi.KindInternal, engine.CodeInternal},
		{atspi.KindUnavailable, engine.CodeBackendUnavailable},
		{atspi.KindGone, engine.CodeWindowGone},
		{atspi.KindStale, engine.CodeStaleElementToken},
		{atspi.KindNotResponding, engine.CodeAppNotResponding},
		{atspi.KindRefused, engine.CodeNotActionable},
		{atspi.KindSecure, engine.CodeSecureField},
		{atspi.KindUnsupported, engine.CodeUnsupported},
	}
	if len(cases) != len(atspiCodes) {
		t.Fatalf("%d kinds tested, %d mapped: test every kind", len(cases), len(atspiCodes))
	}
	for _, tc := range cases {
		t.Run(tc.kind.String(), func(t *testing.T) {
			src := &atspi.Error{Kind: tc.kind, Message: "a fixed sentence with 100% in it"}
			err := atspiErr(fmt.Errorf("wrapped: %w", src))
			var e *engine.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %T %v, want an engine error", err, err)
			}
			if e.Code != tc.want || e.Message != src.Message {
				t.Fatalf("got %s %q, want %s %q", e.Code, e.Message, tc.want, src.Message)
			}
			if !errors.Is(err, src) {
				t.Fatal("the atspi error is not the cause")
			}
		})
	}
	other := []struct {
		name string
		err  error
		want engine.Code
	}{
		{"an engine error passes", engine.Errf(engine.CodeOccluded, "x"), engine.CodeOccluded},
		{"an unknown kind", &atspi.Error{Kind: atspi.Kind(99), Message: "x"}, engine.CodeInternal},
		{"any other error", context.DeadlineExceeded, engine.CodeInternal},
	}
	for _, tc := range other {
		t.Run(tc.name, func(t *testing.T) {
			var e *engine.Error
			if err := atspiErr(tc.err); !errors.As(err, &e) || e.Code != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
	if atspiErr(nil) != nil {
		t.Fatal("no error became one")
	}
}

// TestTreeFromAtspiCopiesEveryField fills every field of an atspi node
// and checks the engine node carries each, the frame in device pixels.
func TestTreeFromAtspiCopiesEveryField(t *testing.T) {
	src := &atspi.Tree{Truncated: true, Nodes: []atspi.Node{{
		ID: ":1.5/a", Parent: -1, IndexInParent: 2, Depth: 3, Role: "entry", Name: "n", Description: "d",
		Value: "v", HasValue: true, Numeric: &atspi.Range{Step: 0.5},
		States: []string{"showing"}, Actions: []string{"activate"}, ChildCount: 4,
		Frame: atspi.Rect{X: 10, Y: 20, W: 30, H: 40}, Secure: true, Editable: true, Text: true,
		Table: &atspi.TableSize{Rows: 9, Columns: 8, FirstRow: 1, LastRow: 2, FirstColumn: 3, LastColumn: 4},
	}}}
	sc := windowScale{Scale: 2, Device: engine.Rect{X: 100, Y: 100, W: 200, H: 200}, Logical: engine.Rect{X: 0, Y: 0, W: 100, H: 100}}
	got := treeFromAtspi(src, 7, sc, true)
	want := engine.Node{
		ID: ":1.5/a", Parent: -1, IndexInParent: 2, Depth: 3, Role: "entry", Name: "n", Description: "d",
		Value: "v", HasValue: true, Numeric: &engine.NumericRange{Step: 0.5},
		States: []string{"showing"}, Actions: []string{"activate"}, ChildCount: 4,
		Frame: engine.Rect{X: 120, Y: 140, W: 60, H: 80}, Secure: true, Editable: true, Text: true, Detailed: true,
		Table: &engine.TableSize{Rows: 9, Columns: 8, FirstRow: 1, LastRow: 2, FirstColumn: 3, LastColumn: 4},
	}
	if got.Window != 7 || !got.Truncated || len(got.Nodes) != 1 {
		t.Fatalf("tree %+v", got)
	}
	if !reflect.DeepEqual(got.Nodes[0], want) {
		t.Fatalf("got  %+v\nwant %+v", got.Nodes[0], want)
	}
	// Back and forth keeps what Details and Refresh may change.
	back := nodeToAtspi(&got.Nodes[0])
	if back.Table == nil || *back.Table != *src.Nodes[0].Table {
		t.Fatalf("the table size did not come back: %+v", back.Table)
	}
	var n engine.Node
	copyDetails(&n, &back)
	copyStructure(&n, &back)
	if n.Role != "entry" || !n.Secure || n.Value != "v" || !n.HasValue || n.Numeric == nil || n.Numeric.Step != 0.5 ||
		len(n.Actions) != 1 || n.Frame != want.Frame || n.Name != "n" || n.Description != "d" || n.ChildCount != 4 || len(n.States) != 1 {
		t.Fatalf("round trip lost fields: %+v", n)
	}
}

// BenchmarkTreeFromAtspi is the translation's share of a read: a tree of
// 5,000 nodes (the read budget) into the engine's, at a scale of 2.
func BenchmarkTreeFromAtspi(b *testing.B) {
	states := []string{"enabled", "sensitive", "showing", "visible"}
	src := &atspi.Tree{Nodes: make([]atspi.Node, 5000)}
	for i := range src.Nodes {
		src.Nodes[i] = atspi.Node{ID: atspi.ID(fmt.Sprintf(":1.5/org/a11y/atspi/accessible/%d", i)), Parent: i - 1,
			Role: "push_button", Name: "Button", States: states, Frame: atspi.Rect{X: i, Y: i, W: 80, H: 24}}
	}
	sc := windowScale{Scale: 2, Device: engine.Rect{W: 200, H: 200}, Logical: engine.Rect{W: 100, H: 100}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		treeFromAtspi(src, 1, sc, true)
	}
}
