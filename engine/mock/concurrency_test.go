package mock

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// TestConcurrentUse hammers one desktop from many goroutines: readers,
// actors, typists, the person, a watcher, scripted delayed changes and
// structural changes. It fails under -race if anything is unguarded, and
// checks the desktop still reads consistently afterwards.
func TestConcurrentUse(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	f := dm.Form
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	_ = d.WatchInput(wctx, func(engine.RawInput) {})

	var wg sync.WaitGroup
	run := func(fn func(i int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				fn(i)
			}
		}()
	}
	run(func(int) { _, _ = d.ReadTree(ctx, f.Window.ID(), engine.DefaultZoomBudget()) })
	run(func(int) { _, _ = d.ReadTree(ctx, dm.ChatMain.ID(), engine.Budget{MaxElements: 100, MaxDepth: 5}) })
	run(func(int) { _ = d.DoAction(ctx, f.Save.Ref(), "click") })
	run(func(int) { _ = d.DoAction(ctx, f.AddRow.Ref(), "click") })
	run(func(int) { _, _ = d.InsertText(ctx, f.Email.Ref(), "x") })
	run(func(i int) { _ = d.SetNumber(ctx, f.Volume.Ref(), float64(i)) })
	run(func(i int) {
		_ = d.Send(ctx, engine.InputEvent{Kind: engine.InputMotion, At: engine.Point{X: i, Y: i}})
	})
	run(func(int) { d.PressKey("a") })
	run(func(int) { _, _ = d.Capture(ctx, f.Window.ID()) })
	run(func(int) { _, _ = d.Windows(ctx) })
	run(func(i int) {
		if i%10 == 0 {
			dm.ChatDirect.Raise()
		}
		_, _ = d.TopmostAt(ctx, engine.Point{X: 1600, Y: 100})
	})
	run(func(int) {
		items := f.Items.Children()
		if len(items) > 3 {
			items[len(items)-1].Remove()
		}
	})
	run(func(int) { _, _ = d.ClipboardWrite(ctx, "c"); _, _ = d.ClipboardRead(ctx) })
	wg.Wait()
	if !d.WaitIdle(30*time.Second) || !d.WaitInput(30*time.Second) {
		t.Fatal("did not settle")
	}
	tr := read(t, d, f.Window)
	for i, n := range tr.Nodes {
		if i > 0 && (n.Parent < 0 || n.Parent >= i || tr.Nodes[n.Parent].Depth != n.Depth-1) {
			t.Fatalf("node %d has a bad parent %d", i, n.Parent)
		}
	}
	if got := nodeOf(t, tr, f.Status).Name; got != "Saved (50)" {
		t.Errorf("status %q after 50 saves", got)
	}
	if len(f.Email.Value()) != len("ada@example.org")+50 {
		t.Errorf("email length %d", len(f.Email.Value()))
	}
}
