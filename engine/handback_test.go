package engine_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The hand-back test: docs/contract.md#hand-back end to end on the mock
// desktop. The person's own pointer or key input stops a takeover at the next
// check, releases everything held, and pauses the session; only the
// indicator's Continue (a real click) or the host's takeover.resume resumes
// it.

// heldAfter replays the synthetic events in order, as the X server would,
// and returns what is still down: a release of something up does nothing,
// so a release that overtook its press leaves the press down.
func heldAfter(evs []engine.InputEvent) map[string]bool {
	down := map[string]bool{}
	for _, ev := range evs {
		key := "key:" + ev.Key + string(ev.Char)
		button := "button:" + string(rune('0'+ev.Button))
		switch ev.Kind {
		case engine.InputKeyPress:
			down[key] = true
		case engine.InputKeyRelease:
			delete(down, key)
		case engine.InputButtonPress:
			down[button] = true
		case engine.InputButtonRelease:
			delete(down, button)
		}
	}
	return down
}

// typedKeys counts the characters the app got: a key's press types it. Not
// its releases: when the person takes over mid-character, the pause lets go
// of the key the typing holds and the typing's own release is then sent
// again (a release of a key already up does nothing), so a character may
// have two releases, or its release may even reach the display first.
func typedKeys(evs []engine.InputEvent) int {
	n := 0
	for _, ev := range evs {
		if ev.Kind == engine.InputKeyPress {
			n++
		}
	}
	return n
}

func takeoverHarness(t *testing.T, opts ...harnessOption) *harness {
	h := newHarness(t, nil, append([]harnessOption{withHost()}, opts...)...)
	h.host.policy.ApproveReads = false
	h.start(map[string]any{"input": "takeover"})
	if h.desk.IndicatorState() != mock.IndicatorActive {
		t.Fatal("takeover needs its indicator")
	}
	h.demo.Form.Window.Focus()
	return h
}

func hostEvent(h *harness, name string) *engine.HostEvent {
	for _, ev := range h.host.Events() {
		if ev.Event == name {
			e := ev
			return &e
		}
	}
	return nil
}

