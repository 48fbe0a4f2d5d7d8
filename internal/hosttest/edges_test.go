package hosttest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
)

// Faults an adversarial host found at the edges of the protocol (numbers,
// targets, the lifecycle, session ids, an ended lease), each pinned on
// both transports. The engine's own tests hold the rules; these show a
// host sees them the same way over stdio and the daemon socket.

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

// TestTargetFieldsThatDisagreeNameNoWindow: window_id, pid and app given
// together are filters the window must all pass; fields that disagree are
// window_target_not_found (after_refresh) on every window tool, and never
// a read of whichever window one field names.
func TestTargetFieldsThatDisagreeNameNoWindow(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Edges Host", map[string]any{"apps": []string{"Form Demo", "Editor"}})
		demo := h.desk.Demo()
		form, editor := uint64(demo.Form.Window.ID()), uint64(demo.Editor.Window.ID())
		formPid, editorPid := demo.FormApp.Pid(), demo.EditorApp.Pid()
		cases := []struct {
			name   string
			target map[string]any
			want   uint64 // the window read; 0 for window_target_not_found
		}{
			{"window_id and app agree", map[string]any{"window_id": form, "app": "Form Demo"}, form},
			{"window_id and pid agree", map[string]any{"window_id": form, "pid": formPid}, form},
			{"pid and app agree", map[string]any{"pid": editorPid, "app": "Editor"}, editor},
			{"all three agree", map[string]any{"window_id": form, "pid": formPid, "app": "Form Demo"}, form},
			{"window_id and app disagree", map[string]any{"window_id": editor, "app": "Form Demo"}, 0},
			{"window_id and pid disagree", map[string]any{"window_id": form, "pid": editorPid}, 0},
			{"pid and app disagree", map[string]any{"pid": editorPid, "app": "Form Demo"}, 0},
			{"all three, one disagrees", map[string]any{"window_id": form, "pid": formPid, "app": "Editor"}, 0},
		}
		for _, c := range cases {
			for _, tool := range []string{"get_window_state", "find_elements"} {
				t.Run(c.name+"/"+tool, func(t *testing.T) {
					res := mcpkit.Call(t, cs, tool, c.target)
					if c.want != 0 {
						if res.IsError {
							t.Fatalf("refused: %s", mcpkit.Structured(t, res))
						}
						var got struct {
							Window struct {
								WindowID uint64 `json:"window_id"`
							} `json:"window"`
						}
						if err := json.Unmarshal(mcpkit.Structured(t, res), &got); err != nil || got.Window.WindowID != c.want {
							t.Fatalf("read window %d, want %d (%v)", got.Window.WindowID, c.want, err)
						}
						return
					}
					e := mcpkit.Failure(t, fmt.Sprint(c.target), res, "Form Demo", "Editor")
					if e.Code != "window_target_not_found" || e.Disposition.Retry != "after_refresh" ||
						!strings.Contains(e.Message, "given do not name one window") {
						t.Fatalf("want window_target_not_found saying the fields name no window, got %s: %s [%s]",
							e.Code, e.Message, e.Disposition.Retry)
					}
				})
			}
		}
	})
}

