package native_test

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// BenchmarkBackendRead reads the 1,000-row synthetic window through the
// backend, as the engine does: the whole tree with every detail, the
// structure alone, and the details of the first 250 rows of a structure
// read. It measures what native/atspi's own benchmark (BenchmarkRead)
// does not: the backend's part, its translation of the tree into the
// engine's types and the frames into device pixels.
func BenchmarkBackendRead(b *testing.B) {
	a := startSynthetic(b, 1000)
	h := newHarness(b, time.Second)
	win := waitForWindow(b, h, a.cmd.Process.Pid, "")
	ctx := context.Background()
	read := func(b *testing.B, full bool) *engine.Tree {
		b.Helper()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		var t *engine.Tree
		var err error
		if full {
			t, err = h.b.ReadTree(cctx, win.ID, engine.DefaultZoomBudget())
		} else {
			t, err = h.b.ReadStructure(cctx, win.ID, engine.DefaultZoomBudget())
		}
		if err != nil {
			b.Fatal(err)
		}
		if len(t.Nodes) < 1000 {
			b.Fatalf("the read has %d elements, want the whole window", len(t.Nodes))
		}
		return t
	}
	read(b, false) // the frame match and the app's connection, once
	b.Run("tree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			read(b, true)
		}
	})
	b.Run("structure", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			read(b, false)
		}
	})
	b.Run("details250", func(b *testing.B) {
		t := read(b, false)
		nodes := make([]*engine.Node, 250)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			for k := range nodes {
				n := t.Nodes[k]
				nodes[k] = &n
			}
			b.StartTimer()
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := h.b.ReadDetails(cctx, win.ID, nodes)
			cancel()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
