//go:build cgo

package xlib

import (
	"context"
	"image"
	"image/color"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// dialogRun is a consent dialog shown by a test.
type dialogRun struct {
	result chan ConsentResult
	errs   chan error
	cancel context.CancelFunc
}

// showDialog shows a consent dialog on the main connection; it ends after
// limit if nobody answers.
func showDialog(t *testing.T, dlg ConsentDialog, limit time.Duration) *dialogRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	run := &dialogRun{result: make(chan ConsentResult, 1), errs: make(chan error, 1), cancel: cancel}
	go func() {
		r, err := dpy.ShowConsent(ctx, dlg)
		if err != nil {
			run.errs <- err
			return
		}
		run.result <- r
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-run.result:
		case <-run.errs:
		case <-time.After(5 * time.Second):
			t.Error("ShowConsent did not return after its context ended")
		}
	})
	return run
}

// answer waits for the dialog's answer.
func (r *dialogRun) answer(t *testing.T, limit time.Duration) ConsentResult {
	t.Helper()
	select {
	case res := <-r.result:
		r.result <- res // for the cleanup
		return res
	case err := <-r.errs:
		t.Fatalf("ShowConsent: %v", err)
	case <-time.After(limit):
		t.Fatal("the dialog gave no answer")
	}
	return ConsentResult{}
}

// person is the test's human: a connection of its own that finds the
// dialog and clicks with XTEST.
type person struct {
	t      *testing.T
	d      *Display
	dialog uint64
	frame  Rect
	layout ConsentLayout
	// armedAt is when the dialog counts clicks from (it published it).
	armedAt time.Time
}

// meetDialog waits for the dialog to be on screen with its layout and the
// time it counts clicks from (it publishes that once it has seen itself
// mapped), and, when armed is set, until that time.
func meetDialog(t *testing.T, armed bool) *person {
	t.Helper()
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	p := &person{t: t, d: d}
	testkit.Eventually(t, 30*time.Second, "a consent dialog on screen with its layout and armed time", func() bool {
		ids, err := xt.FindByClass(DriverClass)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			w, err := d.Describe(id)
			if err != nil || !w.Mapped {
				continue
			}
			l, at, ok := ReadConsentPublished(xt.TextProperty, id)
			if !ok {
				continue
			}
			p.dialog, p.frame, p.layout, p.armedAt = id, w.Frame, l, at
			return true
		}
		return false
	})
	if armed {
		p.waitArmed()
	}
	return p
}

// control returns the layout's control with the id, if it has one.
func (p *person) control(id string) (ConsentControl, bool) {
	i := slices.IndexFunc(p.layout.Controls, func(c ConsentControl) bool { return c.ID == id })
	if i < 0 {
		return ConsentControl{}, false
	}
	return p.layout.Controls[i], true
}

// waitArmed waits until the dialog counts clicks: the time it published
// (ConsentArmedProperty), consentArmDelay after it saw itself on screen.
func (p *person) waitArmed() { time.Sleep(time.Until(p.armedAt)) }

// at returns the root coordinates of a control's centre.
func (p *person) at(id string) (x, y int) {
	p.t.Helper()
	c, ok := p.control(id)
	if !ok {
		p.t.Fatalf("the layout has no control %q: %+v", id, p.layout)
	}
	return p.frame.X + c.Rect[0] + c.Rect[2]/2, p.frame.Y + c.Rect[1] + c.Rect[3]/2
}

// press moves to a control and presses or releases a button there.
func (p *person) button(id string, button int, press bool) {
	p.t.Helper()
	x, y := p.at(id)
	if err := p.d.FakeMotion(x, y); err != nil {
		p.t.Fatal(err)
	}
	if err := p.d.FakeButton(button, press); err != nil {
		p.t.Fatal(err)
	}
	if err := p.d.Sync(); err != nil {
		p.t.Fatal(err)
	}
}

// click is a left click on a control.
func (p *person) click(id string) {
	p.t.Helper()
	p.button(id, 1, true)
	p.button(id, 1, false)
	time.Sleep(30 * time.Millisecond) // the dialog redraws
}

// driverPresses stands in for the driver's DriverPressRecent: whether a
// press now could be the driver's (recent), and how many presses the
// dialog or indicator asked about (asked), so that a test waits until a
// press was judged before it changes the answer, rather than guessing
// how long the judging takes.
type driverPresses struct {
	recent atomic.Bool
	asked  atomic.Int32
}

