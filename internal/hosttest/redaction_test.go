package hosttest

import (
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
)

// TestWaitForTellsNothingARedactedReadHides is the adversary's oracle: the
// demo editor's document holds an AWS key that reads show as [redacted];
// a wait_for guessing the key's text must never be met, on either
// transport.
func TestWaitForTellsNothingARedactedReadHides(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Oracle Host", map[string]any{"apps": []string{"Editor"}})
		met := func(text string) bool {
			res := mcpkit.Call(t, cs, "wait_for", map[string]any{"app": "Editor", "timeout_ms": 0,
				"condition": map[string]any{"kind": "text", "role": "document_text", "text": text}})
			if res.IsError {
				t.Fatalf("wait_for: %s", mcpkit.Structured(t, res))
			}
			var out struct {
				Met bool `json:"met"`
			}
			if err := json.Unmarshal(mcpkit.Structured(t, res), &out); err != nil {
				t.Fatal(err)
			}
			return out.Met
		}
		if !met("api_key=[redacted]") {
			t.Fatal("what a read shows is not matched")
		}
		for _, guess := range []string{"api_key=akiaiosfodnn7example", "api_key=akiaiosfodnn7examplf", "api_key=a", "akiaiosf"} {
			if met(guess) {
				t.Errorf("wait_for met on %q, which reads show as [redacted]", guess)
			}
		}
	})
}
