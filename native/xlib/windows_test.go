//go:build cgo

package xlib

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/xtest"
)

// plain makes a plain window (another client's) for a test and destroys
// it after.
func plain(t *testing.T, p xtest.PlainWindow) uint64 {
	t.Helper()
	return plainOn(t, xt, p)
}

// plainOn is plain with the window made by the client x.
func plainOn(t *testing.T, x *xtest.Display, p xtest.PlainWindow) uint64 {
	t.Helper()
	id, err := x.NewPlainWindow(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.DestroyWindow(id) })
	return id
}

// find returns the listed window with the id.
func find(t *testing.T, ws []Window, id uint64) Window {
	t.Helper()
	i := slices.IndexFunc(ws, func(w Window) bool { return w.ID == id })
	if i < 0 {
		t.Fatalf("window %#x is not among the top-levels %+v", id, ws)
	}
	return ws[i]
}

func TestTopLevelsListAPlainWindow(t *testing.T) {
	frame := Rect{X: 130, Y: 170, W: 240, H: 110}
	id := plain(t, xtest.PlainWindow{Frame: xtest.Rect(frame), RGB: 0x336699, Class: "nish-plain", Title: "Plain window · ünïcode"})
	ws, err := dpy.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	got := find(t, ws, id)
	want := Window{ID: id, Pid: os.Getpid(), Title: "Plain window · ünïcode", Class: "nish-plain",
		Instance: "nish-plain", Frame: frame, Mapped: true, Stacking: 0}
	if got != want {
		t.Fatalf("TopLevels lists\n%+v\nwant\n%+v", got, want)
	}
}

func TestTopLevelsListAGTKAppWithItsPid(t *testing.T) {
	frame := Rect{X: 400, Y: 300, W: 320, H: 200}
	app := startGTK(t, "GTK fixture window", "nish-gtk-fixture", frame)
	ws, err := dpy.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	got := find(t, ws, app.id)
	if got.Pid != app.cmd.Process.Pid {
		t.Errorf("pid %d, want the process's %d", got.Pid, app.cmd.Process.Pid)
	}
	if got.Title != "GTK fixture window" {
		t.Errorf("title %q", got.Title)
	}
	if got.Instance != "nish-gtk-fixture" || got.Class != "Nish-gtk-fixture" {
		t.Errorf("WM_CLASS %q / %q", got.Instance, got.Class)
	}
	if got.Frame != frame {
		t.Errorf("frame %+v, want %+v", got.Frame, frame)
	}
	if !got.Mapped || got.Stacking != 0 {
		t.Errorf("mapped %v stacking %d, want a mapped window on top", got.Mapped, got.Stacking)
	}
}

func TestTopLevelsLeaveOutOverrideRedirectAndTheDriversOwnWindows(t *testing.T) {
	menu := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 5, Y: 5, W: 40, H: 40}, RGB: 0xffffff, Class: "nish-menu", Title: "menu", OverrideRedirect: true})
	dialog := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 50, Y: 5, W: 40, H: 40}, RGB: 0xffffff, Class: DriverClass, Title: "dialog"})
	indicator := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 95, Y: 5, W: 40, H: 40}, RGB: 0xff0000, Class: IndicatorClass, Title: "indicator"})
	shown := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 140, Y: 5, W: 40, H: 40}, RGB: 0x00ff00, Class: "nish-shown", Title: "shown"})
	ws, err := dpy.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []uint64{menu, dialog, indicator} {
		if slices.ContainsFunc(ws, func(w Window) bool { return w.ID == hidden }) {
			t.Errorf("window %#x is listed", hidden)
		}
	}
	find(t, ws, shown)
	for i, w := range ws {
		if w.Stacking != i {
			t.Errorf("stacking %d at position %d", w.Stacking, i)
		}
	}
}

func TestStackingTopmostAtAndRaise(t *testing.T) {
	a := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 600, Y: 100, W: 300, H: 200}, RGB: 0xaa0000, Class: "nish-a", Title: "A"})
	b := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 700, Y: 150, W: 300, H: 200}, RGB: 0x0000aa, Class: "nish-b", Title: "B"})
	ws, err := dpy.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	if wa, wb := find(t, ws, a), find(t, ws, b); wb.Stacking >= wa.Stacking {
		t.Fatalf("B (mapped last) has stacking %d, A %d: B should be above", wb.Stacking, wa.Stacking)
	}
	skipB := func(id uint64) bool { return id == b }
	cases := []struct {
		name string
		x, y int
		skip func(uint64) bool
		want uint64
	}{
		{"only A there", 610, 110, nil, a},
		{"both there, B on top", 750, 200, nil, b},
		{"only B there", 950, 330, nil, b},
		{"B skipped", 750, 200, skipB, a},
		{"nothing there", 1500, 900, nil, 0},
	}
	for _, c := range cases {
		got, err := dpy.TopmostAt(c.x, c.y, c.skip)
		if err != nil || got != c.want {
			t.Errorf("%s: TopmostAt(%d, %d) = %#x, %v; want %#x", c.name, c.x, c.y, got, err, c.want)
		}
	}

	if err := dpy.Raise(a); err != nil {
		t.Fatal(err)
	}
	if got, _ := dpy.TopmostAt(750, 200, nil); got != a {
		t.Errorf("after Raise(A), TopmostAt = %#x, want A %#x", got, a)
	}
	ws, _ = dpy.TopLevels()
	if wa, wb := find(t, ws, a), find(t, ws, b); wa.Stacking >= wb.Stacking {
		t.Errorf("after Raise(A), A has stacking %d and B %d", wa.Stacking, wb.Stacking)
	}
	if f, err := dpy.FocusedTopLevel(); err != nil || f != a {
		t.Errorf("after Raise(A), FocusedTopLevel = %#x, %v; want %#x", f, err, a)
	}
}

