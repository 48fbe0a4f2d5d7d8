package native_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
)

// Takeover targets, measured on the test desktop (docs/performance.md):
//
//   - hand-back: from the person's input to the driver sending nothing more,
//     p99 at most 20 ms, during a long type_text and a slow move_cursor
//     glide. The person's input time is when their XTEST request has been
//     handled by the server (their XSync returned), which is no later than
//     any watcher could see it; "nothing more" is the driver's last press or
//     pointer step (releases are the safe direction and always allowed),
//     timed when its XTEST call returned.
//   - indicator removal: from end_session, the kill switch (the person's
//     Escape press handled by the server) and session.revoke to the
//     indicator's windows being gone from the server, polled from another
//     connection: p99 at most 100 ms.
//
// Each reports p50 and p99 in milliseconds; run them with a fixed trial
// count (make bench: 100 hand-backs, 30 removals of each kind).

func BenchmarkHandBackDuringTyping(b *testing.B) {
	w, win := handBackWorld(b)
	text := strings.Repeat("type along ", 40) // far longer than a trial lasts
	var lat, back []time.Duration
	for i := 0; i < b.N; i++ {
		before := w.spy.count(engine.InputKeyPress)
		done := w.async("type_text", map[string]any{"window_id": win, "text": text, "delivery_mode": "foreground"})
		w.waitSendsOr(done, engine.InputKeyPress, before+20)
		if err := w.person.FakeKey("Shift_R", true); err != nil {
			b.Fatal(err)
		}
		_ = w.person.Sync()
		input := time.Now()
		_ = w.person.FakeKey("Shift_R", false)
		_ = w.person.Sync()
		r := <-done
		back = append(back, time.Since(input))
		lat = append(lat, w.stoppedAfter(b, r, input, engine.PausedKeyPressed))
	}
	reportPercentiles(b, lat, back)
}

func BenchmarkHandBackDuringGlide(b *testing.B) {
	w, win := handBackWorld(b)
	ends := [2]engine.Point{{X: 60, Y: 120}, {X: 840, Y: 640}}
	var lat, back []time.Duration
	for i := 0; i < b.N; i++ {
		to := ends[i%2]
		before := w.spy.count(engine.InputMotion)
		done := w.async("move_cursor", map[string]any{"window_id": win, "x": to.X, "y": to.Y, "duration_ms": 3000})
		w.waitSendsOr(done, engine.InputMotion, before+10)
		p, err := w.b.Pointer(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		// A hand on a mouse: a motion off the path every 5 ms until the
		// driver stops; the first one is the person's input.
		var input time.Time
		var r engine.Result
	nudging:
		for k := 0; ; k++ {
			if err := w.person.FakeMotion(p.X, p.Y+20+k); err != nil {
				b.Fatal(err)
			}
			_ = w.person.Sync()
			if k == 0 {
				input = time.Now()
			}
			select {
			case r = <-done:
				back = append(back, time.Since(input))
				break nudging
			case <-time.After(5 * time.Millisecond):
			}
		}
		lat = append(lat, w.stoppedAfter(b, r, input, engine.PausedPointerMoved))
	}
	reportPercentiles(b, lat, back)
}

// waitSendsOr waits until the driver has sent n events of kind, failing
// when the act ends first.
func (w *tk) waitSendsOr(done <-chan engine.Result, kind engine.InputKind, n int) {
	w.t.Helper()
	for w.spy.count(kind) < n {
		select {
		case r := <-done:
			w.t.Fatalf("the act ended before the person's input (after %d sends): %s %+v", w.spy.count(kind), r.Text, r.Err.Body())
		case <-time.After(time.Millisecond):
		}
	}
}

// handBackWorld is a takeover on a small synthetic window, focused, with an
// emptied entry holding the caret.
func handBackWorld(b *testing.B) (*tk, uint64) {
	w, pid := takeoverOnSynthetic(b, 3)
	win, read := w.read(pid)
	w.ok("bring_to_front", map[string]any{"window_id": win})
	entry, _ := entryOf(b, read, "value 0")
	w.ok("click", map[string]any{"element_token": entry, "delivery_mode": "foreground"})
	b.ResetTimer()
	return w, win
}

// stoppedAfter checks the act stopped for the person, returns how long
// after their input the driver's last press or step went out (zero when
// it sent nothing after it), and resumes the session for the next trial.
func (w *tk) stoppedAfter(b *testing.B, r engine.Result, input time.Time, reason engine.PauseReason) time.Duration {
	b.Helper()
	if r.Err == nil || r.Err.Code != engine.CodeUserTookOver || r.Err.PausedReason != reason {
		b.Fatalf("want user_took_over %s, got %s", reason, r.Text)
	}
	var last time.Time
	w.spy.mu.Lock()
	for _, s := range w.spy.sent {
		if s.ev.Kind != engine.InputKeyRelease && s.ev.Kind != engine.InputButtonRelease && s.at.After(last) {
			last = s.at
		}
	}
	w.spy.mu.Unlock()
	if got := w.d.TakeoverResume(""); len(got) != 1 {
		b.Fatalf("the host's resume resumed %v", got)
	}
	if last.After(input) {
		return last.Sub(input)
	}
	return 0
}

func BenchmarkIndicatorRemoval(b *testing.B) {
	a := startSynthetic(b, 3)
	pid := a.cmd.Process.Pid
	w := newTakeover(b)
	release, err := w.b.GrabKillSwitch("", func() { w.d.KillSwitch() })
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	ends := []struct {
		name string
		end  func() time.Time // ends the takeover and returns when it was asked to
	}{
		{"end_session", func() time.Time {
			t0 := time.Now()
			w.ok("end_session", nil)
			return t0
		}},
		{"kill_switch", func() time.Time {
			for _, k := range []string{"Control_L", "Alt_L", "Shift_L", "Escape"} {
				_ = w.person.FakeKey(k, true)
			}
			_ = w.person.Sync()
			t0 := time.Now()
			for _, k := range []string{"Escape", "Shift_L", "Alt_L", "Control_L"} {
				_ = w.person.FakeKey(k, false)
			}
			_ = w.person.Sync()
			return t0
		}},
		{"session_revoke", func() time.Time {
			t0 := time.Now()
			w.host.send(b, "session.revoke", map[string]any{})
			return t0
		}},
	}
	for _, e := range ends {
		b.Run(e.name, func(b *testing.B) {
			var lat []time.Duration
			for i := 0; i < b.N; i++ {
				w.grantTakeover(pid)
				t0 := e.end()
				for len(w.indicatorWindows()) != 0 {
					if time.Since(t0) > 5*time.Second {
						b.Fatal("the indicator stayed on screen")
					}
				}
				lat = append(lat, time.Since(t0))
			}
			reportPercentiles(b, lat, nil)
		})
	}
}

// reportPercentiles reports p50, p99 and the maximum of d in milliseconds,
// and the p99 of back (when given: from the person's input to the act's
// return) as return-p99-ms. ns/op means nothing here: a trial's length is
// mostly its setup.
func reportPercentiles(b *testing.B, d, back []time.Duration) {
	if len(d) == 0 {
		return
	}
	b.ReportMetric(stats.Ms(stats.Percentile(d, 0.50)), "p50-ms")
	b.ReportMetric(stats.Ms(stats.Percentile(d, 0.99)), "p99-ms")
	b.ReportMetric(stats.Ms(stats.Percentile(d, 1)), "max-ms")
	if len(back) > 0 {
		b.ReportMetric(stats.Ms(stats.Percentile(back, 0.99)), "return-p99-ms")
	}
	b.ReportMetric(0, "ns/op")
}