func TestHandback(t *testing.T) {
	t.Run("a key press stops typing; exactly typed_characters arrived", func(t *testing.T) {
		h := takeoverHarness(t)
		read := h.readForm(nil)
		notes := testkit.Token(t, read, "text", "Notes")
		text := strings.Repeat("abcdefghij", 20) // 200 characters
		done := make(chan engine.Result, 1)
		go func() {
			done <- h.raw("type_text", map[string]any{"element_token": notes, "text": text, "delivery_mode": "foreground"})
		}()
		testkit.Eventually(t, 10*time.Second, "typing started", func() bool { return typedKeys(h.desk.Sent()) >= 20 })
		h.desk.PressKey("x")
		r := <-done
		if r.Err == nil || r.Err.Code != engine.CodeUserTookOver {
			t.Fatalf("want user_took_over, got %s", r.Text)
		}
		body := r.Err.Body()
		if body.Effect != "stopped" || body.PausedReason != "key_pressed" || body.TypedCharacters == nil {
			t.Fatalf("stop fields: %+v", body)
		}
		if got := typedKeys(h.desk.Sent()); got != *body.TypedCharacters {
			t.Fatalf("the app got %d characters, typed_characters says %d", got, *body.TypedCharacters)
		}
		if *body.TypedCharacters >= len(text) {
			t.Fatal("typing must stop before the end")
		}
		if held := heldAfter(h.desk.Sent()); len(held) != 0 {
			t.Fatalf("keys left held: %v", held)
		}
		if h.desk.IndicatorState() != mock.IndicatorPaused {
			t.Fatal("the indicator shows the paused look")
		}
		if ev := hostEvent(h, "takeover.paused"); ev == nil || ev.Reason != "key_pressed" {
			t.Fatalf("the host hears takeover.paused: %+v", ev)
		}
	})

	t.Run("a press on its way when the person takes over is released after it lands", func(t *testing.T) {
		// The pause's release of everything held reaches the display
		// before the press it lets go of: the press must not stay down.
		var presses atomic.Int32
		var h *harness
		h = takeoverHarness(t, withBackend(func(d *mock.Desktop) engine.Backend {
			return &sendHook{Desktop: d, before: func(ev engine.InputEvent) {
				if ev.Kind != engine.InputKeyPress || presses.Add(1) != 5 {
					return
				}
				from := len(d.Sent())
				d.PressKey("x")
				testkit.Eventually(t, 10*time.Second, "the pause's release of the fifth key", func() bool {
					return slices.ContainsFunc(d.Sent()[from:], func(r engine.InputEvent) bool {
						return r.Kind == engine.InputKeyRelease && r.Key == ev.Key && r.Char == ev.Char
					})
				})
			}}
		}))
		notes := testkit.Token(t, h.readForm(nil), "text", "Notes")
		r := h.raw("type_text", map[string]any{"element_token": notes, "text": strings.Repeat("abcdefghij", 5), "delivery_mode": "foreground"})
		if r.Err == nil || r.Err.Code != engine.CodeUserTookOver {
			t.Fatalf("want user_took_over, got %s", r.Text)
		}
		if held := heldAfter(h.desk.Sent()); len(held) != 0 {
			t.Fatalf("left down on the display: %v", held)
		}
	})

	t.Run("a pointer move stops a glide", func(t *testing.T) {
		h := takeoverHarness(t)
		done := startGlide(t, h, 5)
		p := h.desk.PointerAt()
		motionsBefore := len(h.desk.Sent())
		h.desk.MovePointer(engine.Point{X: p.X + 20, Y: p.Y})
		r := <-done
		if r.Err == nil || r.Err.Code != engine.CodeUserTookOver || r.Err.PausedReason != "pointer_moved" {
			t.Fatalf("want user_took_over pointer_moved, got %s", r.Text)
		}
		// A whole glide is 300 steps of 10 ms; it must have stopped at the
		// next step after the person's move.
		motions := 0
		for _, ev := range h.desk.Sent() {
			if ev.Kind == engine.InputMotion {
				motions++
			}
		}
		if motions >= 250 {
			t.Fatalf("the glide ran on: %d of 300 steps sent", motions)
		}
		stepsAtMove := motionsBefore
		if motions > stepsAtMove+5 {
			t.Fatalf("the glide went on for %d steps after the person moved", motions-stepsAtMove)
		}
		st := h.ok("get_session_state", nil)
		tk := st["takeover"].(map[string]any)
		if tk["paused"] != true || tk["paused_reason"] != "pointer_moved" {
			t.Fatalf("state while paused: %v", tk)
		}
	})

	t.Run("while paused: acts refused, reads work, nothing but a click resumes", func(t *testing.T) {
		heard := &heardIndicator{handled: make(chan engine.IndicatorEventKind, 16)}
		h := takeoverHarness(t, withBackend(func(d *mock.Desktop) engine.Backend {
			heard.Desktop = d
			return heard
		}))
		win := uint64(h.demo.Form.Window.ID())
		read := h.readForm(nil)
		save := testkit.Token(t, read, "push_button", "Save")
		// A driver click, then the person's input.
		h.ok("click", map[string]any{"window_id": win, "x": 5, "y": 5})
		h.desk.PressButton(1)
		testkit.Eventually(t, 10*time.Second, "paused", func() bool { return h.desk.IndicatorState() == mock.IndicatorPaused })

		sent := len(h.desk.Sent())
		for tool, args := range map[string]map[string]any{
			"click":           {"element_token": save},
			"type_text":       {"element_token": save, "text": "x"},
			"set_value":       {"element_token": save, "value": "x"},
			"press_key":       {"window_id": win, "key": "a"},
			"move_cursor":     {"window_id": win, "x": 1, "y": 1},
			"clipboard_write": {"text": "x"},
		} {
			e := h.fail(engine.CodeUserTookOver, tool, args)
			if e["effect"] != "refused" || e["paused_reason"] != "button_pressed" {
				t.Fatalf("%s while paused: %v", tool, e)
			}
		}
		if len(h.desk.Sent()) != sent || len(h.desk.CallsOf("DoAction")) != 0 {
			t.Fatal("a refused act sent something")
		}
		h.readForm(nil)
		h.ok("list_windows", nil)

		// No tool resumes: not start_session, not a new consent.
		h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
		h.ok("get_session_state", nil)
		if st := h.ok("get_session_state", nil); st["takeover"].(map[string]any)["paused"] != true {
			t.Fatal("start_session must not resume")
		}
		// The driver's own click on Continue never counts, nor a person's
		// click within 1.5 s of the driver's last button press.
		h.desk.ClickContinueSynthetic()
		h.desk.ClickContinue()
		heard.wait(t, engine.IndicatorContinue)
		if st := h.ok("get_session_state", nil); st["takeover"].(map[string]any)["paused"] != true {
			t.Fatal("a Continue click within 1.5 s of the driver's press must not resume")
		}
		h.clock.Advance(2 * time.Second)
		h.desk.ClickContinue()
		testkit.Eventually(t, 10*time.Second, "resumed by Continue", func() bool { return h.desk.IndicatorState() == mock.IndicatorActive })
		if ev := hostEvent(h, "takeover.resumed"); ev == nil || ev.By != "indicator" {
			t.Fatalf("takeover.resumed by indicator: %+v", ev)
		}
		// Every earlier token is stale; row numbers stay.
		h.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": save})
		fresh := h.readForm(nil)
		if strings.Split(testkit.Token(t, fresh, "push_button", "Save"), ":")[1] != strings.Split(save, ":")[1] {
			t.Fatal("resume keeps row numbers of unchanged elements")
		}
		h.ok("click", map[string]any{"element_token": testkit.Token(t, fresh, "push_button", "Save")})
	})

	t.Run("the host resumes; a lease that ended during the pause needs consent", func(t *testing.T) {
		h := takeoverHarness(t)
		h.desk.PressKey("q")
		testkit.Eventually(t, 10*time.Second, "paused", func() bool { return h.desk.IndicatorState() == mock.IndicatorPaused })
		h.clock.Advance(31 * time.Minute)
		if got := h.d.TakeoverResume("mcp:other:1"); len(got) != 0 {
			t.Fatalf("another session's resume resumed %v", got)
		}
		got := h.d.TakeoverResume("")
		if len(got) != 1 || got[0] != "mcp:testhost:4242" {
			t.Fatalf("resumed %v", got)
		}
		if ev := hostEvent(h, "takeover.resumed"); ev == nil || ev.By != "host" {
			t.Fatalf("takeover.resumed by host: %+v", ev)
		}
		h.fail(engine.CodeConsentExpired, "get_window_state", map[string]any{"app": "Form Demo"})
	})

	t.Run("headless while paused ends the takeover; the session stays paused", func(t *testing.T) {
		h := takeoverHarness(t)
		h.desk.PressKey("q")
		testkit.Eventually(t, 10*time.Second, "paused", func() bool { return h.desk.IndicatorState() == mock.IndicatorPaused })
		h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "headless"})
		if h.desk.IndicatorState() != mock.IndicatorNone {
			t.Fatal("headless removes the indicator at once")
		}
		read := h.readForm(nil)
		h.fail(engine.CodeUserTookOver, "click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save")})
		h.d.TakeoverResume("")
		read = h.readForm(nil)
		h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save")})
	})

	t.Run("a lost indicator ends the takeover", func(t *testing.T) {
		h := takeoverHarness(t)
		h.desk.DestroyIndicator()
		testkit.Eventually(t, 10*time.Second, "takeover ended", func() bool {
			st := h.ok("get_session_state", nil)
			return st["takeover"].(map[string]any)["on"] == false
		})
		st := h.ok("get_session_state", nil)
		if st["takeover"].(map[string]any)["reason"] != "indicator_lost" || st["input"] != "headless" {
			t.Fatalf("after the indicator was lost: %v", st)
		}
		h.fail(engine.CodeRequiresTakeover, "press_key", map[string]any{"app": "Form Demo", "key": "a"})
	})

	t.Run("the kill switch ends a running glide and a paused session", func(t *testing.T) {
		h := takeoverHarness(t)
		done := startGlide(t, h, 3)
		h.d.KillSwitch()
		r := <-done
		if r.Err == nil {
			t.Fatal("the glide must stop")
		}
		if h.desk.IndicatorState() != mock.IndicatorNone {
			t.Fatal("the kill switch removes the indicator")
		}
		h.fail(engine.CodeSessionRevoked, "get_session_state", nil)
		if hostEvent(h, "kill_switch") == nil {
			t.Fatal("the host hears kill_switch")
		}

		p := takeoverHarness(t)
		p.desk.PressKey("q")
		testkit.Eventually(t, 10*time.Second, "paused", func() bool { return p.desk.IndicatorState() == mock.IndicatorPaused })
		p.d.SessionRevoke("")
		if p.desk.IndicatorState() != mock.IndicatorNone {
			t.Fatal("revocation removes a paused indicator")
		}
		if got := p.d.TakeoverResume(""); len(got) != 0 {
			t.Fatal("a resume never undoes a revocation")
		}
		p.fail(engine.CodeSessionRevoked, "click", map[string]any{"app": "Form Demo", "x": 1, "y": 1})
	})

	t.Run("the audit log holds the takeover records and no input", func(t *testing.T) {
		h := takeoverHarness(t)
		h.desk.PressKey("q")
		testkit.Eventually(t, 10*time.Second, "paused", func() bool { return h.desk.IndicatorState() == mock.IndicatorPaused })
		h.d.TakeoverResume("")
		h.ok("end_session", nil)
		seen := map[string]bool{}
		for _, r := range h.audit.All() {
			seen[r.Event] = true
		}
		for _, want := range []string{"session.started", "consent.granted", "takeover.started", "takeover.paused", "takeover.resumed", "takeover.ended", "session.ended"} {
			if !seen[want] {
				t.Errorf("audit lacks %s", want)
			}
		}
	})
}