func TestTopmostAtLooksThroughOnlyThisProcesssDriverWindows(t *testing.T) {
	base := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 1000, Y: 500, W: 400, H: 300}, RGB: 0x555555, Class: "nish-base", Title: "base"})
	own := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 1050, Y: 550, W: 100, H: 100}, RGB: 0xffffff, Class: DriverClass, Title: "own dialog"})
	if got, err := dpy.TopmostAt(1100, 600, nil); err != nil || got != base {
		t.Errorf("under this process's own dialog, TopmostAt = %#x, %v; want the window below %#x", got, err, base)
	}
	_ = own
	// Another process's window claiming the driver's class hides what is
	// under it.
	app := startGTK(t, "impostor", DriverClass, Rect{X: 1200, Y: 600, W: 150, H: 100})
	if got, err := dpy.TopmostAt(1250, 650, nil); err != nil || got != app.id {
		t.Errorf("under another process's window with the driver's class, TopmostAt = %#x, %v; want it %#x", got, err, app.id)
	}
}

func TestTopLevelsUnderAWindowManager(t *testing.T) {
	for _, stacking := range []bool{true, false} {
		name := "client list only"
		if stacking {
			name = "stacking list"
		}
		t.Run(name, func(t *testing.T) {
			a := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 0, Y: 0, W: 200, H: 100}, RGB: 0x112233, Class: "nish-wm-a", Title: "managed A"})
			b := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 0, Y: 0, W: 150, H: 80}, RGB: 0x445566, Class: "nish-wm-b", Title: "managed B"})
			wm, err := xtest.StartWM(desk.Display)
			if err != nil {
				t.Fatal(err)
			}
			defer wm.Close()
			if _, err := wm.Frame(a, xtest.Rect{X: 300, Y: 400, W: 200, H: 120}, 20); err != nil {
				t.Fatal(err)
			}
			if _, err := wm.Frame(b, xtest.Rect{X: 350, Y: 420, W: 150, H: 100}, 20); err != nil {
				t.Fatal(err)
			}
			if err := wm.SetClients([]uint64{a, b}, stacking); err != nil {
				t.Fatal(err)
			}
			ws, err := dpy.TopLevels()
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != 2 {
				t.Fatalf("TopLevels under a window manager = %+v, want its two clients", ws)
			}
			wantB := Window{ID: b, Pid: os.Getpid(), Title: "managed B", Class: "nish-wm-b", Instance: "nish-wm-b",
				Frame: Rect{X: 350, Y: 440, W: 150, H: 80}, Mapped: true, Stacking: 0}
			wantA := Window{ID: a, Pid: os.Getpid(), Title: "managed A", Class: "nish-wm-a", Instance: "nish-wm-a",
				Frame: Rect{X: 300, Y: 420, W: 200, H: 100}, Mapped: true, Stacking: 1}
			if ws[0] != wantB || ws[1] != wantA {
				t.Fatalf("TopLevels =\n%+v\nwant\n%+v", ws, []Window{wantB, wantA})
			}
			hits := []struct {
				x, y int
				want uint64
			}{
				{360, 450, b}, // both clients
				{360, 425, b}, // B's title bar, over A's client area
				{310, 410, a}, // A's title bar
				{520, 530, 0}, // below both frames
			}
			for _, h := range hits {
				if got, err := dpy.TopmostAt(h.x, h.y, nil); err != nil || got != h.want {
					t.Errorf("TopmostAt(%d, %d) = %#x, %v; want %#x", h.x, h.y, got, err, h.want)
				}
			}
			if err := dpy.Raise(a); err != nil {
				t.Fatal(err)
			}
			if got, err := wm.Activation(30 * time.Second); err != nil {
				t.Errorf("Raise sent no _NET_ACTIVE_WINDOW to the window manager: %v", err)
			} else if got != a {
				t.Errorf("_NET_ACTIVE_WINDOW asked for %#x, want %#x", got, a)
			}
		})
	}
}
