package hosttest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
)

// When a session ends, everything it was doing ends with it
// (engine/callscope.go): each way a session can end, with a wait, a read
// of a hung app and a takeover's typing in flight. Each call answers at
// once with the error a new call would get, never ok and never app
// content; the typing sends no key after the end and leaves none down; the
// indicator goes.

// endAnswerBound is how soon after the end a call in flight must answer
// in this test. The contract's figure is 100 ms, and the test logs the
// times it sees (well under 5 ms on a quiet machine); it allows a loaded
// CI machine ten times the contract's, still well under what would end
// the calls without the fix: the read's 2 s call bound, the typing's 10 s
// and the wait's 20 s.
const endAnswerBound = time.Second

// inFlight is one call started before the end, and what it answered.
type inFlight struct {
	tool string
	done chan struct{}
	at   time.Time
	res  *mcp.CallToolResult
	err  error
}

func startCall(cs *mcp.ClientSession, tool string, args map[string]any) *inFlight {
	f := &inFlight{tool: tool, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		f.res, f.err = cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		f.at = time.Now()
	}()
	return f
}

// presses counts the key and button presses the driver sent.
func presses(desk *mock.Desktop) int {
	n := 0
	for _, ev := range desk.Sent() {
		if ev.Kind == engine.InputKeyPress || ev.Kind == engine.InputButtonPress {
			n++
		}
	}
	return n
}

// heldKeys replays the driver's events in order, as X does: what is still
// down at the end.
func heldKeys(desk *mock.Desktop) []string {
	down := map[string]bool{}
	for _, ev := range desk.Sent() {
		switch ev.Kind {
		case engine.InputKeyPress:
			down[ev.Key+string(ev.Char)] = true
		case engine.InputKeyRelease:
			delete(down, ev.Key+string(ev.Char))
		}
	}
	var out []string
	for k := range down {
		out = append(out, k)
	}
	return out
}

