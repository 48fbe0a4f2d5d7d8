package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
	"github.com/nish-driver/nish-driver/schema"
)

// sessionCount is the number of sessions on the lean path (for tests).
func (h *holders) sessionCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}

// plausibleArgs fills each argument of a tool's input schema with a value
// a model could send: the form's app, a token of its Help button where a
// token goes, a short text where a string goes. Enough for reads, finds
// and acts to succeed on the demo and the rest to fail with an envelope.
func plausibleArgs(t *testing.T, tool, token string) map[string]any {
	args := map[string]any{}
	for _, p := range testkit.InputProperties(t, tool) {
		switch {
		case p.Name == "app":
			args[p.Name] = "Form Demo"
		case isTokenArg(p.Name) && p.Name != "root":
			args[p.Name] = token
		case p.Type == "string" && p.Name == "text":
			args[p.Name] = "x"
		}
	}
	return args
}

// On the stdio path every tool's result goes through the lean encoding
// (EncodeResult, held by the wire connection), and what the client reads
// is still a whole, valid tool result: a success validates against the
// tool's output schema, a failure against the error envelope's. The SDK
// validates no output here (no output schema is advertised), so this is
// the check that the lean path's results keep their schemas.
func TestEveryToolOverStdioGivesSchemaValidResults(t *testing.T) {
	s := newStdioServer(t, mock.NewDemo())
	if n := s.server.holders.sessionCount(); n != 1 {
		t.Fatalf("%d sessions on the lean path, want the stdio one", n)
	}
	s.mustCall(t, "start_session", map[string]any{"apps": []any{"Form Demo", "Editor", "Chat"}, "input": "headless"})
	found := s.mustCall(t, "find_elements", map[string]any{"app": "Form Demo", "role": "push_button", "label": "Help"})
	_, _, structured, err := mcpline.Result(found.Line)
	if err != nil {
		t.Fatal(err)
	}
	var matches struct {
		Elements []struct {
			Token string `json:"element_token"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(structured, &matches); err != nil || len(matches.Elements) == 0 {
		t.Fatalf("find_elements found no button: %v %s", err, structured)
	}
	token := matches.Elements[0].Token
	succeeded := map[string]bool{}
	for _, tool := range engine.ToolNames() {
		if tool == "start_session" || tool == "end_session" {
			continue
		}
		for _, args := range []any{nil, plausibleArgs(t, tool, token)} {
			r, err := s.client.Call(tool, args)
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			isErr, text, structured, err := mcpline.Result(r.Line)
			switch {
			case err != nil:
				t.Errorf("%s: %v", tool, err)
			case text == "" || len(structured) == 0:
				t.Errorf("%s: a result without its text or structuredContent: %.300s", tool, r.Line)
			case isErr:
				if err := schema.ValidateError(structured); err != nil {
					t.Errorf("%s %v: the envelope breaks its schema: %v", tool, args, err)
				}
			default:
				succeeded[tool] = true
				if err := schema.ValidateOutput(tool, structured); err != nil {
					t.Errorf("%s %v: the result breaks the output schema: %v", tool, args, err)
				}
			}
		}
	}
	s.mustCall(t, "end_session", nil)
	for _, tool := range []string{"list_windows", "get_window_state", "find_elements", "click"} {
		if !succeeded[tool] {
			t.Errorf("%s never succeeded, so its success shape went unchecked", tool)
		}
	}
	t.Logf("tools that succeeded at least once: %d of %d", len(succeeded), len(engine.ToolNames())-2)
}
