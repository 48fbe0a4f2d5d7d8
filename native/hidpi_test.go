package native_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Takeover clicks by token on a GTK 3 window drawn at several scales
// (native/atspi/testdata/buttons.py: twelve buttons whose handlers set a
// status label to "clicked button N"), and the hit-test's refusals on the
// real desktop.

// startButtons starts the buttons fixture titled title at logical x,y
// with extra environment (GDK_SCALE, GDK_DPI_SCALE) and returns its
// command.
func startButtons(t *testing.T, title string, x, y int, env ...string) *exec.Cmd {
	t.Helper()
	cmd := deskOf(t).Command("/usr/bin/python3", testkit.Fixture(t, "buttons.py"), title, fmt.Sprint(x), fmt.Sprint(y))
	cmd.Env = append(cmd.Env, env...)
	return startReady(t, "the buttons fixture", cmd)
}

// statusOf reads the fixture's status label through a fresh read: the
// app's own word on which button its handler ran for.
func statusOf(t *testing.T, w *tk, pid int) string {
	t.Helper()
	_, read := w.read(pid)
	for _, row := range testkit.Rows(t, read) {
		if l, _ := row["label"].(string); row["role"] == "label" && (l == "none clicked" || strings.HasPrefix(l, "clicked button ")) {
			return l
		}
	}
	t.Fatalf("no status label in:\n%s", read["tree_text"])
	return ""
}

// xGeometry is the window's X geometry (device pixels).
func xGeometry(t *testing.T, w *tk, win uint64) engine.Rect {
	t.Helper()
	wins, err := w.b.Windows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range wins {
		if uint64(x.ID) == win {
			return x.Frame
		}
	}
	t.Fatalf("window %#x is not listed", win)
	return engine.Rect{}
}

