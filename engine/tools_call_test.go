package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// TestEveryToolRunsItsOwnBehaviour calls every tool of the table with a
// session and empty arguments: each answers with its own result or refusal,
// never as an unknown tool or with internal (a row whose behaviour is
// missing or broken).
func TestEveryToolRunsItsOwnBehaviour(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	for _, tool := range engine.ToolNames() {
		if tool == "start_session" || tool == "end_session" {
			continue
		}
		r := h.raw(tool, map[string]any{})
		if r.Err == nil {
			continue
		}
		if r.Err.Code == engine.CodeInternal || r.Err.Message == "unknown tool" {
			t.Errorf("%s: %s", tool, r.Text)
		}
	}
}
