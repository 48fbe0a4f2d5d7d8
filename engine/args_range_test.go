package engine_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestToolsRefuseNumbersBeyondFloat64: every number a tool takes (a limit,
// a timeout, a target, a coordinate, a value) refuses a JSON number that
// float64 cannot hold with invalid_arguments naming the argument, and
// nothing is acted on. Such a number used to count as absent: 20 results,
// a 5,000 ms wait, a click on the token without its x,y.
func TestToolsRefuseNumbersBeyondFloat64(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	read := h.readForm(nil)
	save := testkit.Token(t, read, "push_button", "Save")
	volume := testkit.Token(t, read, "spin_button", "Volume")
	huge := "1" + strings.Repeat("0", 400)
	cases := []struct {
		name, tool, args, arg string
	}{
		{"find_elements max_results 1e400", "find_elements", `{"app":"Form Demo","max_results":1e400}`, "max_results"},
		{"find_elements max_results -1e400", "find_elements", `{"app":"Form Demo","max_results":-1e400}`, "max_results"},
		{"find_elements max_results of 400 digits", "find_elements", `{"app":"Form Demo","max_results":` + huge + `}`, "max_results"},
		{"wait_for timeout_ms 1e400", "wait_for", `{"app":"Form Demo","condition":{"kind":"title","text":"never shown"},"timeout_ms":1e400}`, "timeout_ms"},
		{"get_window_state max_elements 1e400", "get_window_state", `{"app":"Form Demo","max_elements":1e400}`, "max_elements"},
		{"get_window_state window_id 1e400", "get_window_state", `{"window_id":1e400}`, "window_id"},
		{"get_window_state pid -1e400", "get_window_state", `{"pid":-1e400}`, "pid"},
		{"click x,y 1e400 with a token", "click", `{"element_token":"` + save + `","x":1e400,"y":1e400}`, "x"},
		{"set_value value 1e400", "set_value", `{"element_token":"` + volume + `","value":1e400}`, "value"},
		{"set_value value -1e400", "set_value", `{"element_token":"` + volume + `","value":-1e400}`, "value"},
		{"start_session lease_minutes 1e400", "start_session", `{"apps":["Form Demo"],"lease_minutes":1e400}`, "lease_minutes"},
	}
	before := h.desk.ChangeCalls()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := h.on(t).raw(c.tool, json.RawMessage(c.args))
			if res.Err == nil || res.Err.Code != engine.CodeInvalidArguments {
				t.Fatalf("want invalid_arguments, got %s", strings.SplitN(res.Text, "\n", 2)[0])
			}
			if !strings.HasPrefix(res.Err.Message, c.arg+" ") {
				t.Fatalf("the message %q does not name %s", res.Err.Message, c.arg)
			}
		})
	}
	if got := h.desk.ChangeCalls(); got != before {
		t.Fatalf("a refused call acted (%d backend acts)", got-before)
	}
}

// TestToolsHoldTheBoundsTheirSchemasAdvertise: every whole-number argument
// bounded in a tool's input schema (schema/input) is held by the engine to
// the same bounds. A number just past a bound is refused with
// invalid_arguments whose message states the engine's range, which must
// be the schema's; the bound itself is not refused. The schemas restate
// the engine's limits (the lease, max_results, timeout_ms, ...) for the
// model; this keeps the two from drifting apart.
func TestToolsHoldTheBoundsTheirSchemasAdvertise(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	win := uint64(h.demo.Form.Window.ID())
	// What each tool needs beside the bounded argument to get as far as
	// checking it.
	base := map[string]map[string]any{
		"start_session": {"apps": []any{"Form Demo"}},
		"wait_for":      {"window_id": win, "condition": map[string]any{"kind": "title", "text": "Form Demo"}},
		"move_cursor":   {"window_id": win, "x": 10, "y": 10},
		"scroll":        {"window_id": win, "x": 10, "y": 10, "direction": "down"},
	}
	checked := 0
	for _, tool := range engine.ToolNames() {
		for _, b := range schemaBounds(t, tool) {
			call := func(v int64) engine.Result {
				args := map[string]any{"window_id": win}
				if tb, ok := base[tool]; ok {
					args = maps.Clone(tb)
				}
				args[b.prop] = v
				return h.on(t).raw(tool, args)
			}
			past, at := b.min-1, b.min
			want := fmt.Sprintf("%s must be between %d and ", b.prop, b.min)
			if b.max != nil {
				past, at = *b.max+1, *b.max
				want = fmt.Sprintf("%s must be between %d and %d", b.prop, b.min, *b.max)
			}
			res := call(past)
			if res.Err != nil && res.Err.Code == engine.CodeUnsupported {
				break // a tool with no platform API here reads no argument (engine/unsupported.go)
			}
			if res.Err == nil || res.Err.Code != engine.CodeInvalidArguments || !strings.HasPrefix(res.Err.Message, want) {
				t.Errorf("%s %s=%d: want invalid_arguments %q…, got %s", tool, b.prop, past, want, strings.SplitN(res.Text, "\n", 2)[0])
			}
			if res := call(at); res.Err != nil && res.Err.Code == engine.CodeInvalidArguments && strings.HasPrefix(res.Err.Message, b.prop+" ") {
				t.Errorf("%s %s=%d, the schema's bound, was refused: %s", tool, b.prop, at, res.Err.Message)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("%d bounded arguments found in the input schemas", checked)
	}
}

// schemaBound is a whole-number argument's range in a tool's input schema
// (max nil: no maximum).
type schemaBound struct {
	prop string
	min  int64
	max  *int64
}

// schemaBounds lists the bounded whole-number arguments of a tool's input
// schema.
func schemaBounds(t *testing.T, tool string) []schemaBound {
	t.Helper()
	var out []schemaBound
	for _, p := range testkit.InputProperties(t, tool) {
		if p.Type != "integer" || (p.Minimum == nil && p.Maximum == nil) {
			continue
		}
		if p.Minimum == nil {
			t.Fatalf("%s %s has a maximum and no minimum", tool, p.Name)
		}
		b := schemaBound{prop: p.Name, min: int64(*p.Minimum)}
		if p.Maximum != nil {
			m := int64(*p.Maximum)
			b.max = &m
		}
		out = append(out, b)
	}
	return out
}