func TestEndingASessionEndsItsCalls(t *testing.T) {
	clock := testkit.NewClock(time.Unix(1_800_000_000, 0))
	eachHost(t, hostOpts{clock: clock}, func(t *testing.T, h *host) {
		ways := []struct {
			name string
			want engine.Code // "": the host is gone and reads no answer
			end  func(t *testing.T, cs *mcp.ClientSession, c conn)
		}{
			{"end_session", engine.CodeNoSession, func(t *testing.T, cs *mcp.ClientSession, c conn) {
				if res := mcpkit.Call(t, cs, "end_session", map[string]any{}); res.IsError {
					t.Fatalf("end_session: %s", mcpkit.Structured(t, res))
				}
			}},
			{"kill switch", engine.CodeSessionRevoked, func(t *testing.T, cs *mcp.ClientSession, c conn) {
				h.driver.KillSwitch()
			}},
			{"host revoke", engine.CodeSessionRevoked, func(t *testing.T, cs *mcp.ClientSession, c conn) {
				h.driver.SessionRevoke("")
			}},
			{"daemon kill", engine.CodeSessionRevoked, func(t *testing.T, cs *mcp.ClientSession, c conn) {
				if h.kill == nil {
					h.driver.KillSwitch() // stdio has no daemon: its kill is the kill switch
					return
				}
				h.kill(t)
			}},
			{"lease", engine.CodeConsentExpired, func(t *testing.T, cs *mcp.ClientSession, c conn) {
				clock.Advance(61 * time.Second)
			}},
			{"connection closed", engine.CodeNoSession, func(t *testing.T, cs *mcp.ClientSession, c conn) {
				c.closeInput()
			}},
			{"connection dropped", "", func(t *testing.T, cs *mcp.ClientSession, c conn) {
				c.abort()
			}},
		}
		for _, way := range ways {
			t.Run(way.name, func(t *testing.T) {
				demo := h.desk.Demo()
				cs, c := h.started(t, "End Host", map[string]any{"apps": []string{"Form Demo", "Editor", "Chat"},
					"input": "takeover", "lease_minutes": 1})
				if h.desk.IndicatorState() != mock.IndicatorActive {
					t.Fatalf("no takeover indicator: %s", h.desk.IndicatorState())
				}
				demo.ChatApp.Hang()
				defer demo.ChatApp.Resume()
				sentBefore := presses(h.desk)
				waitsBefore := len(h.desk.CallsOf("WaitChange"))

				var lastPress testkit.List[time.Time]
				watch, stopWatch := context.WithCancel(context.Background())
				defer stopWatch()
				if err := h.desk.WatchInput(watch, func(ev engine.RawInput) {
					if ev.Kind == engine.InputKeyPress {
						lastPress.Add(time.Now())
					}
				}); err != nil {
					t.Fatal(err)
				}
				calls := []*inFlight{
					startCall(cs, "wait_for", map[string]any{"app": "Editor", "timeout_ms": 20000,
						"condition": map[string]any{"kind": "appears", "role": "push_button", "label": "never there"}}),
					startCall(cs, "get_window_state", map[string]any{"window_id": uint64(demo.ChatMain.ID())}),
					startCall(cs, "type_text", map[string]any{"app": "Form Demo", "delivery_mode": "foreground",
						"text": strings.Repeat("typed by the driver ", 100)}),
				}
				inFlightNow := func() bool {
					return len(h.desk.CallsOf("WaitChange")) > waitsBefore && presses(h.desk) > sentBefore+10 && hungCalls(h.desk, demo.ChatMain.ID()) > 0
				}
				if !testkit.Poll(20*time.Second, inFlightNow) {
					t.Fatal("the wait, the read and the typing were not all in flight")
				}
				for _, f := range calls {
					select {
					case <-f.done:
						t.Fatalf("%s answered before the end: %v %v", f.tool, f.err, f.res)
					default:
					}
				}

				ended := time.Now()
				way.end(t, cs, c)
				if !testkit.Poll(endAnswerBound, func() bool { return h.desk.IndicatorState() == mock.IndicatorNone }) {
					t.Errorf("the indicator is still up after the end: %s", h.desk.IndicatorState())
				}
				afterEnd := presses(h.desk)

				for _, f := range calls {
					select {
					case <-f.done:
					case <-time.After(endAnswerBound):
						t.Fatalf("%s did not answer within %v of the end", f.tool, endAnswerBound)
					}
					took := f.at.Sub(ended)
					t.Logf("%s answered %v after the end", f.tool, took.Round(time.Microsecond))
					if way.want == "" {
						continue
					}
					if f.err != nil {
						t.Fatalf("%s: %v", f.tool, f.err)
					}
					raw := mcpkit.Structured(t, f.res)
					if !f.res.IsError {
						t.Fatalf("%s answered ok after its session ended: %s", f.tool, raw)
					}
					env := mcpkit.Failure(t, f.tool, f.res)
					if env.Code != string(way.want) {
						t.Errorf("%s answered %s (%s), want %s", f.tool, env.Code, env.Message, way.want)
					}
					for _, content := range []string{"Form Demo", "Editor", "general", "Chat", "typed by"} {
						if strings.Contains(string(raw), content) {
							t.Errorf("%s's answer carries app content %q: %s", f.tool, content, raw)
						}
					}
				}
				if ps := lastPress.All(); len(ps) > 0 {
					// Negative: before the end; at most the one on its way.
					t.Logf("the last key press was heard %v after the end", ps[len(ps)-1].Sub(ended).Round(time.Microsecond))
				}
				if n := presses(h.desk); n > afterEnd+1 {
					t.Errorf("%d presses were sent after the end (the one on its way at the end may land)", n-afterEnd)
				}
				if !testkit.Poll(endAnswerBound, func() bool { return len(heldKeys(h.desk)) == 0 }) {
					t.Errorf("keys left down after the end: %v", heldKeys(h.desk))
				}
				if way.name != "connection closed" && way.want != "" {
					assertNoRead(t, cs)
				}
				if way.want == "" && !testkit.Poll(endAnswerBound, func() bool { return sessionEnded(h, "connection_closed") }) {
					t.Errorf("the audit log has no session.ended for the dropped connection: %+v", h.audit.All())
				}
				if len(h.audit.Of("takeover.ended")) == 0 {
					t.Error("the audit log has no takeover.ended")
				}
			})
		}
	})
}

// hungCalls counts the calls on a window still waiting on its hung app.
func hungCalls(desk *mock.Desktop, w engine.WindowID) int {
	n := 0
	for _, c := range desk.Calls() {
		if c.Window == w && !c.Done {
			n++
		}
	}
	return n
}

// assertNoRead checks that a read after the end shows nothing.
func assertNoRead(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res := mcpkit.Call(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})
	if !res.IsError {
		t.Fatalf("a read after the end succeeded: %s", mcpkit.Structured(t, res))
	}
}

// sessionEnded tells whether the audit log has a session's end for reason.
func sessionEnded(h *host, reason string) bool {
	for _, r := range h.audit.Of("session.ended") {
		if r.Reason == reason {
			return true
		}
	}
	return false
}
