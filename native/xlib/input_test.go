//go:build cgo

package xlib

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// heard is one event as a test's sink got it, with the time it got it.
type heard struct {
	ev RawEvent
	at time.Time
}

// rawRecorder is a sink that records what it hears on a channel.
type rawRecorder struct{ ch chan heard }

func newRawRecorder() *rawRecorder { return &rawRecorder{ch: make(chan heard, 4096)} }

func (r *rawRecorder) sink(ev RawEvent) { r.ch <- heard{ev, time.Now()} }

// next waits for the next event.
func (r *rawRecorder) next(t *testing.T, limit time.Duration) heard {
	t.Helper()
	select {
	case h := <-r.ch:
		return h
	case <-time.After(limit):
		t.Fatal("no raw event arrived")
		return heard{}
	}
}

// watch starts a watcher on the test desktop, closed at the test's end.
func watch(t *testing.T, sink func(RawEvent)) *InputWatcher {
	t.Helper()
	w, err := WatchInput(desk.Display, sink)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// parkPointer moves the pointer to (x, y) and waits until the watcher has
// reported it there, so later tests start from a known place.
func parkPointer(t *testing.T, rec *rawRecorder, x, y int) {
	t.Helper()
	if err := dpy.FakeMotion(x, y); err != nil {
		t.Fatal(err)
	}
	for {
		if h := rec.next(t, 30*time.Second); h.ev.Kind == RawMotion && h.ev.X == x && h.ev.Y == y {
			return
		}
	}
}

// same compares events without their times.
func same(a, b RawEvent) bool {
	a.Time, b.Time = time.Time{}, time.Time{}
	return a == b
}

// inputStep is one XTEST call and the raw event it should produce.
type inputStep struct {
	name string
	send func() error
	want RawEvent
}

func motionStep(x, y int) inputStep {
	return inputStep{"motion", func() error { return dpy.FakeMotion(x, y) }, RawEvent{Kind: RawMotion, X: x, Y: y}}
}

func keyStep(name string, press bool) inputStep {
	kind := RawKeyRelease
	if press {
		kind = RawKeyPress
	}
	return inputStep{kind + " " + name, func() error { return dpy.FakeKey(name, press) }, RawEvent{Kind: kind, Keysym: name}}
}

func buttonStep(b int, press bool) inputStep {
	kind := RawButtonRelease
	if press {
		kind = RawButtonPress
	}
	return inputStep{kind, func() error { return dpy.FakeButton(b, press) }, RawEvent{Kind: kind, Button: b}}
}

// inputSteps go over an empty part of the screen.
func inputSteps() []inputStep {
	return []inputStep{
		motionStep(1800, 1000),
		keyStep("a", true),
		keyStep("a", false),
		buttonStep(1, true),
		buttonStep(1, false),
		buttonStep(3, true),
		buttonStep(3, false),
		motionStep(1850, 1040),
	}
}

func TestWatchInputReportsEachXTestEventWithKindKeysymButtonAndPosition(t *testing.T) {
	rec := newRawRecorder()
	watch(t, rec.sink)
	parkPointer(t, rec, 1700, 900)
	for _, s := range inputSteps() {
		sent := time.Now()
		if err := s.send(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		h := rec.next(t, 30*time.Second)
		if !same(h.ev, s.want) {
			t.Fatalf("%s: heard %+v, want %+v", s.name, h.ev, s.want)
		}
		if h.ev.Time.Before(sent) || h.at.Before(h.ev.Time) {
			t.Errorf("%s: read at %v, delivered at %v, sent at %v", s.name, h.ev.Time, h.at, sent)
		}
	}
	// No extra event: the watcher reports in order, so the next one is a
	// last motion sent now.
	if err := dpy.FakeMotion(1860, 1050); err != nil {
		t.Fatal(err)
	}
	if h := rec.next(t, 30*time.Second); !same(h.ev, RawEvent{Kind: RawMotion, X: 1860, Y: 1050}) {
		t.Errorf("an extra event %+v", h.ev)
	}
}

func TestWatchInputKeepsABurstInOrder(t *testing.T) {
	rec := newRawRecorder()
	watch(t, rec.sink)
	parkPointer(t, rec, 1700, 900)
	steps := inputSteps()
	for _, s := range steps {
		if err := s.send(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	var want, got []RawEvent
	for _, s := range steps[1 : len(steps)-1] {
		want = append(want, s.want)
	}
	last := steps[len(steps)-1].want
	var first RawEvent
	for i := 0; ; i++ {
		ev := rec.next(t, 30*time.Second).ev
		if i == 0 {
			first = ev
		}
		if ev.Kind != RawMotion {
			got = append(got, ev)
		}
		if same(ev, last) && len(got) == len(want) {
			break
		}
	}
	if first.Kind != RawMotion {
		t.Errorf("the first event is %+v, not the first motion", first)
	}
	if !slices.EqualFunc(got, want, same) {
		t.Errorf("presses and releases heard %+v, want %+v", got, want)
	}
}

func TestWatchInputSlowSinkHoldsUpNothingAndDropsNoPress(t *testing.T) {
	release := make(chan struct{})
	stuck := make(chan struct{})
	var once sync.Once
	rec := newRawRecorder()
	watch(t, func(ev RawEvent) {
		once.Do(func() { close(stuck); <-release }) // the first call is slow
		rec.sink(ev)
	})
	// A motion gets the sink stuck (two places, so that at least one is a
	// move wherever the pointer was); everything after is sent while it
	// is.
	for _, x := range []int{1689, 1690} {
		if err := dpy.FakeMotion(x, 900); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-stuck:
	case <-time.After(10 * time.Second):
		t.Fatal("the sink was never called")
	}
	const pairs = 20
	var want []RawEvent
	for i := range pairs {
		for _, s := range []inputStep{motionStep(1700+i, 900), keyStep("Shift_L", true), keyStep("Shift_L", false)} {
			// Sending waits for nothing the stuck sink holds: a hang
			// guard, not a speed check.
			var err error
			testkit.Returns(t, 10*time.Second, "an XTEST call while the sink is stuck", func() { err = s.send() })
			if err != nil {
				t.Fatal(err)
			}
			if s.want.Kind != RawMotion {
				want = append(want, s.want)
			}
		}
	}
	// A run of motions with nothing between them may be merged.
	const glide = 10
	for i := range glide {
		if err := dpy.FakeMotion(1600+i, 800); err != nil {
			t.Fatal(err)
		}
	}
	if err := dpy.Sync(); err != nil {
		t.Fatal(err)
	}
	close(release)
	// A motion carries the pointer's position when the watcher read it,
	// not when it was sent: under load an early motion read after the
	// glide already says the glide's end. So the heard events end at the
	// first motion at the glide's end after every key event, and a key
	// event that never comes fails the wait with what was heard.
	var got []RawEvent
	var motions int
	final := RawEvent{Kind: RawMotion, X: 1600 + glide - 1, Y: 800}
	for {
		var h heard
		select {
		case h = <-rec.ch:
		case <-time.After(30 * time.Second):
			t.Fatalf("the events stopped after %d of %d key events: %+v", len(got), len(want), got)
		}
		if h.ev.Kind != RawMotion {
			got = append(got, h.ev)
			continue
		}
		motions++
		if len(got) >= len(want) && same(h.ev, final) {
			break
		}
	}
	if !slices.EqualFunc(got, want, same) {
		t.Errorf("key events heard %+v, want %+v", got, want)
	}
	if motions > 2+pairs+glide {
		t.Errorf("%d motions heard, more than the %d sent", motions, 2+pairs+glide)
	}
	t.Logf("%d motions delivered of %d sent", motions, 2+pairs+glide)
}

// watcherGoroutines counts the goroutines running a watcher's code.
func watcherGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "(*InputWatcher).watch") || strings.Contains(g, "(*InputWatcher).deliver") {
			count++
		}
	}
	return count
}

// settledWatcherGoroutines counts the watcher goroutines until there are
// want of them, for up to 10 s: a goroutine running at the moment of the
// count shows no stack and so is missed.
func settledWatcherGoroutines(want int) int {
	n := 0
	testkit.Poll(10*time.Second, func() bool { n = watcherGoroutines(); return n == want })
	return n
}

func TestWatchInputCloseEndsItsGoroutinesAndTheSinkCalls(t *testing.T) {
	if n := settledWatcherGoroutines(0); n != 0 {
		t.Fatalf("%d watcher goroutines before the test", n)
	}
	rec := newRawRecorder()
	w, err := WatchInput(desk.Display, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	if n := settledWatcherGoroutines(2); n != 2 {
		t.Errorf("%d watcher goroutines running, want 2", n)
	}
	parkPointer(t, rec, 1700, 900)
	w.Close()
	w.Close()
	select {
	case <-w.done:
	default:
		t.Error("the watcher is still reading after Close")
	}
	if n := settledWatcherGoroutines(0); n != 0 {
		t.Errorf("%d watcher goroutines after Close", n)
	}
	// With the watcher's goroutines gone nothing can reach the sink; a
	// motion now must not, nor has anything since Close.
	if err := dpy.FakeMotion(1750, 950); err != nil {
		t.Fatal(err)
	}
	if err := dpy.Sync(); err != nil {
		t.Fatal(err)
	}
	select {
	case h := <-rec.ch:
		t.Errorf("the sink got %+v after Close", h.ev)
	default:
	}
}

func TestWatchInputCloseFromTheSinkDoesNotDeadlock(t *testing.T) {
	var wp atomic.Pointer[InputWatcher]
	closed := make(chan struct{})
	var calls atomic.Int32
	w, err := WatchInput(desk.Display, func(RawEvent) {
		calls.Add(1)
		if w := wp.Load(); w != nil && calls.Load() == 1 {
			w.Close()
			close(closed)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	wp.Store(w)
	if err := dpy.FakeMotion(1710, 910); err != nil {
		t.Fatal(err)
	}
	if err := dpy.FakeKey("Shift_L", true); err != nil {
		t.Fatal(err)
	}
	if err := dpy.FakeKey("Shift_L", false); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close called from the sink did not return")
	}
	w.Close()
	if n := settledWatcherGoroutines(0); n != 0 {
		t.Errorf("%d watcher goroutines after Close from the sink", n)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the sink was called %d times, want once (nothing after Close)", n)
	}
}

func TestWatchInputOnAMissingDisplayFails(t *testing.T) {
	display := missingDisplay(t)
	w, err := WatchInput(display, func(RawEvent) { t.Error("the sink was called") })
	if w != nil || err == nil {
		if w != nil {
			w.Close()
		}
		t.Fatalf("WatchInput(%q) gave a watcher (error %v); want an error", display, err)
	}
}

// missingDisplay names a local display no X server serves: other test
// desktops on the machine (Xvfb picks its own number) must not be taken
// for a missing one.
func missingDisplay(t *testing.T) string {
	t.Helper()
	for n := 900; n < 1000; n++ {
		_, errSock := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n))
		_, errLock := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n))
		if os.IsNotExist(errSock) && os.IsNotExist(errLock) {
			return fmt.Sprintf(":%d", n)
		}
	}
	t.Fatal("no free display number between :900 and :999")
	return ""
}

