package native

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// TestMeasureScale: a window's scale is its X geometry over its frame's
// extents when both sides agree; sizes that differ for other reasons
// (decorations, shadows, no extents) leave extents as reported.
func TestMeasureScale(t *testing.T) {
	for _, c := range []struct {
		name    string
		device  xlib.Rect
		logical engine.Rect
		want    float64
	}{
		{"GTK 3 at GDK_SCALE=2", xlib.Rect{X: 80, Y: 80, W: 824, H: 306}, engine.Rect{X: 40, Y: 40, W: 412, H: 153}, 2},
		{"scale 1", xlib.Rect{X: 700, Y: 40, W: 412, H: 153}, engine.Rect{X: 700, Y: 40, W: 412, H: 153}, 1},
		{"GDK_DPI_SCALE only: bigger text, scale 1", xlib.Rect{X: 700, Y: 400, W: 553, H: 160}, engine.Rect{X: 700, Y: 400, W: 553, H: 160}, 1},
		{"Qt at 1.5, rounded sizes", xlib.Rect{W: 1201, H: 751}, engine.Rect{W: 801, H: 501}, 1.5},
		{"Qt at 1.25", xlib.Rect{W: 1000, H: 625}, engine.Rect{W: 800, H: 500}, 1.25},
		{"3", xlib.Rect{W: 1200, H: 900}, engine.Rect{W: 400, H: 300}, 3},
		{"a shadow round the window: the two axes disagree", xlib.Rect{W: 464, H: 205}, engine.Rect{W: 412, H: 153}, 1},
		{"a frame with no extents", xlib.Rect{W: 800, H: 600}, engine.Rect{X: -1, Y: -1, W: -1, H: -1}, 1},
		{"a frame bigger than its window", xlib.Rect{W: 400, H: 300}, engine.Rect{W: 800, H: 600}, 1},
		{"a ratio past any real scale", xlib.Rect{W: 4000, H: 3000}, engine.Rect{W: 400, H: 300}, 1},
	} {
		if got := measureScale(c.device, c.logical).Scale; got != c.want {
			t.Errorf("%s: scale %v, want %v", c.name, got, c.want)
		}
	}
}

// TestScaleConversions: extents become device pixels relative to the
// window, edges rounded so neighbours still touch, and a device point
// goes back to the logical pixel holding it.
func TestScaleConversions(t *testing.T) {
	gtk := measureScale(xlib.Rect{X: 80, Y: 80, W: 824, H: 306}, engine.Rect{X: 40, Y: 40, W: 412, H: 153})
	// The button 9 of the fixture at GDK_SCALE=2: logical
	// (48,151) 90x34 in a window at logical (40,40).
	if got, want := gtk.toDevice(engine.Rect{X: 48, Y: 151, W: 90, H: 34}), (engine.Rect{X: 96, Y: 302, W: 180, H: 68}); got != want {
		t.Fatalf("GTK at 2: %v, want %v", got, want)
	}
	if got, want := gtk.toApp(engine.Point{X: 186, Y: 336}), (engine.Point{X: 93, Y: 168}); got != want {
		t.Fatalf("GTK at 2, a point: %v, want %v", got, want)
	}
	// Qt at 1.5 on a second monitor at 1920,0: the logical origin is not
	// the device one divided by the scale.
	qt := measureScale(xlib.Rect{X: 2020, Y: 150, W: 1200, H: 750}, engine.Rect{X: 1986, Y: 100, W: 800, H: 500})
	a := qt.toDevice(engine.Rect{X: 1986 + 11, Y: 100 + 7, W: 33, H: 21})
	b := qt.toDevice(engine.Rect{X: 1986 + 44, Y: 100 + 7, W: 33, H: 21})
	if a.X != 2020+17 || a.Y != 150+11 || a.X+a.W != b.X {
		t.Fatalf("Qt at 1.5: %v then %v", a, b)
	}
	for _, p := range []engine.Point{{X: a.X, Y: a.Y}, {X: a.X + a.W - 1, Y: a.Y + a.H - 1}, a.Center()} {
		back := qt.toApp(p)
		if back.X < 1986+11 || back.X >= 1986+44 || back.Y < 100+7 || back.Y >= 100+28 {
			t.Fatalf("Qt at 1.5: device %v is logical %v, outside the element", p, back)
		}
	}
	if qt.lengthToApp(300) != 200 || gtk.lengthToApp(300) != 150 {
		t.Fatal("lengths")
	}
	one := measureScale(xlib.Rect{X: 5, Y: 5, W: 100, H: 100}, engine.Rect{X: 0, Y: 0, W: 100, H: 100})
	if r := (engine.Rect{X: 1, Y: 2, W: 3, H: 4}); one.toDevice(r) != r || one.toApp(engine.Point{X: 7, Y: 8}) != (engine.Point{X: 7, Y: 8}) {
		t.Fatal("scale 1 changes nothing, whatever the origins")
	}
	if gtk.toDevice(engine.Rect{}) != (engine.Rect{}) {
		t.Fatal("an empty frame stays empty")
	}
}

// TestMatchFrameAtAScale: a frame reporting the window's geometry in
// logical pixels matches it as fully overlapping, and one of another
// shape or place does not.
func TestMatchFrameAtAScale(t *testing.T) {
	win := xlib.Window{ID: 1, Pid: 100, Title: "Twelve buttons", Frame: xlib.Rect{X: 80, Y: 80, W: 824, H: 306}}
	scaled := frame(":1.5/a", 100, "Other title", 40, 40, 412, 153, false)
	elsewhere := frame(":1.5/b", 100, "Other title", 300, 300, 412, 153, false)
	if f, ok := matchFrame(win, []atspi.Frame{elsewhere, scaled}); !ok || f.ID != scaled.ID {
		t.Fatalf("matched %v %v", f.ID, ok)
	}
	if !scaledAlike(win.Frame, rectFromAtspi(scaled.Extents)) || scaledAlike(win.Frame, rectFromAtspi(elsewhere.Extents)) {
		t.Fatal("scaledAlike")
	}
}
