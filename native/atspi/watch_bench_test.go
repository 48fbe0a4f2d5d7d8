package atspi

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/stats"
)

// BenchmarkWatchClick measures what a settle on events costs: on the
// 200-row window, with a watcher, it clicks "Click me" through DoAction,
// waits with Quiet(50 ms), then reads the window once in engine mode (the
// snapshot an act returns). Reported medians, from the start of DoAction:
//
//   - act-ms: DoAction's return
//   - first-event-ms: the first event's arrival
//   - last-event-ms: the last event's arrival
//   - quiet-ms: Quiet's return (act and settle)
//   - read-ms: the read after it (act, settle and snapshot)
//
// Run with:
//
//	go test ./native/atspi -run '^$' -bench WatchClick -benchtime 20x
func BenchmarkWatchClick(b *testing.B) {
	f := benchFixture(b, 200)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tree, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll, DetailLimit: 250})
	if err != nil {
		b.Fatal(err)
	}
	var btn = -1
	for i, n := range tree.Nodes {
		if n.Role == "push_button" && n.Name == "Click me" {
			btn = i
		}
	}
	if btn < 0 {
		b.Fatal("no Click me button")
	}
	w, err := client.Watch(ctx, f.frame.Bus)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var act, first, last, quiet, read []time.Duration
	events := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Let the previous click's effects end first.
		if _, _, err := w.Quiet(ctx, 50*time.Millisecond, time.Second); err != nil {
			b.Fatal(err)
		}
		mark := w.Counts()
		cctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		t0 := time.Now()
		if err := client.DoAction(cctx, ref(tree.Nodes[btn]), "click"); err != nil {
			b.Fatal(err)
		}
		act = append(act, time.Since(t0))
		settled, lastAt, err := w.Quiet(cctx, 50*time.Millisecond, time.Second)
		quiet = append(quiet, time.Since(t0))
		if err != nil || !settled {
			b.Fatalf("Quiet: settled %v, %v", settled, err)
		}
		if _, err := client.ReadTree(cctx, f.frame.ID, ReadOptions{Details: DetailsAll, DetailLimit: 250}); err != nil {
			b.Fatal(err)
		}
		read = append(read, time.Since(t0))
		cancel()
		changes, _ := w.Since(mark)
		if len(changes) == 0 {
			b.Fatal("the click sent no event")
		}
		events += len(changes)
		first = append(first, changes[0].At.Sub(t0))
		last = append(last, lastAt.Sub(t0))
	}
	b.ReportMetric(stats.MedianMs(act), "act-ms")
	b.ReportMetric(stats.MedianMs(first), "first-event-ms")
	b.ReportMetric(stats.MedianMs(last), "last-event-ms")
	b.ReportMetric(stats.MedianMs(quiet), "quiet-ms")
	b.ReportMetric(stats.MedianMs(read), "read-ms")
	b.ReportMetric(float64(events)/float64(b.N), "events")
}

// BenchmarkDispatch is the client's own cost of one event: decoding its
// detail, classifying it and counting it for a watcher.
func BenchmarkDispatch(b *testing.B) {
	c := New(Options{})
	w := fakeWatcher(c, ":1.7", 1)
	h, body := splitMessage(b, signalMessage("/org/a11y/atspi/accessible/7", "PropertyChange", "accessible-name", int32(0), int32(0)))
	h.sender = ":1.7"
	handle := c.busSignal(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		handle(nil, &h, body, false)
	}
	if w.Counts().Content != uint64(b.N) {
		b.Fatalf("counted %d of %d", w.Counts().Content, b.N)
	}
}

// BenchmarkWatch is the cost of starting and closing a watcher: alone (it
// registers the event kinds with the registry and withdraws them), and
// beside another watcher (the registration is shared).
func BenchmarkWatch(b *testing.B) {
	f := benchFixture(b, 200)
	for _, beside := range []bool{false, true} {
		name := "alone"
		if beside {
			name = "beside-another"
		}
		b.Run(name, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if beside {
				other, err := client.Watch(ctx, f.frame.Bus)
				if err != nil {
					b.Fatal(err)
				}
				defer other.Close()
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				w, err := client.Watch(ctx, f.frame.Bus)
				times = append(times, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				w.Close()
			}
			b.ReportMetric(stats.MedianMs(times), "watch-ms")
		})
	}
}
