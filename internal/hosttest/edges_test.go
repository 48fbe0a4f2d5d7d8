package hosttest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
)

// The faults of issue #20, each pinned on both transports. The engine's
// own tests hold the rules; these show a host sees them the same way over
// stdio and the daemon socket.

// TestNumbersBeyondFloat64AreInvalidArguments: a JSON number float64
// cannot hold reaches the engine byte for byte and is refused with
// invalid_arguments naming the argument, never taken as absent.
func TestNumbersBeyondFloat64AreInvalidArguments(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Edges Host", map[string]any{"apps": []string{"Form Demo"}})
		cases := []struct {
			name, tool, args, arg string
		}{
			{"max_results 1e400", "find_elements", `{"app":"Form Demo","max_results":1e400}`, "max_results"},
			{"max_results -1e400", "find_elements", `{"app":"Form Demo","max_results":-1e400}`, "max_results"},
			{"timeout_ms 1e400", "wait_for", `{"app":"Form Demo","condition":{"kind":"title","text":"never shown"},"timeout_ms":1e400}`, "timeout_ms"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res := mcpkit.Call(t, cs, c.tool, json.RawMessage(c.args))
				e := mcpkit.Failure(t, c.name, res)
				if e.Code != "invalid_arguments" || !strings.HasPrefix(e.Message, c.arg+" ") {
					t.Fatalf("want invalid_arguments naming %s, got %s: %s", c.arg, e.Code, e.Message)
				}
			})
		}
	})
}
