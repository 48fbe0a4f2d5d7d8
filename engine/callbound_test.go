package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
)

// slowApp stands between the engine and the mock desktop and makes each
// window read a series of an app's answers, one every 5 ms while answer
// says so, each reported (engine.Answered) as a backend that makes many
// calls per read does. cause receives why the read's context ended, when
// it did.
type slowApp struct {
	*mock.Desktop
	answer func(n int, since time.Duration) answerNext
	cause  chan error
}

// answerNext is what the app does next.
type answerNext int

const (
	answerOne  answerNext = iota // answers one more call
	answerDone                   // has answered every call of the read
	answerNone                   // answers nothing more
)

func (s *slowApp) ReadStructure(ctx context.Context, w engine.WindowID, b engine.Budget) (*engine.Tree, error) {
	start := time.Now()
	for n := 0; ; n++ {
		var next <-chan time.Time
		switch s.answer(n, time.Since(start)) {
		case answerDone:
			return s.Desktop.ReadStructure(ctx, w, b)
		case answerOne:
			next = time.After(5 * time.Millisecond)
		}
		select {
		case <-ctx.Done():
			s.cause <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-next:
			engine.Answered(ctx)
		}
	}
}

// TestTheCallBoundIsTheAppsSilence: a backend call is bounded by how long
// the app goes without answering, not by how long the call takes
// (engine/callbound.go). A read whose app answers steadily for three
// bounds succeeds; one whose app falls silent fails with
// app_not_responding for its silence, long before the hang guard; one that
// answers without end fails too (at the guard, or sooner should the
// machine stall the answers). The steady app answers every 5 ms against a
// bound of a second, room for a loaded machine.
func TestTheCallBoundIsTheAppsSilence(t *testing.T) {
	cases := []struct {
		name   string
		bound  time.Duration
		answer func(n int, since time.Duration) answerNext
		// fails: the read fails with app_not_responding; silent: its
		// context ended for the app's silence, not at the hang guard.
		fails, silent bool
	}{
		{"answers steadily for three bounds", time.Second, func(_ int, since time.Duration) answerNext {
			if since < 3*time.Second {
				return answerOne
			}
			return answerDone
		}, false, false},
		{"answers a little, then falls silent", 500 * time.Millisecond, func(n int, _ time.Duration) answerNext {
			if n < 5 {
				return answerOne
			}
			return answerNone
		}, true, true},
		{"answers without end", 200 * time.Millisecond, func(int, time.Duration) answerNext { return answerOne }, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := &slowApp{answer: tc.answer, cause: make(chan error, 1)}
			h := newHarness(t, nil, withBackend(func(d *mock.Desktop) engine.Backend {
				app.Desktop = d
				return app
			}), func(o *engine.Options, _ *harness) { o.CallTimeout = tc.bound })
			h.start(nil)
			r := h.raw("get_window_state", map[string]any{"window_id": uint64(h.demo.Form.Window.ID())})
			if !tc.fails {
				if r.Err != nil {
					t.Fatalf("a read whose app kept answering failed: %s", r.Text)
				}
				return
			}
			if r.Err == nil || r.Err.Code != engine.CodeAppNotResponding {
				t.Fatalf("want app_not_responding, got %s", r.Text)
			}
			cause := <-app.cause
			if tc.silent && cause == context.DeadlineExceeded {
				t.Fatalf("the read of a silent app ran to the hang guard (%v), not to the end of its silence", cause)
			}
		})
	}
}
