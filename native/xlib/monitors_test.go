//go:build cgo

package xlib

import (
	"context"
	"fmt"
	"image/color"
	"os/exec"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// The monitors of a wider test screen: a 2880x1080 Xvfb screen split with
// `xrandr --setmonitor` into a full HD monitor and a smaller one beside
// it, so the screen's lower right corner lies on no monitor. The desktop is
// the test's own, so the shared one keeps its single monitor.
var (
	monLeft  = Monitor{Name: "LEFT", Frame: Rect{W: 1920, H: 1080}, WidthMM: 508, HeightMM: 286, Listed: true}
	monRight = Monitor{Name: "RIGHT", Frame: Rect{X: 1920, W: 960, H: 720}, WidthMM: 127, HeightMM: 95, Listed: true}
)

// twoMonitorDesk starts a desktop with monLeft and monRight and opens a
// connection to it.
func twoMonitorDesk(t *testing.T) (*sandbox.Desktop, *Display, *xtest.Display) {
	t.Helper()
	d, err := sandbox.Start(context.Background(), sandbox.Options{Screen: "2880x1080x24"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	// LEFT takes the screen's one output, which retires the automatic
	// monitor RandR made for it; RIGHT has no output of its own.
	setMonitor(t, d, "LEFT", "1920/508x1080/286+0+0", "screen")
	setMonitor(t, d, "RIGHT", "960/127x720/95+1920+0", "none")
	x, err := Open(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	o, err := xtest.Open(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return d, x, o
}

// setMonitor runs `xrandr --setmonitor` on desktop d.
func setMonitor(t *testing.T, d *sandbox.Desktop, name, geometry, outputs string) {
	t.Helper()
	xrandr(t, d, "--setmonitor", name, geometry, outputs)
}

func xrandr(t *testing.T, d *sandbox.Desktop, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("xrandr"); err != nil {
		t.Fatal("xrandr is not installed (Debian: x11-xserver-utils; ci/install-deps.sh installs it)")
	}
	if out, err := d.Command("xrandr", args...).CombinedOutput(); err != nil {
		t.Fatalf("xrandr %v: %v: %s", args, err, out)
	}
}

func TestMonitorsListsRandRMonitors(t *testing.T) {
	_, x, _ := twoMonitorDesk(t)
	if e := x.Extensions(); !e.hasMonitors() {
		t.Fatalf("the test server has RandR %d.%d, not 1.5", e.RandRMajor, e.RandRMinor)
	}
	mons, err := x.Monitors()
	if err != nil {
		t.Fatal(err)
	}
	if len(mons) != 2 || mons[0] != monLeft || mons[1] != monRight {
		t.Fatalf("Monitors() = %+v, want %+v and %+v", mons, monLeft, monRight)
	}
	if got := mons[1].String(); got != "RIGHT 960x720+1920+0 127x95 mm 192 dpi (scale 2 by size)" {
		t.Errorf("the doctor's words for RIGHT: %q", got)
	}

	// The shared desktop has RandR's one automatic monitor, the screen.
	mons, err = dpy.Monitors()
	if err != nil || len(mons) != 1 || mons[0].Frame != (Rect{W: 1920, H: 1080}) || !mons[0].Listed {
		t.Fatalf("the shared desktop's monitors: %+v, %v", mons, err)
	}
}

// indicatorOn is what another client sees of an indicator: its windows'
// frames, the label's among them, and the state.
type indicatorOn struct {
	frames []Rect
	label  Rect
	state  IndicatorState
}

func lookAtIndicator(t *testing.T, x *Display, o *xtest.Display) indicatorOn {
	t.Helper()
	on, err := readIndicator(x, o)
	if err != nil {
		t.Fatal(err)
	}
	return on
}

// readIndicator is lookAtIndicator's look, with an error where a window
// vanished or is unmapped (as while the indicator lays itself out again).
// The other client o finds the windows and reads the state.
func readIndicator(x *Display, o *xtest.Display) (indicatorOn, error) {
	ids, err := o.FindByClass(IndicatorClass)
	if err != nil {
		return indicatorOn{}, err
	}
	var on indicatorOn
	for _, id := range ids {
		w, err := x.Describe(id)
		if err != nil {
			return indicatorOn{}, err
		}
		if !w.Mapped {
			return indicatorOn{}, fmt.Errorf("indicator window %#x is not mapped", id)
		}
		if v, ok, _ := o.TextProperty(id, IndicatorStateProperty); ok {
			on.label = w.Frame
			if on.state, err = parseIndicatorState(v); err != nil {
				return indicatorOn{}, err
			}
			continue
		}
		on.frames = append(on.frames, w.Frame)
	}
	return on, nil
}

// framesEdges checks that the indicator's windows cover the corners and
// the middle of each edge of every monitor, and that each window lies
// wholly on one monitor.
func (on indicatorOn) framesEdges(t *testing.T, mons ...Monitor) {
	t.Helper()
	covered := func(px, py int) bool {
		for _, r := range on.frames {
			if r.Contains(px, py) {
				return true
			}
		}
		return false
	}
	for _, m := range mons {
		f := m.Frame
		for _, p := range [][2]int{
			{f.X, f.Y}, {f.X + f.W - 1, f.Y}, {f.X, f.Y + f.H - 1}, {f.X + f.W - 1, f.Y + f.H - 1},
			{f.X + f.W/2, f.Y}, {f.X + f.W/2, f.Y + f.H - 1}, {f.X, f.Y + f.H/2}, {f.X + f.W - 1, f.Y + f.H/2},
		} {
			if !covered(p[0], p[1]) {
				t.Errorf("monitor %s: its edge at %v is not framed (frames %+v)", m.Name, p, on.frames)
			}
		}
	}
	for _, r := range append([]Rect{on.label}, on.frames...) {
		onOne := false
		for _, m := range mons {
			onOne = onOne || inside(m.Frame, r)
		}
		if !onOne {
			t.Errorf("indicator window %+v is not wholly on one monitor", r)
		}
	}
}

func TestIndicatorFramesEveryMonitorAndPutsItsControlsOnTheTargets(t *testing.T) {
	d, x, o := twoMonitorDesk(t)
	target := Rect{X: 2000, Y: 100, W: 600, H: 400} // on RIGHT
	ind, err := ShowIndicator(d.Display, IndicatorOptions{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ind.Remove)

	on := lookAtIndicator(t, x, o)
	if len(on.frames) != 8 {
		t.Fatalf("%d frame windows, want four round each of two monitors: %+v", len(on.frames), on.frames)
	}
	on.framesEdges(t, monLeft, monRight)
	if on.state.Monitor != "RIGHT" || !inside(monRight.Frame, on.label) {
		t.Fatalf("the label is at %+v on %q, want on RIGHT %+v", on.label, on.state.Monitor, monRight.Frame)
	}

	// Paused, Continue is on RIGHT too, wholly on screen, and a click
	// there counts.
	if err := ind.SetPaused(true); err != nil {
		t.Fatal(err)
	}
	on = lookAtIndicator(t, x, o)
	c := on.state.Continue
	if len(c) != 4 {
		t.Fatalf("paused state %+v has no Continue rectangle", on.state)
	}
	cont := Rect{X: c[0], Y: c[1], W: c[2], H: c[3]}
	if !inside(monRight.Frame, cont) || !inside(monRight.Frame, on.label) {
		t.Fatalf("Continue %+v or the label %+v is not on RIGHT", cont, on.label)
	}
	found := false
	for _, r := range on.frames {
		found = found || r == cont
	}
	if !found {
		t.Fatalf("no indicator window sits at the state's Continue %+v: %+v", cont, on.frames)
	}
	clickAt(t, x, cont.X+cont.W/2, cont.Y+cont.H/2)
	waitIndicatorEvent(t, ind, IndicatorContinue)

	// Placing it for a window on LEFT moves the label and Continue there.
	if err := ind.Place(Rect{X: 100, Y: 100, W: 800, H: 600}); err != nil {
		t.Fatal(err)
	}
	on = lookAtIndicator(t, x, o)
	c = on.state.Continue
	cont = Rect{X: c[0], Y: c[1], W: c[2], H: c[3]}
	if on.state.Monitor != "LEFT" || !inside(monLeft.Frame, on.label) || !inside(monLeft.Frame, cont) {
		t.Fatalf("after Place on LEFT: label %+v, Continue %+v, monitor %q", on.label, cont, on.state.Monitor)
	}
	clickAt(t, x, cont.X+cont.W/2, cont.Y+cont.H/2)
	waitIndicatorEvent(t, ind, IndicatorContinue)

	// RIGHT goes away while the indicator is up: its frame follows.
	xrandr(t, d, "--delmonitor", "RIGHT")
	// While it lays itself out again, its windows come and go: a look
	// that meets one gone is a look too early.
	if !testkit.Poll(10*time.Second, func() bool {
		var err error
		on, err = readIndicator(x, o)
		return err == nil && len(on.frames) == 4+1 // LEFT's strips and Continue
	}) {
		t.Fatalf("after RIGHT was removed the indicator has %d windows besides the label", len(on.frames))
	}
	select {
	case ev := <-ind.Events():
		t.Fatalf("relaying out for the new monitors reported %+v", ev)
	default:
	}
}

func TestIndicatorWithoutATargetSitsOnThePrimary(t *testing.T) {
	d, x, o := twoMonitorDesk(t)
	// xrandr cannot mark a monitor it defines primary; the screen's
	// output can be, and RandR's automatic monitor for it then is. Giving
	// LEFT up brings that monitor back.
	xrandr(t, d, "--delmonitor", "LEFT")
	xrandr(t, d, "--output", "screen", "--primary")
	mons, err := x.Monitors()
	if err != nil {
		t.Fatal(err)
	}
	primaries := 0
	for _, m := range mons {
		if m.Primary {
			primaries++
			if m.Name != "screen" {
				t.Errorf("%s is primary, want the output's monitor", m.Name)
			}
		}
	}
	if len(mons) != 2 || primaries != 1 {
		t.Fatalf("monitors after --primary: %+v", mons)
	}
	ind, err := ShowIndicator(d.Display, IndicatorOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ind.Remove)
	if on := lookAtIndicator(t, x, o); on.state.Monitor != "screen" {
		t.Fatalf("without a target the label is at %+v on %q, want on the primary", on.label, on.state.Monitor)
	}
}

func TestWindowsOnTheSecondMonitorAreListedCapturedAndClicked(t *testing.T) {
	_, x, o := twoMonitorDesk(t)
	frame := Rect{X: 2100, Y: 200, W: 300, H: 200}
	id := plainOn(t, o, xtest.PlainWindow{Frame: xtest.Rect(frame), RGB: 0x00ff00, Class: "nish-right", Title: "on RIGHT"})
	ws, err := x.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	if w := find(t, ws, id); w.Frame != frame {
		t.Fatalf("the window on RIGHT is listed at %+v, want %+v", w.Frame, frame)
	}
	img, err := x.Capture(id)
	if err != nil {
		t.Fatal(err)
	}
	if n := testkit.CountColour(img, color.RGBA{0, 0xff, 0, 0xff}); n != frame.W*frame.H {
		t.Fatalf("%d of %d captured pixels are the window's green", n, frame.W*frame.H)
	}
	if top, err := x.TopmostAt(frame.X+10, frame.Y+10, nil); err != nil || top != id {
		t.Fatalf("TopmostAt on RIGHT = %#x (%v), want %#x", top, err, id)
	}
	if err := x.FakeMotion(frame.X+150, frame.Y+100); err != nil {
		t.Fatal(err)
	}
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
	if px, py, err := x.Pointer(); err != nil || px != frame.X+150 || py != frame.Y+100 {
		t.Fatalf("the pointer is at %d,%d (%v), want on the window on RIGHT", px, py, err)
	}
}

// clickAt clicks the left button at a root point with XTEST.
func clickAt(t *testing.T, x *Display, px, py int) {
	t.Helper()
	if err := x.FakeMotion(px, py); err != nil {
		t.Fatal(err)
	}
	for _, press := range []bool{true, false} {
		if err := x.FakeButton(1, press); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
}

func waitIndicatorEvent(t *testing.T, ind *Indicator, want string) {
	t.Helper()
	select {
	case ev := <-ind.Events():
		if ev.Kind != want {
			t.Fatalf("indicator event %+v, want %q", ev, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no %q from the indicator", want)
	}
}
