//go:build cgo

package xlib

import (
	"encoding/json"
	"image/color"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// shownIndicator is an indicator under test and what the person's side of
// the display sees of it.
type shownIndicator struct {
	t     *testing.T
	ind   *Indicator
	d     *Display // a second connection: the person's pointer and reads
	label uint64
	wins  []uint64

	driver driverPresses
}

// showIndicator shows an indicator and finds its windows from another
// connection.
func showIndicator(t *testing.T, paused bool) *shownIndicator {
	t.Helper()
	s := &shownIndicator{t: t}
	ind, err := ShowIndicator(desk.Display, IndicatorOptions{Paused: paused, DriverPressRecent: s.driver.judge})
	if err != nil {
		t.Fatal(err)
	}
	s.ind = ind
	t.Cleanup(ind.Remove)
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	s.d = d
	ids, err := xt.FindByClass(IndicatorClass)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 5+btoi(paused) {
		t.Fatalf("FindByClass(%q) found %d windows, want %d", IndicatorClass, len(ids), 5+btoi(paused))
	}
	s.wins = ids
	for _, id := range ids {
		if _, ok, _ := xt.TextProperty(id, IndicatorStateProperty); ok {
			s.label = id
		}
	}
	if s.label == 0 {
		t.Fatal("no indicator window carries the state property")
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseIndicatorState decodes the state property's value, as a client
// reading it does.
func parseIndicatorState(s string) (IndicatorState, error) {
	var st IndicatorState
	err := json.Unmarshal([]byte(s), &st)
	return st, err
}

// state reads the state property.
func (s *shownIndicator) state() IndicatorState {
	s.t.Helper()
	v, ok, err := xt.TextProperty(s.label, IndicatorStateProperty)
	if err != nil || !ok {
		s.t.Fatalf("state property: %v (present %v)", err, ok)
	}
	st, err := parseIndicatorState(v)
	if err != nil {
		s.t.Fatalf("state property %q: %v", v, err)
	}
	return st
}

// clickContinue clicks the centre of the Continue rectangle with XTEST.
func (s *shownIndicator) clickContinue(r []int) {
	s.t.Helper()
	if err := s.d.FakeMotion(r[0]+r[2]/2, r[1]+r[3]/2); err != nil {
		s.t.Fatal(err)
	}
	for _, press := range []bool{true, false} {
		if err := s.d.FakeButton(1, press); err != nil {
			s.t.Fatal(err)
		}
	}
	if err := s.d.Sync(); err != nil {
		s.t.Fatal(err)
	}
}

// next waits for an event; want "" means none may come within limit.
func (s *shownIndicator) next(want string, limit time.Duration) {
	s.t.Helper()
	select {
	case ev, ok := <-s.ind.Events():
		if want == "" || !ok || ev.Kind != want {
			s.t.Fatalf("event %+v (open %v), want %q", ev, ok, want)
		}
	case <-time.After(limit):
		if want != "" {
			s.t.Fatalf("no %q event within %v", want, limit)
		}
	}
}

func TestIndicatorActiveIsClickThroughAndSaysActive(t *testing.T) {
	s := showIndicator(t, false)
	for _, id := range s.wins {
		n, err := xt.InputShapeRects(id)
		if err != nil || n != 0 {
			t.Errorf("window %#x: input shape has %d rectangles (%v), want none", id, n, err)
		}
		w, err := s.d.Describe(id)
		if err != nil || !w.Mapped || w.Class != IndicatorClass {
			t.Errorf("window %#x: %+v, %v; want mapped with class %q", id, w, err, IndicatorClass)
		}
	}
	if st := s.state(); st.State != IndicatorActive || st.Continue != nil {
		t.Fatalf("state %+v, want active without a button", st)
	}
	tops, err := s.d.TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range tops {
		if w.Class == IndicatorClass {
			t.Fatalf("TopLevels lists an indicator window: %+v", w)
		}
	}
	id, err := s.d.TopmostAt(1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if id != 0 {
		for _, w := range s.wins {
			if w == id {
				t.Fatalf("TopmostAt on the frame = %#x, an indicator window", id)
			}
		}
	}
}

func TestIndicatorPausedContinueTakesARealClickOnly(t *testing.T) {
	s := showIndicator(t, false)
	if err := s.ind.SetPaused(true); err != nil {
		t.Fatal(err)
	}
	st := s.state()
	if st.State != IndicatorPaused || len(st.Continue) != 4 || st.Continue[2] <= 0 || st.Continue[3] <= 0 {
		t.Fatalf("state %+v, want paused with a button rectangle", st)
	}
	r := st.Continue
	ids, err := xt.FindByClass(IndicatorClass)
	if err != nil || len(ids) != 6 {
		t.Fatalf("FindByClass after pausing: %v, %v; want 6 windows", ids, err)
	}
	takers := 0
	for _, id := range ids {
		n, err := xt.InputShapeRects(id)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			takers++
			w, _ := s.d.Describe(id)
			if w.Frame != (Rect{X: r[0], Y: r[1], W: r[2], H: r[3]}) {
				t.Errorf("the window taking input is at %+v, the state says %v", w.Frame, r)
			}
		}
	}
	if takers != 1 {
		t.Fatalf("%d indicator windows take input, want only the button", takers)
	}

	// A press judged the driver's never answers: the gate was asked and
	// said so before the release, so no Continue can follow it.
	s.driver.whileRecent(t, func() { s.clickContinue(r) })
	s.next("", 200*time.Millisecond)

	for _, id := range ids {
		if w, _ := s.d.Describe(id); w.Frame.X == r[0] && w.Frame.Y == r[1] {
			for i := 0; i < 2; i++ {
				if err := xt.SendSyntheticClick(id, r[2]/2, r[3]/2); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s.next("", 200*time.Millisecond)

	s.clickContinue(r)
	s.next(IndicatorContinue, 30*time.Second)

	if err := s.ind.SetPaused(false); err != nil {
		t.Fatal(err)
	}
	if st := s.state(); st.State != IndicatorActive || st.Continue != nil {
		t.Fatalf("state after SetPaused(false) %+v, want active", st)
	}
	if ids, _ := xt.FindByClass(IndicatorClass); len(ids) != 5 {
		t.Fatalf("%d indicator windows after SetPaused(false), want 5", len(ids))
	}
	s.next("", 100*time.Millisecond) // taking the button down is not a loss
}

func TestIndicatorLostWhenAnotherClientDestroysAWindow(t *testing.T) {
	s := showIndicator(t, true)
	if err := xt.DestroyWindow(s.wins[len(s.wins)-1]); err != nil {
		t.Fatal(err)
	}
	s.next(IndicatorLost, 30*time.Second)
	if err := xt.KillClient(s.label); err != nil {
		t.Fatal(err)
	}
	s.next("", 200*time.Millisecond) // the loss is reported once
}

func TestIndicatorLostWhenAnotherClientUnmapsAWindow(t *testing.T) {
	s := showIndicator(t, false)
	if err := xt.UnmapWindow(s.label); err != nil {
		t.Fatal(err)
	}
	s.next(IndicatorLost, 30*time.Second)
}

func TestIndicatorRemoveTakesItDownAndClosesEvents(t *testing.T) {
	s := showIndicator(t, true)
	// Remove waits for nothing the display could hold up: a hang guard,
	// not a speed check.
	testkit.Returns(t, 10*time.Second, "Remove", s.ind.Remove)
	s.ind.Remove()
	if ids, err := xt.FindByClass(IndicatorClass); err != nil || len(ids) != 0 {
		t.Fatalf("after Remove FindByClass = %v, %v; want none", ids, err)
	}
	select {
	case ev, ok := <-s.ind.Events():
		if ok {
			t.Fatalf("event %+v after Remove, want Events closed", ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Events is not closed after Remove")
	}
	if err := s.ind.SetPaused(false); err == nil {
		t.Fatal("SetPaused after Remove succeeded")
	}
}

func TestIndicatorFrameIsNotInACaptureOfAWindowUnderIt(t *testing.T) {
	under := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: 0, Y: 300, W: 200, H: 100}, RGB: 0xffffff, Class: "nish-under", Title: "under"})
	s := showIndicator(t, false)
	w, err := s.d.Describe(under)
	if err != nil || w.Frame.X >= frameThickness {
		t.Fatalf("the window is at %+v (%v); the test needs it under the left frame strip", w.Frame, err)
	}
	img, err := dpy.Capture(under)
	if err != nil {
		t.Fatal(err)
	}
	frameRed := color.RGBA{0xe5, 0x39, 0x35, 0xff}
	if n := testkit.CountColour(img, frameRed); n != 0 {
		t.Fatalf("%d pixels of the capture are the frame's red", n)
	}
	if n := testkit.CountColour(img, color.RGBA{0xff, 0xff, 0xff, 0xff}); n != 200*100 {
		t.Fatalf("%d of %d pixels are the window's own white", n, 200*100)
	}
}

func TestIndicatorRaisesItselfAboveANewWindow(t *testing.T) {
	s := showIndicator(t, false)
	w, err := s.d.Describe(s.label)
	if err != nil {
		t.Fatal(err)
	}
	cover := plain(t, xtest.PlainWindow{Frame: xtest.Rect{X: w.Frame.X - 10, Y: 0, W: w.Frame.W + 20, H: 100},
		RGB: 0x000000, Class: "nish-cover", Title: "cover", OverrideRedirect: true})
	testkit.Eventually(t, 10*time.Second, "the label is above a window mapped over it", func() bool {
		li, err1 := xt.StackIndex(s.label)
		ci, err2 := xt.StackIndex(cover)
		if err1 != nil || err2 != nil || li < 0 || ci < 0 {
			t.Fatalf("stacking: label %d (%v), cover %d (%v)", li, err1, ci, err2)
		}
		return li > ci
	})
}

func TestIndicatorLostWhenItsConnectionIsKilled(t *testing.T) {
	s := showIndicator(t, false)
	if err := xt.KillClient(s.label); err != nil {
		t.Fatal(err)
	}
	s.next(IndicatorLost, 30*time.Second)
	testkit.Returns(t, 10*time.Second, "Remove after the loss", s.ind.Remove)
	if err := s.ind.SetPaused(true); err == nil {
		t.Error("SetPaused on a lost indicator succeeded")
	}
}