// startGlide starts a three-second pointer glide across the demo form and
// waits until the first sent steps (at least steps) reached the desktop;
// the glide's result comes on the channel.
func startGlide(t *testing.T, h *harness, steps int) <-chan engine.Result {
	t.Helper()
	win := uint64(h.demo.Form.Window.ID())
	done := make(chan engine.Result, 1)
	go func() {
		done <- h.raw("move_cursor", map[string]any{"window_id": win, "x": 600, "y": 700, "duration_ms": 3000})
	}()
	testkit.Eventually(t, 10*time.Second, "the glide started", func() bool { return len(h.desk.Sent()) >= steps })
	return done
}

// sendHook is the mock desktop with a hook run before each synthetic event
// is sent, in the sending goroutine.
// heardIndicator stands between the engine and the mock's takeover
// indicators and says when the engine has handled each indicator event,
// so a test can check what an event did not do without waiting a while.
// It hands the engine each event and then an empty one (a kind the engine
// passes over); the engine handles events one at a time, in order, so it
// takes the empty one only once it is done with the event before.
type heardIndicator struct {
	*mock.Desktop
	handled chan engine.IndicatorEventKind
}

func (h *heardIndicator) ShowIndicator(ctx context.Context, paused bool) (engine.Indicator, error) {
	ind, err := h.Desktop.ShowIndicator(ctx, paused)
	if err != nil {
		return nil, err
	}
	relayed := make(chan engine.IndicatorEvent)
	go func() {
		defer close(relayed)
		for ev := range ind.Events() {
			relayed <- ev
			relayed <- engine.IndicatorEvent{}
			select {
			case h.handled <- ev.Kind:
			default:
			}
		}
	}()
	return &relayedIndicator{Indicator: ind, events: relayed}, nil
}

