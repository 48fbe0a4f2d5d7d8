package xlib

import (
	"math"
	"testing"
)

func inside(in, r Rect) bool {
	return r.W > 0 && r.H > 0 && r.X >= in.X && r.Y >= in.Y && r.X+r.W <= in.X+in.W && r.Y+r.H <= in.Y+in.H
}

func TestIndicatorLayoutFramesEveryMonitorAndKeepsTheControlsOnOne(t *testing.T) {
	fullHD := Rect{W: 1920, H: 1080}
	for _, c := range []struct {
		name           string
		mons           []Rect
		at             int
		labelW, labelH int
		btnW, btnH     int
	}{
		{"one full HD monitor", []Rect{fullHD}, 0, 300, 25, 100, 29},
		{"small screen", []Rect{{W: 640, H: 480}}, 0, 280, 20, 80, 24},
		{"second of two sizes", []Rect{fullHD, {X: 1920, W: 960, H: 720}}, 1, 300, 25, 100, 29},
		{"first of two sizes", []Rect{fullHD, {X: 1920, W: 960, H: 720}}, 0, 300, 25, 100, 29},
		{"below another", []Rect{{W: 1280, H: 1024}, {X: 200, Y: 1024, W: 800, H: 600}}, 1, 300, 25, 100, 29},
		{"narrower than the label", []Rect{fullHD, {X: 1920, Y: 300, W: 200, H: 40}}, 1, 300, 25, 100, 29},
		{"a sliver", []Rect{fullHD, {X: 1920, W: 6, H: 1080}}, 1, 300, 25, 100, 29},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := layoutIndicator(c.mons, c.at, c.labelW, c.labelH, c.btnW, c.btnH)
			ft := frameThickness
			var want []Rect
			for _, m := range c.mons {
				if m.W <= 2*ft || m.H <= 2*ft {
					want = append(want, m)
					continue
				}
				want = append(want,
					Rect{X: m.X, Y: m.Y, W: m.W, H: ft},
					Rect{X: m.X, Y: m.Y + m.H - ft, W: m.W, H: ft},
					Rect{X: m.X, Y: m.Y + ft, W: ft, H: m.H - 2*ft},
					Rect{X: m.X + m.W - ft, Y: m.Y + ft, W: ft, H: m.H - 2*ft})
			}
			if len(l.frame) != len(want) {
				t.Fatalf("%d frame strips, want %d", len(l.frame), len(want))
			}
			for i := range want {
				if l.frame[i] != want[i] {
					t.Errorf("strip %d is %+v, want %+v", i, l.frame[i], want[i])
				}
			}
			m := c.mons[c.at]
			if l.monitor != c.at {
				t.Errorf("the layout says monitor %d, want %d", l.monitor, c.at)
			}
			for _, r := range []Rect{l.label, l.button} {
				if !inside(m, r) {
					t.Errorf("%+v is not on monitor %+v", r, m)
				}
				for i, o := range c.mons {
					if i != c.at && intersect(o, r).W > 0 {
						t.Errorf("%+v reaches into monitor %d %+v", r, i, o)
					}
				}
			}
			if m.W > 2*ft && m.H > 2*ft {
				in := Rect{X: m.X + ft, Y: m.Y + ft, W: m.W - 2*ft, H: m.H - 2*ft}
				if !inside(in, l.label) || !inside(in, l.button) {
					t.Errorf("label %+v or button %+v lies on the frame of %+v", l.label, l.button, m)
				}
			}
			if l.label.X+l.label.W/2 != m.X+m.W/2 && l.label.X+(l.label.W+1)/2 != m.X+m.W/2 {
				t.Errorf("label %+v is not centred on %+v", l.label, m)
			}
			roomy := m.H >= c.labelH+c.btnH+labelGap+2*ft && m.W >= max(c.labelW, c.btnW)+2*ft
			if roomy {
				if l.label.W != c.labelW || l.label.H != c.labelH || l.button.W != c.btnW || l.button.H != c.btnH {
					t.Errorf("label %+v and button %+v are not their full size", l.label, l.button)
				}
				if l.button.Y < l.label.Y+l.label.H {
					t.Errorf("button %+v is not under the label %+v", l.button, l.label)
				}
			}
		})
	}
}