func (d *driverPresses) judge(time.Time) bool {
	d.asked.Add(1)
	return d.recent.Load()
}

// whileRecent runs press with presses answered as the driver's until the
// gate has asked about one, then answers not.
func (d *driverPresses) whileRecent(t *testing.T, press func()) {
	t.Helper()
	d.recent.Store(true)
	before := d.asked.Load()
	press()
	testkit.Eventually(t, 30*time.Second, "the press judged", func() bool { return d.asked.Load() > before })
	d.recent.Store(false)
}

func twoApps() []ConsentApp {
	return []ConsentApp{{Pid: 4242, Name: "Text Editor"}, {Pid: 4343, Name: "Calculator"}}
}

func TestConsentAllowWithTakeover(t *testing.T) {
	run := showDialog(t, ConsentDialog{Host: "Test Host", Purpose: "Check the dialog.", Apps: twoApps(),
		Takeover: true, ClipboardRead: true}, 10*time.Second)
	p := meetDialog(t, true)

	ids := []string{}
	for _, c := range p.layout.Controls {
		ids = append(ids, c.ID)
	}
	if want := []string{"app:4242", "app:4343", "takeover", "clipboard_read", "deny", "allow"}; !slices.Equal(ids, want) {
		t.Errorf("layout ids %v, want %v", ids, want)
	}
	w, err := p.d.Describe(p.dialog)
	if err != nil {
		t.Fatal(err)
	}
	if w.Title != ConsentTitle || w.Class != DriverClass || w.Instance != DriverClass {
		t.Errorf("dialog title %q class %q/%q", w.Title, w.Instance, w.Class)
	}
	if cx, cy := w.Frame.X+w.Frame.W/2, w.Frame.Y+w.Frame.H/2; abs(cx-960) > 1 || abs(cy-540) > 1 {
		t.Errorf("dialog centred at %d,%d, want the screen's 960,540", cx, cy)
	}
	// The main connection is free while the dialog waits, and does not list it.
	ws, err := dpy.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(ws, func(w Window) bool { return w.ID == p.dialog }) {
		t.Error("TopLevels lists the consent dialog")
	}
	// It is drawn: the Allow button has its colour.
	img, err := p.d.Capture(p.dialog)
	if err != nil {
		t.Fatal(err)
	}
	allow, _ := p.control("allow")
	r := image.Rect(allow.Rect[0], allow.Rect[1], allow.Rect[0]+allow.Rect[2], allow.Rect[1]+allow.Rect[3])
	if n := testkit.CountColour(img.SubImage(r).(*image.RGBA), color.RGBA{0x2e, 0x7d, 0x32, 0xff}); n < r.Dx()*r.Dy()/2 {
		t.Errorf("only %d pixels of the Allow button are drawn in its colour", n)
	}

	p.click("takeover")
	p.click("allow")
	got := run.answer(t, 30*time.Second)
	want := ConsentResult{Allowed: true, Pids: []int{4242, 4343}, Takeover: true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("answer %+v, want %+v", got, want)
	}
	// The window is gone once ShowConsent returns.
	if ids, _ := xt.FindByClass(DriverClass); len(ids) != 0 {
		t.Fatalf("dialog windows left behind: %v", ids)
	}
}

func TestConsentDeny(t *testing.T) {
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps(), Takeover: true}, 10*time.Second)
	p := meetDialog(t, true)
	p.click("takeover")
	p.click("deny")
	if got := run.answer(t, 30*time.Second); !reflect.DeepEqual(got, ConsentResult{}) {
		t.Fatalf("Deny answered %+v, want a plain denial", got)
	}
}

func TestConsentUntickedAppIsLeftOut(t *testing.T) {
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps(), ClipboardRead: true}, 10*time.Second)
	p := meetDialog(t, true)
	if _, ok := p.control("takeover"); ok {
		t.Error("the takeover line is shown though takeover was not asked for")
	}
	p.click("app:4242")
	p.click("clipboard_read")
	p.click("allow")
	want := ConsentResult{Allowed: true, Pids: []int{4343}, ClipboardRead: true}
	if got := run.answer(t, 30*time.Second); !reflect.DeepEqual(got, want) {
		t.Fatalf("answer %+v, want %+v", got, want)
	}
}

