package native_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// BenchmarkBrowserClick clicks the fixture page's Save button, end to end
// with settle, in Chromium and in Firefox, each click following a read of
// the window as a model's would. Every click writes "clicked: Save N" into
// the page's live region, so each one changes the page, and the benchmark
// fails unless the act's diff shows that click's count.
//
// Like BenchmarkHeadlessClick it reports the end-to-end median and, from
// the engine's act traces, the driver's own work (everything but waiting
// for the page to go quiet), the act's call into the browser and the
// quiet wait.
func BenchmarkBrowserClick(b *testing.B) {
	for _, kind := range browsers {
		b.Run(kind.String(), func(b *testing.B) {
			tr := &actTraces{tool: "click"}
			br, h, _ := grantedBrowser(b, kind, engine.Options{ActTrace: tr.add})
			var total []time.Duration
			for i := 0; i < b.N; i++ {
				read := h.ok("get_window_state", map[string]any{"pid": br.pid})
				tok, _ := rowWith(b, read, "Save", "push_button")
				start := time.Now()
				res := h.ok("click", map[string]any{"element_token": tok})
				total = append(total, time.Since(start))
				if want := fmt.Sprintf("clicked: Save %d", i+1); !strings.Contains(testkit.JSON(b, res["diff"]), want) {
					b.Fatalf("click %d: the diff does not show %q: %v", i+1, want, res["diff"])
				}
				br.alive(b)
			}
			b.ReportMetric(stats.MedianMs(total), "median-ms")
			tr.report(b)
		})
	}
}
