package hosttest

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
)

// TestBothHostsServeASession is the kit's own check: each transport opens,
// starts a session and reads a window.
func TestBothHostsServeASession(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Kit Host", map[string]any{"apps": []string{"Form Demo"}})
		res := mcpkit.Call(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})
		if res.IsError {
			t.Fatalf("get_window_state: %s", mcpkit.Structured(t, res))
		}
	})
}
