package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// The takeover's pointer acts by token on a window whose app scales its
// pixels, and the hit-test before them, on the mock: a window of twelve
// buttons and a status label ("clicked button N", set by each button's
// click), as native/atspi/testdata/buttons.py is on the real desktop.

// buttonsWorld is one driver on a mock desktop holding the buttons window.
type buttonsWorld struct {
	t       *testing.T
	desk    *mock.Desktop
	win     *mock.Window
	status  *mock.Element
	buttons []*mock.Element
	calls   enginecall.Caller
}

// newButtons opens the buttons window at frame (device pixels) with the
// app drawing at scale, and a driver on backend (nil: the mock itself)
// with a takeover session on the app.
func newButtons(t *testing.T, frame engine.Rect, scale float64, backend func(*mock.Desktop) engine.Backend) *buttonsWorld {
	t.Helper()
	desk := mock.New()
	desk.SetConsent(mock.AllowAll)
	app := desk.AddApp("Buttons", "/usr/bin/buttons")
	win := app.AddWindow("Twelve buttons", frame)
	win.SetScale(scale)
	w := &buttonsWorld{t: t, desk: desk, win: win}
	w.status = win.Root().Add("label", "none clicked")
	win.Root().Add("password_text", "Password")
	for i := 1; i <= 12; i++ {
		n := i
		b := win.Root().Add("push_button", fmt.Sprintf("button %d", n))
		b.OnAction("click", func(*mock.ActionContext) { w.status.SetName(fmt.Sprintf("clicked button %d", n)) })
		w.buttons = append(w.buttons, b)
	}
	o := engine.Options{ConsentTimeout: 2 * time.Second, CallTimeout: time.Second}
	if backend != nil {
		o.Backend = backend(desk)
	}
	d := enginekit.Start(t, desk, o)
	c := enginekit.Connect(t, d, "Test Host", 4242)
	w.calls = enginecall.Caller{T: t, Conn: c, Bound: 10 * time.Second,
		Check: func(tool string, res engine.Result) { enginekit.Check(t, tool, res) }}
	st := w.ok("start_session", map[string]any{"apps": []any{app.Pid()}, "input": "takeover"})
	if testkit.Field[map[string]any](t, st, "takeover")["on"] != true {
		t.Fatalf("no takeover: %v", st)
	}
	return w
}

func (w *buttonsWorld) call(tool string, args map[string]any) engine.Result {
	w.t.Helper()
	return w.calls.Call(tool, args)
}

func (w *buttonsWorld) ok(tool string, args map[string]any) map[string]any {
	w.t.Helper()
	return w.calls.OK(tool, args)
}

func (w *buttonsWorld) read() map[string]any {
	w.t.Helper()
	return w.ok("get_window_state", map[string]any{"window_id": uint64(w.win.ID())})
}

func rectOf(t *testing.T, m map[string]any) engine.Rect {
	t.Helper()
	return engine.Rect{X: testkit.Int(t, m, "x"), Y: testkit.Int(t, m, "y"), W: testkit.Int(t, m, "w"), H: testkit.Int(t, m, "h")}
}

// TestTakeoverClickByTokenAtEveryScale: at scales 1, 1.25, 1.5 and 2 a
// takeover click by token lands on the button named, the rows' frames are
// the window's device pixels (where a capture shows the element), and the
// capture is the window's device size with its secure field blacked out
// where the capture shows it.
func TestTakeoverClickByTokenAtEveryScale(t *testing.T) {
	frame := engine.Rect{X: 120, Y: 90, W: 840, H: 600}
	for _, scale := range []float64{1, 1.25, 1.5, 2} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) {
			w := newButtons(t, frame, scale, nil)
			for _, n := range []int{9, 4, 12, 1} {
				read := w.read()
				name := fmt.Sprintf("button %d", n)
				row := testkit.Row(t, read, "push_button", name)
				want := w.buttons[n-1].Frame()
				got := rectOf(t, testkit.Field[map[string]any](t, row, "frame"))
				if got != (engine.Rect{X: want.X - frame.X, Y: want.Y - frame.Y, W: want.W, H: want.H}) {
					t.Fatalf("%s's row frame %v, its device frame %v in a window at %v", name, got, want, frame)
				}
				res := w.ok("click", map[string]any{"element_token": row["element_token"], "delivery_mode": "foreground"})
				if res["path"] != "xtest" || res["effect"] != "changed" || res["landed_elsewhere"] != nil {
					t.Fatalf("click on %s: %v", name, res)
				}
				if st := w.status.Name(); st != "clicked "+name {
					t.Fatalf("a click by token on %s reached %q", name, st)
				}
			}
			shot := w.call("get_window_state", map[string]any{"window_id": uint64(w.win.ID()), "include_screenshot": true})
			if shot.Err != nil || shot.Image == nil {
				t.Fatalf("screenshot: %s", shot.Text)
			}
			img, err := png.Decode(bytes.NewReader(shot.Image.Data))
			if err != nil {
				t.Fatal(err)
			}
			b := img.Bounds()
			if b.Dx() != frame.W || b.Dy() != frame.H {
				t.Fatalf("the capture is %v, the window %dx%d device pixels", b, frame.W, frame.H)
			}
			// The secure field's black-out covers it in the capture's
			// pixels: none of its canary colour is left.
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r, g, bl, _ := img.At(x, y).RGBA()
					if c := mock.CanaryColor; uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
						t.Fatalf("the password field shows at %d,%d of the capture", x, y)
					}
				}
			}
		})
	}
}

