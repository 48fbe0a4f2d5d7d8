package engine_test

import (
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// TestSessionStateSaysInactiveOnceTheLeaseRanOut: get_session_state is
// active while the lease runs and inactive from the instant reads are
// refused with consent_expired, still with the lease's end and no time
// left.
func TestSessionStateSaysInactiveOnceTheLeaseRanOut(t *testing.T) {
	cases := []struct {
		name      string
		after     time.Duration
		active    bool
		remaining float64
	}{
		{"at the start", 0, true, 60},
		{"a second before the end", 59 * time.Second, true, 1},
		{"at the end", 60 * time.Second, false, 0},
		{"a minute after the end", 120 * time.Second, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			start := h.start(map[string]any{"lease_minutes": 1})
			expires := start["lease"].(map[string]any)["expires_at_ms"]
			h.clock.Advance(c.after)
			st := h.ok("get_session_state", nil)
			lease, _ := st["lease"].(map[string]any)
			if st["active"] != c.active || lease["remaining_s"] != c.remaining || lease["expires_at_ms"] != expires {
				t.Fatalf("active %v, lease %v; want active %v, remaining_s %v, expires_at_ms %v",
					st["active"], lease, c.active, c.remaining, expires)
			}
			if c.active {
				h.readForm(nil)
			} else {
				h.fail(engine.CodeConsentExpired, "get_window_state", map[string]any{"app": "Form Demo"})
			}
		})
	}
}
