package engine_test

import (
	"encoding/json"
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