// TestLifecycleRefusalsHaveTheirJSONRPCCodes: a call before initialize, and
// a second initialize, are the client's mistakes in the MCP lifecycle,
// answered -32600 (invalid request) with a message that says which; never
// -32603, which says the server failed. An initialize whose params cannot
// be read is -32602. The connection goes on after each.
func TestLifecycleRefusalsHaveTheirJSONRPCCodes(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"` + legacyProtocol + `","capabilities":{},"clientInfo":{"name":"Edges Host","version":"1"}}}`
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}`
	// As a connection's first line: stdio answers it as MCP; on the daemon
	// a first line that opens no MCP session makes a control connection,
	// which answers -32001 until hello (docs/daemon.md).
	first := map[string]int{"stdio": -32600, "daemon": -32001}
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		c := h.dial(t)
		defer c.abort()
		if r := newLines(c).call(t, call); r.Error == nil || r.Error.Code != first[h.name] {
			t.Fatalf("a call as the first line: got %+v, want error %d", r.Error, first[h.name])
		}
		c = h.dial(t)
		defer c.abort()
		rpc := newLines(c)
		steps := []struct {
			name, line string
			code       int    // 0: a result
			msg        string // what the error's message holds
		}{
			// The daemon takes an initialize as an MCP opening, even one
			// the MCP layer refuses; the connection stays MCP.
			{"initialize with params it cannot read", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`, -32602, "invalid params"},
			{"initialize without params", `{"jsonrpc":"2.0","id":8,"method":"initialize"}`, -32600, "invalid request"},
			{"a call before initialize", call, -32600, "not initialized"},
			{"a list before initialize", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, -32600, "not initialized"},
			{"ping before initialize", `{"jsonrpc":"2.0","id":4,"method":"ping"}`, 0, ""},
			{"initialize", fmt.Sprintf(initialize, 5), 0, ""},
			{"a second initialize", fmt.Sprintf(initialize, 6), -32600, "already initialized"},
			{"a call after initialize", strings.Replace(call, `"id":2`, `"id":7`, 1), 0, ""},
		}
		for _, s := range steps {
			r := rpc.call(t, s.line)
			switch {
			case s.code == 0 && r.Error != nil:
				t.Fatalf("%s: error %d %q", s.name, r.Error.Code, r.Error.Message)
			case s.code != 0 && (r.Error == nil || r.Error.Code != s.code || !strings.Contains(r.Error.Message, s.msg)):
				t.Fatalf("%s: got %+v, want error %d saying %q", s.name, r.Error, s.code, s.msg)
			}
		}
	})
}

// TestTwoConnectionsOfOneHostHaveTwoSessionIDs: two connections of one
// process under one client name hold two sessions with two ids, in the
// list of live sessions and in the audit log: the first the plain
// mcp:<client>:<pid>, the second with a suffix. Ending one leaves the
// other live.
func TestTwoConnectionsOfOneHostHaveTwoSessionIDs(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		apps := map[string]any{"apps": []string{"Form Demo"}}
		var ids []string
		var clients []*mcp.ClientSession
		for range 2 {
			cs, _ := h.started(t, "Twin Host", apps)
			res := mcpkit.Call(t, cs, "get_session_state", nil)
			var st struct {
				Session string `json:"session"`
				Active  bool   `json:"active"`
			}
			if err := json.Unmarshal(mcpkit.Structured(t, res), &st); err != nil || !st.Active {
				t.Fatalf("get_session_state: %s", mcpkit.Structured(t, res))
			}
			ids = append(ids, st.Session)
			clients = append(clients, cs)
		}
		if ids[0] == ids[1] || !strings.HasPrefix(ids[1], ids[0]+":") {
			t.Fatalf("two connections' session ids %v: want the first's plain form and a suffix on the second's", ids)
		}
		listed := h.sessions(t)
		slices.Sort(listed)
		if !slices.Equal(listed, ids) {
			t.Fatalf("live sessions %v, want %v", listed, ids)
		}
		if started := h.audit.Sessions("session.started"); !slices.Equal(started, ids) {
			t.Fatalf("audit session.started %v, want %v", started, ids)
		}

		if res := mcpkit.Call(t, clients[0], "end_session", nil); res.IsError {
			t.Fatalf("end_session: %s", mcpkit.Structured(t, res))
		}
		if listed := h.sessions(t); !slices.Equal(listed, ids[1:]) {
			t.Fatalf("after the first ended, live sessions %v, want %v", listed, ids[1:])
		}
		if res := mcpkit.Call(t, clients[1], "get_window_state", map[string]any{"app": "Form Demo"}); res.IsError {
			t.Fatalf("the second session no longer reads: %s", mcpkit.Structured(t, res))
		}
	})
}

// TestSessionStateAfterTheLeaseRanOut: once the lease has run out,
// get_session_state says the session is not active, with the lease's end
// and no time left.
func TestSessionStateAfterTheLeaseRanOut(t *testing.T) {
	clock := testkit.NewClock(time.Unix(1_800_000_000, 0))
	eachHost(t, hostOpts{clock: clock}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Edges Host", map[string]any{"apps": []string{"Form Demo"}, "lease_minutes": 1})
		type state struct {
			Active bool `json:"active"`
			Lease  *struct {
				ExpiresAtMs int64 `json:"expires_at_ms"`
				RemainingS  int64 `json:"remaining_s"`
			} `json:"lease"`
		}
		read := func() state {
			t.Helper()
			res := mcpkit.Call(t, cs, "get_session_state", nil)
			var st state
			if err := json.Unmarshal(mcpkit.Structured(t, res), &st); err != nil || res.IsError || st.Lease == nil {
				t.Fatalf("get_session_state: %s", mcpkit.Structured(t, res))
			}
			return st
		}
		before := read()
		if !before.Active || before.Lease.RemainingS != 60 {
			t.Fatalf("a fresh lease: active %v, remaining_s %d", before.Active, before.Lease.RemainingS)
		}
		clock.Advance(61 * time.Second)
		after := read()
		if after.Active || after.Lease.RemainingS != 0 || after.Lease.ExpiresAtMs != before.Lease.ExpiresAtMs {
			t.Fatalf("after the lease ran out: active %v, lease %+v; want inactive, remaining_s 0, expires_at_ms %d",
				after.Active, *after.Lease, before.Lease.ExpiresAtMs)
		}
	})
}
