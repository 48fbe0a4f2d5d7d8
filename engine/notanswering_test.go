package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
)

// An app that is there but does not answer the window listing (a busy app
// on a Wayland session's bus) is app_not_responding to a target that names
// it, by pid or by name, with that code's suggestion: never "no window"
// (docs/contract.md#window-targets). Once it answers, the same calls work.
func TestTargetOfAppNotAnsweringTheListing(t *testing.T) {
	suggestion := engine.Errf(engine.CodeAppNotResponding, "").Body().Suggestion
	type step struct {
		tool string
		args func(h *harness) map[string]any
	}
	cases := []struct {
		name     string
		approved bool // a session on the demo's apps is started before one goes silent
		call     step
		silent   func(h *harness) *mock.App // Chat unless set
	}{
		{"start_session by pid", false, step{"start_session", func(h *harness) map[string]any {
			return map[string]any{"apps": []any{h.demo.ChatApp.Pid()}}
		}}, nil},
		{"start_session by name", false, step{"start_session", func(h *harness) map[string]any {
			return map[string]any{"apps": []any{"Chat"}}
		}}, nil},
		{"a read by pid", true, step{"get_window_state", func(h *harness) map[string]any {
			return map[string]any{"pid": h.demo.ChatApp.Pid()}
		}}, nil},
		{"a read by app name", true, step{"get_window_state", func(h *harness) map[string]any {
			return map[string]any{"app": "Editor"} // Chat has two windows: its name alone is ambiguous
		}}, func(h *harness) *mock.App { return h.demo.EditorApp }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if c.approved {
				h.start(nil)
			}
			silent := h.demo.ChatApp
			if c.silent != nil {
				silent = c.silent(h)
			}
			silent.StopAnsweringListings()
			e := h.fail(engine.CodeAppNotResponding, c.call.tool, c.call.args(h))
			if e["suggestion"] != suggestion {
				t.Fatalf("suggestion %v, want app_not_responding's %q", e["suggestion"], suggestion)
			}
			silent.AnswerListings()
			h.ok(c.call.tool, c.call.args(h))
		})
	}
}

// A pid no app on the desktop has is still window_target_not_found: only an
// app that is there and did not answer is app_not_responding.
func TestTargetOfNoAppIsNotFound(t *testing.T) {
	h := newHarness(t, nil)
	h.demo.ChatApp.StopAnsweringListings()
	h.fail(engine.CodeWindowTargetNotFound, "start_session", map[string]any{"apps": []any{h.demo.FormApp.Pid() + 1000}})
	h.fail(engine.CodeWindowTargetNotFound, "start_session", map[string]any{"apps": []any{"No Such App"}})
}