// TestTakeoverHitTestRefusesBeforeSending: a point that does not hold the
// target is refused with nothing sent: occluded when another element lies
// over the target where the read saw it, stale_element_token when the
// target moved since the read.
func TestTakeoverHitTestRefusesBeforeSending(t *testing.T) {
	frame := engine.Rect{X: 100, Y: 100, W: 600, H: 450}
	// coverTarget lays a popover over the target; moveTarget moves the
	// target away just before the hit test.
	coverTarget := func(w *buttonsWorld) {
		pop := w.win.Root().Find("panel", "popover")
		pop.SetFrame(w.buttons[8].Frame())
	}
	moveTarget := func(w *buttonsWorld) {
		w.desk.BeforeHitTest(func() {
			w.buttons[8].SetFrame(engine.Rect{X: frame.X + 500, Y: frame.Y + 400, W: 60, H: 30})
		})
	}
	cases := []struct {
		name  string
		tool  string
		scale float64
		// arrange runs after the read, before the act: it changes the
		// window the way the case needs.
		arrange func(w *buttonsWorld)
		want    engine.Code
	}{
		{"a popover covers the target", "click", 2, coverTarget, engine.CodeOccluded},
		{"the target moved after the read", "click", 1.5, moveTarget, engine.CodeStaleElementToken},
		{"a scroll on a covered element", "scroll", 1, coverTarget, engine.CodeOccluded},
		{"a drag whose drop target moved", "drag", 1.25, moveTarget, engine.CodeStaleElementToken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newButtons(t, frame, c.scale, nil)
			// The popover exists from the start, away from the buttons,
			// so moving it changes no structure (the token stays good).
			w.win.Root().Add("panel", "popover").SetFrame(engine.Rect{X: frame.X + 540, Y: frame.Y + 400, W: 40, H: 30})
			read := w.read()
			tok := testkit.Row(t, read, "push_button", "button 9")["element_token"]
			args := map[string]any{"element_token": tok, "delivery_mode": "foreground"}
			switch c.tool {
			case "scroll":
				args["direction"] = "down"
			case "drag":
				args = map[string]any{"from_token": testkit.Row(t, read, "push_button", "button 1")["element_token"], "to_token": tok}
			}
			c.arrange(w)
			w.desk.ResetCalls()
			r := w.call(c.tool, args)
			if r.Err == nil || r.Err.Code != c.want {
				t.Fatalf("%s: want %s, got %s", c.tool, c.want, r.Text)
			}
			e := testkit.Decode(t, r.Structured)["error"].(map[string]any)
			if e["disposition"].(map[string]any)["retry"] != "after_refresh" || !strings.Contains(e["message"].(string), "nothing was sent") {
				t.Fatalf("the refusal: %v", e)
			}
			if sent := w.desk.Sent(); len(sent) != 0 {
				t.Fatalf("a refused %s sent %v", c.tool, sent)
			}
			if st := w.status.Name(); st != "none clicked" {
				t.Fatalf("a refused %s reached a button: %q", c.tool, st)
			}
		})
	}
}

// unscaled is a backend with the bug the hit-test guards against: it
// reports a scaled window's frames in the app's logical pixels (as the
// driver did before it measured scales), so the centre of a button's frame
// is a point over another button. withHitTest is the one that answers
// the hit-test.
type unscaled struct {
	engine.Backend
	desk  *mock.Desktop
	scale float64
	win   engine.Rect
}

func (u *unscaled) unscale(n *engine.Node) {
	f := &n.Frame
	*f = engine.Rect{X: u.win.X + int(float64(f.X-u.win.X)/u.scale), Y: u.win.Y + int(float64(f.Y-u.win.Y)/u.scale),
		W: int(float64(f.W) / u.scale), H: int(float64(f.H) / u.scale)}
}

func (u *unscaled) ReadDetails(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	err := u.Backend.ReadDetails(ctx, w, nodes)
	for _, n := range nodes {
		u.unscale(n)
	}
	return err
}

