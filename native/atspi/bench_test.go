package atspi

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/naivewalk"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
)

// Benchmarks read the synthetic window at 200 and 1000 rows, one app at a
// time (animating or busy neighbours slow everything on a small machine),
// and measure the baselines in the same run:
//
//	go test ./native/atspi -run '^$' -bench . -benchtime 20x
//
// BenchmarkRead's modes: full reads every detail of every element;
// engine reads the whole structure plus the details of the first 250 rows
// (what a default get_window_state returns); structure reads no details.

var (
	benchMu   sync.Mutex
	benchApps = map[int]*fixture{}
)

// benchFixture starts (once) the synthetic window with rows rows, and stops
// the other sizes so one app runs at a time.
// forFixtureSizes runs bench on the synthetic window at 200 and at 1,000
// rows, one sub-benchmark each.
func forFixtureSizes(b *testing.B, bench func(b *testing.B, f *fixture)) {
	for _, rows := range []int{200, 1000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) { bench(b, benchFixture(b, rows)) })
	}
}

func benchFixture(b *testing.B, rows int) *fixture {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	for r, f := range benchApps {
		if r != rows {
			f.stop()
			delete(benchApps, r)
		}
	}
	if f := benchApps[rows]; f != nil {
		return f
	}
	f := startSynthetic(b, rows)
	keep(f)
	benchApps[rows] = f
	// Settle: the first read warms the app's accessibility objects.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll}); err != nil {
		b.Fatal(err)
	}
	return f
}

var benchModes = []struct {
	name string
	opts ReadOptions
}{
	{"full", ReadOptions{Details: DetailsAll}},
	{"engine", ReadOptions{Details: DetailsAll, DetailLimit: 250}},
	{"structure", ReadOptions{Details: DetailsNone}},
}

func BenchmarkRead(b *testing.B) {
	for _, rows := range []int{200, 1000} {
		for _, m := range benchModes {
			b.Run(fmt.Sprintf("rows=%d/%s", rows, m.name), func(b *testing.B) {
				f := benchFixture(b, rows)
				var read ReadStats
				opts := m.opts
				opts.Stats = &read
				var cache, fill, det time.Duration
				times := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					t0 := time.Now()
					_, err := client.ReadTree(ctx, f.frame.ID, opts)
					times = append(times, time.Since(t0))
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					cache += read.CacheTime
					fill += read.FillTime
					det += read.DetailTime
				}
				n := float64(b.N)
				b.ReportMetric(float64(read.Elements), "elements")
				b.ReportMetric(stats.MedianMs(times), "median-ms")
				b.ReportMetric(stats.Ms(cache)/n, "cache-ms")
				b.ReportMetric(stats.Ms(fill)/n, "fill-ms")
				b.ReportMetric(stats.Ms(det)/n, "details-ms")
				b.ReportMetric(float64(read.DetailCalls), "detail-calls")
			})
		}
	}
}

// BenchmarkPyatspiWalk is the baseline: testdata/walk.py walks the window
// b.N times in one Python process (startup not counted) and reports its
// median walk.
func BenchmarkPyatspiWalk(b *testing.B) {
	forFixtureSizes(b, func(b *testing.B, f *fixture) {
		walks, elements := pyatspiWalks(b, f, b.N)
		b.ReportMetric(float64(elements), "elements")
		b.ReportMetric(stats.Median(walks), "median-ms")
	})
}

// BenchmarkNaiveWalk is the libatspi (C) synchronous walk (package
// naivewalk).
func BenchmarkNaiveWalk(b *testing.B) {
	forFixtureSizes(b, func(b *testing.B, f *fixture) {
		times := make([]time.Duration, 0, b.N)
		var elements int
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			els, err := naivewalk.Walk(f.pid, f.title)
			times = append(times, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
			elements = len(els)
		}
		b.ReportMetric(float64(elements), "elements")
		b.ReportMetric(stats.MedianMs(times), "median-ms")
	})
}

// BenchmarkRatio measures, in one run and for one window at a time, the
// engine-mode read and the pyatspi walk, and reports how many times faster
// the read is (the figure PERF.md quotes).
func BenchmarkRatio(b *testing.B) {
	forFixtureSizes(b, func(b *testing.B, f *fixture) {
		reads := map[string][]time.Duration{}
		for i := 0; i < 15; i++ {
			for _, m := range benchModes {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				t0 := time.Now()
				_, err := client.ReadTree(ctx, f.frame.ID, m.opts)
				reads[m.name] = append(reads[m.name], time.Since(t0))
				cancel()
				if err != nil {
					b.Fatal(err)
				}
			}
		}
		walks, _ := pyatspiWalks(b, f, 3)
		py := stats.Median(walks)
		for _, m := range benchModes {
			r := stats.MedianMs(reads[m.name])
			b.ReportMetric(r, m.name+"-ms")
			b.ReportMetric(py/r, m.name+"-x")
		}
		b.ReportMetric(py, "pyatspi-ms")
	})
}

// pyatspiWalks runs testdata/walk.py n times in one process, within
// walksBound, and returns each walk's milliseconds and the elements it
// visited.
func pyatspiWalks(b *testing.B, f *fixture, n int) ([]float64, int) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), walksBound)
	defer cancel()
	walks, elements, err := pyref.TimedWalks(ctx, desk.Env(), walkScript(b), f.pid, f.title, n)
	if err != nil {
		b.Fatalf("the pyatspi walk: %v", err)
	}
	return walks, elements
}

// walksBound ends the timed walks of a benchmark when they hang (an app
// that stops answering the bus): far above a benchmark's walks, which
// take up to some seconds.
const walksBound = 5 * time.Minute