func TestConsentKeysAndNonClicksDoNothingAndTimeIsADenial(t *testing.T) {
	// None of the input below answers the dialog: it answers at its bound,
	// a denial (had a click or key answered, the answer would be allowed,
	// or come before the bound).
	const bound = 2500 * time.Millisecond
	start := time.Now()
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps(), Takeover: true}, bound)
	p := meetDialog(t, false)
	// A click just as the dialog appears is not one the person aimed at it.
	p.click("allow")
	p.waitArmed()

	// Keys, with the dialog focused and the pointer on Allow.
	if err := p.d.Raise(p.dialog); err != nil {
		t.Fatal(err)
	}
	x, y := p.at("allow")
	if err := p.d.FakeMotion(x, y); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"Return", "space", "Tab", "KP_Enter"} {
		for _, press := range []bool{true, false} {
			if err := p.d.FakeKey(key, press); err != nil {
				t.Fatal(err)
			}
		}
	}
	p.d.Sync()

	// A press on Allow released on Deny, and the right button.
	p.button("allow", 1, true)
	p.button("deny", 1, false)
	p.button("allow", 3, true)
	p.button("allow", 3, false)

	got := run.answer(t, 30*time.Second)
	if !reflect.DeepEqual(got, ConsentResult{}) {
		t.Fatalf("the dialog's time running out answered %+v, want a denial", got)
	}
	if waited := time.Since(start); waited < bound {
		t.Fatalf("answered after %v, before the context ended", waited)
	}
}

func TestConsentIgnoresAClickRightAfterADriverPress(t *testing.T) {
	var driver driverPresses
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps(), DriverPressRecent: driver.judge}, 10*time.Second)
	p := meetDialog(t, true)
	driver.whileRecent(t, func() { p.click("allow") })
	// The dialog takes input in order, so the answer shows which Allow
	// counted: had the first, both apps would be in it.
	p.click("app:4242")
	p.click("allow")
	if got, want := run.answer(t, 30*time.Second), (ConsentResult{Allowed: true, Pids: []int{4343}}); !reflect.DeepEqual(got, want) {
		t.Fatalf("a click the driver could have made, then one it could not: answer %+v, want %+v (the first did not count)", got, want)
	}
}

func TestConsentIgnoresSendEventClicks(t *testing.T) {
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps()}, 10*time.Second)
	p := meetDialog(t, true)
	allow, _ := p.control("allow")
	for i := 0; i < 3; i++ {
		if err := xt.SendSyntheticClick(p.dialog, allow.Rect[0]+5, allow.Rect[1]+5); err != nil {
			t.Fatal(err)
		}
	}
	// The dialog takes input in order: had a SendEvent click counted, the
	// answer would be allowed.
	p.click("deny")
	if got := run.answer(t, 30*time.Second); got.Allowed {
		t.Fatalf("answer %+v, want a denial", got)
	}
}

func TestConsentClosingTheWindowIsADenial(t *testing.T) {
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps()}, 10*time.Second)
	p := meetDialog(t, true)
	if err := xt.SendDeleteWindow(p.dialog); err != nil {
		t.Fatal(err)
	}
	if got := run.answer(t, 30*time.Second); got.Allowed {
		t.Fatalf("answer %+v, want a denial", got)
	}
}

func TestConsentRaisesItselfWhenCovered(t *testing.T) {
	run := showDialog(t, ConsentDialog{Host: "h", Apps: twoApps()}, 10*time.Second)
	p := meetDialog(t, true)
	cover := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: p.frame.X - 10, Y: p.frame.Y - 10, W: p.frame.W + 20, H: p.frame.H + 20},
		RGB: 0x000000, Class: "nish-cover", Title: "cover"})
	// scan lists every top-level, the driver's own included, topmost first.
	dialogAbove := func() bool {
		var ws []listed
		_ = dpy.do(func() error { ws = dpy.scan(); return nil })
		di := slices.IndexFunc(ws, func(w listed) bool { return w.ID == p.dialog })
		ci := slices.IndexFunc(ws, func(w listed) bool { return w.ID == cover })
		return di >= 0 && ci >= 0 && di < ci
	}
	testkit.Eventually(t, 10*time.Second, "the dialog is above the covering window", dialogAbove)
	// A real click reaches it only if it is on top.
	p.click("allow")
	if got := run.answer(t, 30*time.Second); !got.Allowed {
		t.Fatalf("a click on the raised dialog answered %+v", got)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