func (u *unscaled) ReadFrames(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	err := u.Backend.ReadFrames(ctx, w, nodes)
	for _, n := range nodes {
		u.unscale(n)
	}
	return err
}

// withHitTest is unscaled that answers the hit-test.
type withHitTest struct{ *unscaled }

func (h withHitTest) ElementsAt(ctx context.Context, w engine.WindowID, p engine.Point) ([]engine.ElementID, error) {
	return h.desk.ElementsAt(ctx, w, p)
}

// TestFramesInTheWrongSpace: the scenario, a click by token aimed
// through frames in the wrong space. With the hit-test the click is
// refused before anything is sent; without one (a backend that cannot
// hit-test) it lands on another button, and the result says so: effect
// no_change, not verified, landed_elsewhere naming that button.
func TestFramesInTheWrongSpace(t *testing.T) {
	frame := engine.Rect{X: 0, Y: 0, W: 800, H: 600}
	bug := func(hit bool) func(*mock.Desktop) engine.Backend {
		return func(d *mock.Desktop) engine.Backend {
			u := &unscaled{Backend: d, desk: d, scale: 2, win: frame}
			if hit {
				return withHitTest{u}
			}
			return u
		}
	}
	t.Run("refused by the hit-test", func(t *testing.T) {
		w := newButtons(t, frame, 2, bug(true))
		tok := testkit.Row(t, w.read(), "push_button", "button 9")["element_token"]
		w.desk.ResetCalls()
		r := w.call("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
		// The live frame the refusal reads again is in the wrong space
		// too and still holds the point, so another element covers it.
		if r.Err == nil || r.Err.Code != engine.CodeOccluded {
			t.Fatalf("want occluded, got %s", r.Text)
		}
		if len(w.desk.Sent()) != 0 || w.status.Name() != "none clicked" {
			t.Fatalf("sent %v, status %q", w.desk.Sent(), w.status.Name())
		}
	})
	t.Run("no hit-test: the result names where it landed", func(t *testing.T) {
		w := newButtons(t, frame, 2, bug(false))
		read := w.read()
		tok := testkit.Row(t, read, "push_button", "button 9")["element_token"]
		res := w.ok("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
		st := w.status.Name()
		if st == "clicked button 9" || !strings.HasPrefix(st, "clicked button ") {
			t.Fatalf("the wrong-space click was meant to reach another button, status %q", st)
		}
		other := testkit.Int(t, testkit.Row(t, read, "push_button", strings.TrimPrefix(st, "clicked ")), "element_index")
		landed, _ := res["landed_elsewhere"].([]any)
		if res["effect"] != "no_change" || res["verified"] != false || len(landed) != 1 || landed[0] != float64(other) {
			t.Fatalf("a click that reached %s (element %d): %v", st, other, res)
		}
	})
}

// TestLandingOfATakeoverClick: where the settled read says a takeover
// click by token landed, by what the click left on which element.
func TestLandingOfATakeoverClick(t *testing.T) {
	frame := engine.Rect{X: 50, Y: 50, W: 700, H: 500}
	cases := []struct {
		name string
		// arrange builds on the window and returns the element to click.
		arrange     func(w *buttonsWorld) *mock.Element
		effect      string
		landedCount int
	}{
		{"a button whose handler only changes a label", func(w *buttonsWorld) *mock.Element { return w.buttons[2] }, "changed", 0},
		{"a toolbar button that takes no focus and focuses an entry", func(w *buttonsWorld) *mock.Element {
			entry := w.win.Root().Add("entry", "Search")
			b := w.win.Root().Add("push_button", "Find").RemoveStates("focusable")
			b.OnAction("click", func(*mock.ActionContext) { entry.Focus() })
			return b
		}, "changed", 0},
		{"a focusable button left without the focus another element took", func(w *buttonsWorld) *mock.Element {
			other := w.buttons[5]
			b := w.buttons[2]
			b.OnAction("click", func(*mock.ActionContext) { other.Focus() })
			return b
		}, "no_change", 1},
		{"a check box that flips", func(w *buttonsWorld) *mock.Element {
			return w.win.Root().Add("check_box", "Remember me")
		}, "confirmed", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newButtons(t, frame, 1.5, nil)
			target := c.arrange(w)
			read := w.read()
			var tok any
			for _, e := range read["elements"].([]any) {
				if row := e.(map[string]any); row["label"] == target.Name() && row["role"] == target.Role() {
					tok = row["element_token"]
				}
			}
			res := w.ok("click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
			landed, _ := res["landed_elsewhere"].([]any)
			if res["effect"] != c.effect || len(landed) != c.landedCount || res["verified"] != (c.effect == "confirmed") {
				t.Fatalf("%v", res)
			}
		})
	}
}