func TestWatchInputReportsALostConnection(t *testing.T) {
	other, err := sandbox.Start(context.Background(), sandbox.Options{Screen: "640x480x24"})
	if err != nil {
		t.Fatalf("a second sandbox desktop: %v", err)
	}
	defer other.Close()
	rec := newRawRecorder()
	w, err := WatchInput(other.Display, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	other.Close() // kills Xvfb
	if h := rec.next(t, 30*time.Second); h.ev.Kind != RawLost {
		t.Fatalf("heard %+v, want a %q event", h.ev, RawLost)
	}
	select {
	case <-w.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the watcher is still reading after the loss")
	}
	testkit.Returns(t, 10*time.Second, "Close after the loss", w.Close)
}

func TestWatchInputLatencyFromXTestSendToSink(t *testing.T) {
	rec := newRawRecorder()
	watch(t, rec.sink)
	parkPointer(t, rec, 1700, 900)
	const n = 100
	kinds := []struct {
		name string
		step func(i int) inputStep
	}{
		{"motion", func(i int) inputStep { return motionStep(1600+i%2*40, 800) }},
		{"key", func(i int) inputStep { return keyStep("Shift_L", i%2 == 0) }},
		{"button", func(i int) inputStep { return buttonStep(3, i%2 == 0) }},
	}
	for _, k := range kinds {
		var took []time.Duration
		for i := range n {
			s := k.step(i)
			sent := time.Now()
			if err := s.send(); err != nil {
				t.Fatal(err)
			}
			h := rec.next(t, 30*time.Second)
			if !same(h.ev, s.want) {
				t.Fatalf("%s %d: heard %+v, want %+v", k.name, i, h.ev, s.want)
			}
			took = append(took, h.at.Sub(sent))
		}
		t.Logf("%s: XTEST send to sink over %d events: median %v, p99 %v, max %v",
			k.name, n, stats.Median(took), stats.Percentile(took, 0.99), stats.Percentile(took, 1))
	}
}