// TestTakeoverClicksByTokenAtGTKScales: at every scale GTK 3 can draw, a
// takeover click by token reaches the button named, and the rows' frames
// are the window's device pixels.
func TestTakeoverClicksByTokenAtGTKScales(t *testing.T) {
	onDesktop(t)
	for _, c := range []struct {
		name string
		env  []string
		// scale is GTK 3's device pixels per logical pixel: GDK_SCALE
		// is a whole number, and GDK_DPI_SCALE scales text only. The
		// "1.5" a desktop asks for is GDK_SCALE=2 with GDK_DPI_SCALE=0.75.
		scale int
	}{
		{"scale 1", nil, 1},
		{"GDK_SCALE=2", []string{"GDK_SCALE=2"}, 2},
		{"1.5: GDK_SCALE=2 GDK_DPI_SCALE=0.75", []string{"GDK_SCALE=2", "GDK_DPI_SCALE=0.75"}, 2},
		{"text at 1.5: GDK_DPI_SCALE=1.5", []string{"GDK_DPI_SCALE=1.5"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := startButtons(t, "Twelve buttons", 40, 40, c.env...)
			pid := cmd.Process.Pid
			w := newTakeover(t)
			w.grantTakeover(pid)
			win, read := w.read(pid)
			geo := xGeometry(t, w, win)
			if geo.X != 40*c.scale || geo.Y != 40*c.scale {
				t.Fatalf("the window is at %v, not where GTK puts logical 40,40 at scale %d", geo, c.scale)
			}
			b1 := testkit.Row(t, read, "push_button", "button 1")
			f := testkit.Field[map[string]any](t, b1, "frame")
			// A button is at least 90 by 32 logical pixels (the fixture's
			// size request) and lies inside the window.
			if fw, fh := testkit.Int(t, f, "w"), testkit.Int(t, f, "h"); fw < 90*c.scale || fh < 32*c.scale || fw >= 2*90*c.scale ||
				testkit.Int(t, f, "x")+fw > geo.W || testkit.Int(t, f, "y")+fh > geo.H {
				t.Fatalf("button 1's frame %v in a window of %v at scale %d", f, geo, c.scale)
			}
			for _, n := range []int{9, 4, 12, 1} {
				_, read := w.read(pid)
				tok := testkit.Token(t, read, "push_button", fmt.Sprintf("button %d", n))
				res := w.ok("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
				if res["path"] != "xtest" || res["landed_elsewhere"] != nil {
					t.Fatalf("click on button %d: %v", n, res)
				}
				if st := statusOf(t, w, pid); st != fmt.Sprintf("clicked button %d", n) {
					t.Fatalf("a takeover click by token on button %d: the app says %q", n, st)
				}
			}
		})
	}
}

// startCover shows a plain GTK window at x,y (mapped after the
// buttons, so above them: there is no window manager) and returns once it
// is on screen.
func startCover(t *testing.T, x, y int) {
	t.Helper()
	script := fmt.Sprintf(`import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk
w = Gtk.Window(title="Cover")
w.set_default_size(200, 120)
w.move(%d, %d)
w.show_all()
GLib.timeout_add(200, lambda: print("ready", flush=True) and False)
Gtk.main()
`, x, y)
	startReady(t, "the cover", deskOf(t).Command("/usr/bin/python3", "-c", script))
}

// TestTakeoverHitTestOnTheDesktop: the point of a click by token must hold
// the target now. Another window over it is occluded; a layout that moved
// since the read (the fixture swaps button 4 and button 9 on SIGUSR1,
// with no change to the tree's structure) is refused or clicked where the
// button is now, never on the button that took its place. Nothing is sent
// after a refusal.
func TestTakeoverHitTestOnTheDesktop(t *testing.T) {
	onDesktop(t)
	cmd := startButtons(t, "Twelve buttons", 40, 40, "GDK_SCALE=2")
	pid := cmd.Process.Pid
	w := newTakeover(t)
	w.grantTakeover(pid)

	t.Run("the layout moved after the read", func(t *testing.T) {
		win, read := w.read(pid)
		row := testkit.Row(t, read, "push_button", "button 9")
		tok := row["element_token"].(string)
		before := testkit.Field[map[string]any](t, row, "frame")
		if err := cmd.Process.Signal(syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		// Wait until the app reports button 9 elsewhere, reading through
		// the backend alone (the session's reads stay as they were).
		testkit.Eventually(t, 30*time.Second, "the app reports button 9 moved", func() bool {
			tr, err := w.b.ReadTree(context.Background(), engine.WindowID(win), engine.DefaultZoomBudget())
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tr.Nodes {
				if n.Role == "push_button" && n.Name == "button 9" && n.Frame.Y-int(xGeometry(t, w, win).Y) != testkit.Int(t, before, "y") {
					return true
				}
			}
			return false
		})
		sent := w.spy.count("")
		r := w.call("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
		st := statusOf(t, w, pid)
		switch {
		case r.Err != nil && r.Err.Code == engine.CodeStaleElementToken:
			if got := w.spy.since(sent); len(got) != 0 || st != "none clicked" {
				t.Fatalf("a refused click sent %v; the app says %q", got, st)
			}
			t.Logf("refused: %s", r.Text)
		case r.Err == nil && st == "clicked button 9":
			t.Logf("the read before the act was fresh: %s", r.Text)
		default:
			t.Fatalf("a click on button 9 after it moved: %s; the app says %q", r.Text, st)
		}
	})

	t.Run("another window covers the target", func(t *testing.T) {
		_, read := w.read(pid)
		row := testkit.Row(t, read, "push_button", "button 9")
		tok := row["element_token"].(string)
		f := testkit.Field[map[string]any](t, row, "frame")
		// The cover (at scale 1, 200 by 120) over button 9's centre: the
		// buttons window is at device 80,80.
		cx, cy := 80+testkit.Int(t, f, "x")+testkit.Int(t, f, "w")/2, 80+testkit.Int(t, f, "y")+testkit.Int(t, f, "h")/2
		startCover(t, cx-100, cy-60)
		w.clickOccluded(t, tok)
	})
}

// num is m[key], a number, as an int; failing the test when m lacks it.

// logicalFrames is the native backend with the bug the issue found: it
// reports a GTK window's frames in the app's logical pixels, unconverted
// (it undoes the conversion of a scale-2 window at device origin). The
// tests put the window at 0,0, where the centre of button 6's logical
// frame is, in device pixels, a point over button 1.
type logicalFrames struct {
	*sendSpy
	origin engine.Point
}

func (l *logicalFrames) unconvert(n *engine.Node) {
	if !n.Frame.Empty() {
		n.Frame = engine.Rect{X: l.origin.X/2 + (n.Frame.X-l.origin.X)/2, Y: l.origin.Y/2 + (n.Frame.Y-l.origin.Y)/2,
			W: n.Frame.W / 2, H: n.Frame.H / 2}
	}
}

func (l *logicalFrames) ReadDetails(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	err := l.sendSpy.ReadDetails(ctx, w, nodes)
	for _, n := range nodes {
		l.unconvert(n)
	}
	return err
}

// blindLogicalFrames is logicalFrames that cannot hit-test: the field
// ElementsAt hides the backend's method, so the engine finds no
// engine.HitTester and clicks where the frames say.
type blindLogicalFrames struct {
	*logicalFrames
	ElementsAt struct{}
}

// TestTakeoverHitTestRefusesFramesInTheWrongSpace: the click, aimed
// through frames in the app's logical pixels at a GDK_SCALE=2 window, is
// refused by the hit-test the native backend answers from the app
// (GetAccessibleAtPoint), with nothing sent and no button clicked. Without
// a hit-test it reaches another button, and the result says so from the
// settled read (the other button took the focus): effect no_change, not
// verified, landed_elsewhere.
func TestTakeoverHitTestRefusesFramesInTheWrongSpace(t *testing.T) {
	onDesktop(t)
	t.Run("without a hit-test", func(t *testing.T) {
		cmd := startButtons(t, "Twelve buttons", 0, 0, "GDK_SCALE=2")
		pid := cmd.Process.Pid
		w := newTakeoverOn(t, func(s *sendSpy) engine.Backend {
			return &blindLogicalFrames{logicalFrames: &logicalFrames{sendSpy: s}}
		})
		if _, ok := engine.Backend(&blindLogicalFrames{}).(engine.HitTester); ok {
			t.Fatal("the blind backend still answers hit-tests")
		}
		w.grantTakeover(pid)
		_, read := w.read(pid)
		tok := testkit.Token(t, read, "push_button", "button 6")
		res := w.ok("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
		st := statusOf(t, w, pid)
		if st == "clicked button 6" || st == "none clicked" {
			t.Fatalf("the wrong-space click was meant to reach another button; the app says %q", st)
		}
		other := testkit.Row(t, read, "push_button", strings.TrimPrefix(st, "clicked "))
		landed, _ := res["landed_elsewhere"].([]any)
		if res["effect"] != "no_change" || res["verified"] != false || len(landed) != 1 || landed[0] != other["element_index"] {
			t.Fatalf("the app says %q (element %v); the result: %v", st, other["element_index"], res)
		}
	})

	cmd := startButtons(t, "Twelve buttons", 0, 0, "GDK_SCALE=2")
	pid := cmd.Process.Pid
	w := newTakeoverOn(t, func(s *sendSpy) engine.Backend { return &logicalFrames{sendSpy: s} })
	w.grantTakeover(pid)
	_, read := w.read(pid)
	tok := testkit.Token(t, read, "push_button", "button 6")
	sent := w.spy.count("")
	r := w.call("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
	if r.Err == nil || (r.Err.Code != engine.CodeOccluded && r.Err.Code != engine.CodeStaleElementToken) {
		t.Fatalf("a click through frames in the wrong space: %s", r.Text)
	}
	if got := w.spy.since(sent); len(got) != 0 {
		t.Fatalf("a refused click sent %v", got)
	}
	if st := statusOf(t, w, pid); st != "none clicked" {
		t.Fatalf("a refused click reached a button: %q", st)
	}
}
