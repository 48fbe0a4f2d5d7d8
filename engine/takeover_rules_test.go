package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

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

func tappedTakeover(t *testing.T) (*harness, *rawTap) {
	tap := &rawTap{}
	h := newHarness(t, nil, withHost(), func(o *engine.Options, h *harness) {
		tap.Desktop = h.desk
		o.Backend = tap
	})
	h.host.policy.ApproveReads = false
	h.start(map[string]any{"input": "takeover"})
	if h.desk.IndicatorState() != mock.IndicatorActive {
		t.Fatal("takeover needs its indicator")
	}
	return h, tap
}

func pausedState(h *harness) (bool, string) {
	tk := testkit.Field[map[string]any](h.t, h.ok("get_session_state", nil), "takeover")
	reason, _ := tk["paused_reason"].(string)
	return tk["paused"] == true, reason
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
			h.desk.PressKey("q")
			testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
			read := h.clock.Now()
			h.clock.Advance(time.Millisecond)
			h.d.TakeoverResume("")
			tap.inject(engine.RawInput{Kind: engine.InputKeyPress, Key: "x", Time: read})
		}, ""},
		{"a key read after the resume pauses", func(h *harness, tap *rawTap) {
			h.desk.PressKey("q")
			testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
			h.d.TakeoverResume("")
			tap.inject(engine.RawInput{Kind: engine.InputKeyPress, Key: "x", Time: h.clock.Now()})
		}, engine.PausedKeyPressed},
		{"the Continue click's own press, reported late, is let through once", func(h *harness, tap *rawTap) {
			h.desk.PressKey("q")
			testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
			h.desk.ClickContinue()
			testkit.Eventually(h.t, 10*time.Second, "resumed", func() bool { p, _ := pausedState(h); return !p })
			tap.inject(leftPress(h.clock.Now()))
		}, ""},
		{"a second left press after that pauses", func(h *harness, tap *rawTap) {
			h.desk.PressKey("q")
			testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
			h.desk.ClickContinue()
			testkit.Eventually(h.t, 10*time.Second, "resumed", func() bool { p, _ := pausedState(h); return !p })
			tap.inject(leftPress(h.clock.Now()))
			tap.inject(leftPress(h.clock.Now()))
		}, engine.PausedButtonPressed},
		{"a Continue click whose press came before it lets no later press through", func(h *harness, tap *rawTap) {
			h.desk.PressKey("q")
			testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
			tap.inject(leftPress(h.clock.Now())) // the click's press, while paused
			h.desk.ClickContinue()
			testkit.Eventually(h.t, 10*time.Second, "resumed", func() bool { p, _ := pausedState(h); return !p })
			tap.inject(leftPress(h.clock.Now()))
		}, engine.PausedButtonPressed},
		{"the host's resume lets no left press through", func(h *harness, tap *rawTap) {
			h.desk.PressKey("q")
			testkit.Eventually(h.t, 10*time.Second, "paused", func() bool { p, _ := pausedState(h); return p })
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