// wait waits until the engine has handled an indicator event of kind.
func (h *heardIndicator) wait(t *testing.T, kind engine.IndicatorEventKind) {
	t.Helper()
	for {
		select {
		case k := <-h.handled:
			if k == kind {
				return
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the engine has not handled a %s event", kind)
		}
	}
}

// relayedIndicator is an indicator whose events come through a relay.
type relayedIndicator struct {
	engine.Indicator
	events chan engine.IndicatorEvent
}

func (r *relayedIndicator) Events() <-chan engine.IndicatorEvent { return r.events }

type sendHook struct {
	*mock.Desktop
	before func(engine.InputEvent)
}

func (s *sendHook) Send(ctx context.Context, ev engine.InputEvent) error {
	s.before(ev)
	return s.Desktop.Send(ctx, ev)
}

// Hand-back rules about the order in which a real desktop reports things
// (found on X11, where the input watcher and the indicator read events on
// connections of their own): checked here with raw events injected at the
// chosen moment.

// rawTap is the mock desktop with a way to hand the engine's input watcher
// a raw event of the test's own making.
type rawTap struct {
	*mock.Desktop
	mu    sync.Mutex
	sinks []func(engine.RawInput)
}

func (r *rawTap) WatchInput(ctx context.Context, sink func(engine.RawInput)) error {
	r.mu.Lock()
	r.sinks = append(r.sinks, sink)
	r.mu.Unlock()
	return r.Desktop.WatchInput(ctx, sink)
}

func (r *rawTap) inject(ev engine.RawInput) {
	r.mu.Lock()
	sinks := append([]func(engine.RawInput){}, r.sinks...)
	r.mu.Unlock()
	for _, s := range sinks {
		s(ev)
	}
}

// tappedTakeover is a takeover harness whose input watcher the test can
// hand raw events.
func tappedTakeover(t *testing.T) (*harness, *rawTap) {
	tap := &rawTap{}
	h := takeoverHarness(t, func(o *engine.Options, h *harness) {
		tap.Desktop = h.desk
		o.Backend = tap
	})
	return h, tap
}

func pausedState(h *harness) (bool, string) {
	tk := testkit.Field[map[string]any](h.t, h.ok("get_session_state", nil), "takeover")
	reason, _ := tk["paused_reason"].(string)
	return tk["paused"] == true, reason
}

// pauseByKey has the person press a key, and waits for the pause.
func pauseByKey(h *harness) {
	h.desk.PressKey("q")
	testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
}

// continueByClick has the person click the indicator's Continue, and
// waits for the resume.
func continueByClick(h *harness) {
	h.desk.ClickContinue()
	testkit.Eventually(h.t, 10*time.Second, "resumed", func() bool { p, _ := pausedState(h); return !p })
}

func TestHandbackOrderingOnARealDesktop(t *testing.T) {
	leftPress := func(at time.Time) engine.RawInput {
		return engine.RawInput{Kind: engine.InputButtonPress, Button: 1, Time: at}
	}
	cases := []struct {
		name string
		// run pauses and resumes the session, then injects events; want
		// is the pause reason after them ("" for not paused).
		run  func(h *harness, tap *rawTap)
		want engine.PauseReason
	}{
		{"a key read before the host's resume is not judged after it", func(h *harness, tap *rawTap) {
			pauseByKey(h)
			read := h.clock.Now()
			h.clock.Advance(time.Millisecond)
			h.d.TakeoverResume("")
			tap.inject(engine.RawInput{Kind: engine.InputKeyPress, Key: "x", Time: read})
		}, ""},
		{"a key read after the resume pauses", func(h *harness, tap *rawTap) {
			pauseByKey(h)
			h.d.TakeoverResume("")
			tap.inject(engine.RawInput{Kind: engine.InputKeyPress, Key: "x", Time: h.clock.Now()})
		}, engine.PausedKeyPressed},
		{"the Continue click's own press, reported late, is let through once", func(h *harness, tap *rawTap) {
			pauseByKey(h)
			continueByClick(h)
			tap.inject(leftPress(h.clock.Now()))
		}, ""},
		{"a second left press after that pauses", func(h *harness, tap *rawTap) {
			pauseByKey(h)
			continueByClick(h)
			tap.inject(leftPress(h.clock.Now()))
			tap.inject(leftPress(h.clock.Now()))
		}, engine.PausedButtonPressed},
		{"a Continue click whose press came before it lets no later press through", func(h *harness, tap *rawTap) {
			pauseByKey(h)
			tap.inject(leftPress(h.clock.Now())) // the click's press, while paused
			continueByClick(h)
			tap.inject(leftPress(h.clock.Now()))
		}, engine.PausedButtonPressed},
		{"the host's resume lets no left press through", func(h *harness, tap *rawTap) {
			pauseByKey(h)
			h.d.TakeoverResume("")
			tap.inject(leftPress(h.clock.Now()))
		}, engine.PausedButtonPressed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, tap := tappedTakeover(t)
			c.run(h, tap)
			paused, reason := pausedState(h)
			if paused != (c.want != "") || engine.PauseReason(reason) != c.want {
				t.Fatalf("paused %v (%q), want %q", paused, reason, c.want)
			}
		})
	}
}

// TestDriverPressedRecently: the rule the engine's Continue and a
// backend's consent dialog and indicator share. A press within 1.5 s after
// the driver's own could be the driver's; one before the driver's (a clock
// that stepped back) is taken as within it too.
func TestDriverPressedRecently(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name string
		last time.Time
		want bool
	}{
		{"never pressed", time.Time{}, false},
		{"pressed 1 s before", now.Add(-time.Second), true},
		{"pressed 1.5 s before", now.Add(-1500 * time.Millisecond), false},
		{"pressed 2 s before", now.Add(-2 * time.Second), false},
		{"pressed after", now.Add(time.Minute), true},
	} {
		if got := engine.DriverPressedRecently(c.last, now); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
