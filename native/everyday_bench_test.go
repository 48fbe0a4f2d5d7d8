package native_test

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// BenchmarkCalcVisibleBlock measures the part of a Calc read that finds and
// reads the sheet's visible block (size, corner cells, the cells by row and
// column with their role, states and name), inside a whole read of the
// window with every detail, on the 200 x 8 and the 100,000 x 3 sheets: the
// block's ms and the cells it holds. The apps' rows (elements, whole read,
// walk, ratio) are ci/bench's (`make bench`); this is the one figure it
// cannot see from outside the backend.
func BenchmarkCalcVisibleBlock(b *testing.B) {
	cases := []struct {
		name  string
		sheet officeFixture
	}{
		{"Calc200", sheet200},
		{"Calc100k", sheet100k},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			a := startOffice(b, sandbox.Calc, c.sheet)
			defer a.alive(b)
			// Laid out: the block's cells are in.
			read := settledWholeRead(b, a, func(st atspi.ReadStats) bool { return st.BlockCells > 0 })
			var block time.Duration
			var st atspi.ReadStats
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st = read()
				block += st.BlockTime
			}
			b.StopTimer()
			b.ReportMetric(float64(st.BlockCells), "cells")
			b.ReportMetric(stats.Ms(block)/float64(b.N), "block_ms")
		})
	}
}

// appFrame finds the app's first window frame on the bus.
func appFrame(b testing.TB, cl *atspi.Client, a *desktopApp) atspi.ID {
	b.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		frames, _, err := cl.AllFrames(context.Background())
		if err == nil {
			for _, f := range frames {
				if f.Pid == a.pid {
					return f.ID
				}
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s has no frame on the bus: %v", a.what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// BenchmarkEverydayWholeRead measures whole reads (structure and every
// detail, straight from the backend, nothing kept between reads) of the
// Qt apps and Writer's long document, with the parts ci/bench cannot see:
// the rounds and calls of the fill-in (what the app's cache left out), and
// the time spent there and in the details. Profile it with -cpuprofile to
// split our decoding from waiting on the bus.
func BenchmarkEverydayWholeRead(b *testing.B) {
	cases := []struct {
		name  string
		start func(testing.TB) *desktopApp
	}{
		{"KeePassXC", startKeePassXC},
		{"FeatherPad", startFeatherPad},
		{"Writer", func(t testing.TB) *desktopApp { return startOffice(t, sandbox.Writer, longDocument) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			a := c.start(b)
			defer a.alive(b)
			read := settledWholeRead(b, a, func(atspi.ReadStats) bool { return true })
			var cache, fill, details time.Duration
			var st atspi.ReadStats
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st = read()
				cache += st.CacheTime
				fill += st.FillTime
				details += st.DetailTime
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(float64(st.Elements), "elements")
			b.ReportMetric(float64(st.FillRounds), "rounds")
			b.ReportMetric(float64(st.FillCalls), "fill_calls")
			b.ReportMetric(float64(st.DetailCalls), "detail_calls")
			b.ReportMetric(float64(st.CacheItems), "cache_items")
			b.ReportMetric(stats.Ms(cache)/n, "cache_ms")
			b.ReportMetric(stats.Ms(fill)/n, "fill_ms")
			b.ReportMetric(stats.Ms(details)/n, "detail_ms")
		})
	}
}

// settledWholeRead returns a whole read (structure and every detail) of
// the app's window on a client of its own, once the window is laid out:
// two reads in a row with the same element count, the second of which
// laidOut accepts (a document or a sheet lays out after its window shows).
func settledWholeRead(b *testing.B, a *desktopApp, laidOut func(atspi.ReadStats) bool) func() atspi.ReadStats {
	b.Helper()
	cl := atspi.New(atspi.Options{Getenv: backendOptions(b).Getenv})
	b.Cleanup(cl.Close)
	frame := appFrame(b, cl, a)
	read := func() atspi.ReadStats {
		var st atspi.ReadStats
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if _, err := cl.ReadTree(ctx, frame, atspi.ReadOptions{Details: atspi.DetailsAll, Stats: &st}); err != nil {
			b.Fatal(err)
		}
		return st
	}
	prev := -1
	testkit.Eventually(b, 30*time.Second, a.what+"'s window laid out", func() bool {
		st := read()
		settled := st.Elements == prev && laidOut(st)
		prev = st.Elements
		return settled
	})
	return read
}