func TestPickMonitorTakesTheOneHoldingMostOfTheTarget(t *testing.T) {
	left := Monitor{Name: "L", Frame: Rect{W: 1920, H: 1080}}
	right := Monitor{Name: "R", Frame: Rect{X: 1920, W: 960, H: 720}}
	primaryRight := right
	primaryRight.Primary = true
	for _, c := range []struct {
		name   string
		mons   []Monitor
		target Rect
		want   int
	}{
		{"inside the second", []Monitor{left, right}, Rect{X: 2000, Y: 10, W: 800, H: 600}, 1},
		{"straddling, mostly the first", []Monitor{left, right}, Rect{X: 1500, Y: 0, W: 500, H: 300}, 0},
		{"straddling, mostly the second", []Monitor{left, right}, Rect{X: 1800, Y: 0, W: 500, H: 300}, 1},
		{"no target, no primary", []Monitor{left, right}, Rect{}, 0},
		{"no target, the primary", []Monitor{left, primaryRight}, Rect{}, 1},
		{"off every monitor", []Monitor{left, primaryRight}, Rect{X: 2000, Y: 900, W: 100, H: 100}, 1},
		{"a point", []Monitor{left, right}, Rect{X: 1925, Y: 5, W: 1, H: 1}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pickMonitor(c.mons, c.target); got != c.want {
				t.Fatalf("pickMonitor = %d, want %d", got, c.want)
			}
		})
	}
}

func TestMonitorsOnScreenClipsMergesAndFallsBack(t *testing.T) {
	screen := Rect{W: 2880, H: 1080}
	for _, c := range []struct {
		name string
		in   []Monitor
		want []Monitor
	}{
		{"none listed", nil, []Monitor{{Name: "screen", Frame: screen}}},
		{"clipped to the screen", []Monitor{{Name: "A", Frame: Rect{X: 1920, W: 1920, H: 1080}}},
			[]Monitor{{Name: "A", Frame: Rect{X: 1920, W: 960, H: 1080}}}},
		{"off the screen", []Monitor{{Name: "A", Frame: Rect{X: 3000, W: 100, H: 100}}},
			[]Monitor{{Name: "screen", Frame: screen}}},
		{"clones merged, primary kept", []Monitor{
			{Name: "A", Frame: Rect{W: 1920, H: 1080}},
			{Name: "B", Frame: Rect{W: 1920, H: 1080}, Primary: true},
			{Name: "C", Frame: Rect{X: 1920, W: 960, H: 720}}},
			[]Monitor{{Name: "A", Frame: Rect{W: 1920, H: 1080}, Primary: true}, {Name: "C", Frame: Rect{X: 1920, W: 960, H: 720}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := monitorsOnScreen(c.in, screen)
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("monitor %d is %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestMonitorDPIAndScaleFromItsSize(t *testing.T) {
	for _, c := range []struct {
		name  string
		m     Monitor
		dpi   float64
		scale float64
		known bool
	}{
		{"full HD 23 inch", Monitor{Frame: Rect{W: 1920, H: 1080}, WidthMM: 508, HeightMM: 286}, 96, 1, true},
		{"4K 27 inch", Monitor{Frame: Rect{W: 3840, H: 2160}, WidthMM: 597, HeightMM: 336}, 163.4, 1.75, true},
		{"HiDPI laptop", Monitor{Frame: Rect{W: 2880, H: 1800}, WidthMM: 302, HeightMM: 189}, 242.0, 2.5, true},
		{"size unknown", Monitor{Frame: Rect{W: 1920, H: 1080}}, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dpi, ok := c.m.DPI()
			sc, sok := c.m.Scale()
			if ok != c.known || sok != c.known || math.Abs(dpi-c.dpi) > 1 || sc != c.scale {
				t.Fatalf("DPI %.1f (%v), scale %g (%v); want %.1f, %g, known %v", dpi, ok, sc, sok, c.dpi, c.scale, c.known)
			}
		})
	}
}

func TestCentreOnKeepsAWindowOnItsMonitor(t *testing.T) {
	for _, c := range []struct {
		name         string
		m            Rect
		w, h         int
		wantX, wantY int
	}{
		{"fits", Rect{X: 1920, W: 960, H: 720}, 400, 300, 2200, 210},
		{"wider than the monitor", Rect{X: 1920, Y: 100, W: 300, H: 720}, 400, 300, 1920, 310},
		{"taller than the monitor", Rect{W: 960, H: 200}, 400, 300, 280, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if x, y := centreOn(c.m, c.w, c.h); x != c.wantX || y != c.wantY {
				t.Fatalf("centreOn = %d,%d, want %d,%d", x, y, c.wantX, c.wantY)
			}
		})
	}
}
