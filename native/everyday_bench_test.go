package native_test

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// BenchmarkEverydayApps reads issue 14's apps as the backend does (the
// whole window with every detail) and reports, per app: elements, the
// read's ms, a pyatspi walk's ms (walk.py, one walk per iteration
// batch) and their ratio; for Calc, the ms of the sheet's visible block
// alone (its rounds inside the read) and the cells it holds. Calc's walk
// never ends (it enumerates the sheet), so it has none.
func BenchmarkEverydayApps(b *testing.B) {
	cases := []struct {
		name  string
		start func(testing.TB) *desktopApp
		walk  bool
		sheet bool // wait for the sheet's cells before measuring
	}{
		{"KeePassXC", startKeePassXC, true, false},
		{"FeatherPad", startFeatherPad, true, false},
		{"Writer400", func(t testing.TB) *desktopApp { return startOffice(t, sandbox.Writer, longDocument) }, true, false},
		{"Calc200", func(t testing.TB) *desktopApp { return startOffice(t, sandbox.Calc, sheet200) }, false, true},
		{"Calc100k", func(t testing.TB) *desktopApp { return startOffice(t, sandbox.Calc, sheet100k) }, false, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			a := c.start(b)
			defer a.alive(b)
			cl := atspi.New(atspi.Options{Getenv: getenv})
			defer cl.Close()
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
			// Wait until the window's content is laid out: two reads
			// with the same element count.
			prev := -1
			for deadline := time.Now().Add(30 * time.Second); ; {
				st := read()
				if st.Elements == prev && st.Elements > 1 && (!c.sheet || st.BlockCells > 0) {
					break
				}
				prev = st.Elements
				if time.Now().After(deadline) {
					b.Fatalf("%s never settled", c.name)
				}
				time.Sleep(300 * time.Millisecond)
			}
			var total, block time.Duration
			var st atspi.ReadStats
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st = read()
				total += st.Total
				block += st.BlockTime
			}
			b.StopTimer()
			ms := float64(total.Microseconds()) / 1000 / float64(b.N)
			b.ReportMetric(float64(st.Elements), "elements")
			b.ReportMetric(ms, "read_ms")
			if st.BlockCells > 0 {
				b.ReportMetric(float64(st.BlockCells), "cells")
				b.ReportMetric(float64(block.Microseconds())/1000/float64(b.N), "block_ms")
			}
			if c.walk {
				n, wms, ok := walkWindow(b, a.pid, 60*time.Second)
				if !ok {
					b.Fatalf("the walk of %s did not finish", c.name)
				}
				b.ReportMetric(float64(n), "walk_elements")
				b.ReportMetric(wms, "walk_ms")
				b.ReportMetric(wms/ms, "ratio")
			}
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
