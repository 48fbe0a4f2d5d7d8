package native_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
)

// BenchmarkWaitForReply measures how soon wait_for answers after the app
// changes (the target: within 20 ms at p99). A wait is started, and
// once it is waiting on the app's change reports a second client (the
// backend itself, not through the engine) runs a button's action; GTK 3
// runs the handler, which makes the change and sends its reports, before
// the action call returns. The figure is from that return to wait_for's
// reply: an upper bound of the delay from the app's change report to the
// reply. Two changes: "Click me" sets the status label's text (a wait for
// a text), "Add row" adds a label to the grid at the top (a wait for an
// element to appear, reported as a child added). Each runs on a small
// window and on the 1,000-row one: a wait that reads only what the
// reports name answers as fast on either.
//
//	go test ./native -run '^$' -bench WaitForReply -benchtime 50x
func BenchmarkWaitForReply(b *testing.B) {
	changes := []struct {
		name, button string
		cond         func(i int) map[string]any
	}{
		{"text", "Click me", func(i int) map[string]any {
			return map[string]any{"kind": "text", "role": "label", "text": fmt.Sprintf("clicked %d", i)}
		}},
		{"appears", "Add row", func(i int) map[string]any {
			return map[string]any{"kind": "appears", "role": "label", "label": fmt.Sprintf("added %d", i)}
		}},
	}
	for _, c := range changes {
		for _, rows := range []int{6, 1000} {
			b.Run(fmt.Sprintf("%s/rows=%d", c.name, rows), func(b *testing.B) { benchWaitForReply(b, rows, c.button, c.cond) })
		}
	}
}

// benchWaitForReply is one change and window size of BenchmarkWaitForReply.
func benchWaitForReply(b *testing.B, rows int, label string, cond func(i int) map[string]any) {
	pid, h := grantedSynthetic(b, rows)
	read := h.ok("get_window_state", map[string]any{"pid": pid})
	win := engine.WindowID(windowOf(b, read))
	ctx := context.Background()
	tree, err := h.b.ReadTree(ctx, win, engine.DefaultZoomBudget())
	if err != nil {
		b.Fatal(err)
	}
	var button engine.ElementID
	for _, n := range tree.Nodes {
		if n.Role == "push_button" && n.Name == label {
			button = n.ID
		}
	}
	if button == "" {
		b.Fatalf("no %s button", label)
	}
	var delays []time.Duration
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		replied := make(chan time.Time, 1)
		result := make(chan engine.Result, 1)
		go func() {
			r := h.call("wait_for", map[string]any{"pid": pid, "timeout_ms": 10000, "condition": cond(i)})
			replied <- time.Now()
			result <- r
		}()
		// Let the wait take its first look and go to sleep on the app's
		// reports (a benchmark's pause, not a test's synchronisation).
		time.Sleep(150 * time.Millisecond)
		if err := h.b.DoAction(ctx, engine.ElementRef{Window: win, ID: button}, "click"); err != nil {
			b.Fatal(err)
		}
		changed := time.Now()
		at := <-replied
		r := <-result
		if r.Err != nil || asMap(b, r.Structured)["met"] != true {
			b.Fatalf("wait %d: %s", i, r.Text)
		}
		delays = append(delays, at.Sub(changed))
	}
	b.StopTimer()
	b.ReportMetric(stats.Ms(stats.Percentile(delays, 0.5)), "p50-ms")
	b.ReportMetric(stats.Ms(stats.Percentile(delays, 0.99)), "p99-ms")
	b.ReportMetric(stats.Ms(stats.Percentile(delays, 1)), "max-ms")
}
