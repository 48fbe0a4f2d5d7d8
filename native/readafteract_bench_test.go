package native_test

import (
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// BenchmarkReadAfterClick measures the read a model makes right after an
// act, on the 1,000-row synthetic window: a read, a click on "Click me"
// with a token of it, then a read, which keeps the click's settled read
// (engine/reuse.go readWindow), and a second read, which keeps it too.
// Against them it measures a kept re-read of a whole read (a read of the
// window the app reported nothing about since the read before), the
// cost the read after an act should have. Each read is a model's default
// read ({pid}) or one of all rows (max_elements 5000), as ci/bench's kept
// re-read makes. It reports the medians (after-ms, again-ms, kept-ms) and
// after-ms ÷ kept-ms.
func BenchmarkReadAfterClick(b *testing.B) {
	a := startSynthetic(b, 1000)
	h := benchHarness(b, a, &actTraces{})
	pid := a.cmd.Process.Pid
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"default", map[string]any{"pid": pid}},
		{"allrows", map[string]any{"pid": pid, "max_elements": 5000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			read := func() (map[string]any, time.Duration) {
				start := time.Now()
				r := h.callB(b, "get_window_state", c.args)
				return r, time.Since(start)
			}
			// Kept re-reads of a whole read of these rows: past the age
			// up to which the engine keeps a read, the first reads are
			// whole (the app also reports its own changes while first
			// read), the rest kept.
			time.Sleep(engine.ReuseMaxAge + 500*time.Millisecond)
			var kept []time.Duration
			for tries := 0; len(kept) < max(b.N, 5); tries++ {
				if tries == 50+b.N {
					b.Fatalf("%d reads of the window kept %d snapshots", tries, len(kept))
				}
				if r, d := read(); r["snapshot_kept"] == true {
					kept = append(kept, d)
				}
			}
			var after, again []time.Duration
			last, _ := read()
			for i := 0; i < b.N; i++ {
				res := h.callB(b, "click", map[string]any{"element_token": testkit.Token(b, last, "push_button", "Click me")})
				r, d := read()
				if r["snapshot_kept"] != true || r["snapshot_id"] != res["snapshot_id"] {
					b.Fatalf("the read after the click did not keep its settled read %v: %v (kept %v)", res["snapshot_id"], r["snapshot_id"], r["snapshot_kept"])
				}
				after = append(after, d)
				last, d = read()
				again = append(again, d)
			}
			b.ReportMetric(stats.MedianMs(after), "after-ms")
			b.ReportMetric(stats.MedianMs(again), "again-ms")
			b.ReportMetric(stats.MedianMs(kept), "kept-ms")
			b.ReportMetric(stats.MedianMs(after)/stats.MedianMs(kept), "after/kept")
		})
	}
}
