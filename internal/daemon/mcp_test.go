package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// legacyProtocol opens with initialize (mcpline.LegacyProtocol).
const legacyProtocol = mcpline.LegacyProtocol

// mcpClient connects an SDK client to the daemon's socket.
func mcpClient(t *testing.T, path, name, protocol string) *mcp.ClientSession {
	t.Helper()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	return mcpkit.Connect(t, name, &mcp.IOTransport{Reader: conn, Writer: conn}, protocol, nil)
}

// callTool calls a tool and returns its structured result as a map.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	raw := mcpkit.Structured(t, mcpkit.Call(t, cs, name, args))
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: structuredContent %s", name, raw)
	}
	return out
}

// waitSessionEnd fails the test unless the daemon ends the client's session.
func waitSessionEnd(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	testkit.Returns(t, 20*time.Second, "waiting for the daemon to end the MCP session", func() { cs.Wait() })
}

func TestMCPOverTheSocket(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	for _, protocol := range []string{legacyProtocol, ""} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			cs := mcpClient(t, td.path, "Socket Host", protocol)
			mcpkit.ListsEveryTool(t, cs)
			windows := callTool(t, cs, "list_windows", map[string]any{})
			if windows["ok"] != true {
				t.Errorf("list_windows: %v", windows)
			}
			started := callTool(t, cs, "start_session", map[string]any{"apps": []string{"Form Demo"}})
			if started["ok"] != true {
				t.Fatalf("start_session: %v", started)
			}
			state := callTool(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})
			if state["ok"] != true || !strings.Contains(fmt.Sprint(state["tree_text"]), "Form Demo") {
				t.Errorf("get_window_state: %v", state)
			}
		})
	}
}

func TestSessionsListNamesSocketSessionsByTheirPeerPid(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	a := mcpClient(t, td.path, "Host A", legacyProtocol)
	b := mcpClient(t, td.path, "Host B", legacyProtocol)
	for _, cs := range []*mcp.ClientSession{a, b} {
		if r := callTool(t, cs, "start_session", map[string]any{"apps": []string{"Editor"}}); r["ok"] != true {
			t.Fatalf("start_session: %v", r)
		}
	}
	c := helloClient(t, td.path)
	var list SessionsResult
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"sessions.list"}`), &list)
	var ids []string
	for _, s := range list.Sessions {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	// Both hosts are this test process: the peer pid the kernel reported.
	want := []string{engine.SessionID("Host A", os.Getpid()), engine.SessionID("Host B", os.Getpid())}
	if !slices.Equal(ids, want) {
		t.Errorf("sessions %v, want %v", ids, want)
	}
}

func TestKillEndsEverySession(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	cs := mcpClient(t, td.path, "Host", legacyProtocol)
	if r := callTool(t, cs, "start_session", map[string]any{"apps": []string{"Form Demo"}}); r["ok"] != true {
		t.Fatalf("start_session: %v", r)
	}
	c := helloClient(t, td.path)
	var killed KillResult
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"kill"}`), &killed)
	if want := []string{engine.SessionID("Host", os.Getpid())}; !slices.Equal(killed.Ended, want) {
		t.Errorf("kill ended %v, want %v", killed.Ended, want)
	}
	var list SessionsResult
	resultOf(t, c.call(`{"jsonrpc":"2.0","id":2,"method":"sessions.list"}`), &list)
	if len(list.Sessions) != 0 {
		t.Errorf("sessions after kill: %v", list.Sessions)
	}
	r := callTool(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})
	errObj, _ := r["error"].(map[string]any)
	if r["ok"] != false || errObj["code"] != string(engine.CodeSessionRevoked) {
		t.Errorf("a tool after kill: %v, want session_revoked", r)
	}
	// kill with nothing running ends nothing, and says so with an empty list.
	line := c.call(`{"jsonrpc":"2.0","id":3,"method":"kill"}`)
	if got := string(line["result"]); got != `{"ended":[]}` {
		t.Errorf("second kill: %s", got)
	}
}

// An MCP frame of 1 MiB or more is refused with a JSON-RPC error and the
// session goes on (a control connection's oversized frame still closes it).
func TestMCPOversizedFrameIsRefusedAndTheSessionGoesOn(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	c := dial(t, td.path)
	if r := c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + legacyProtocol + `","capabilities":{},"clientInfo":{"name":"Host","version":"1"}}}`); r["error"] != nil {
		t.Fatalf("initialize: %s", stringify(r))
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	big := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_windows","arguments":{"pad":"` + strings.Repeat("x", MaxFrame) + `"}}}`
	r := c.call(big)
	if e := errorOf(t, r); e.Code != CodeInvalidRequest || string(r["id"]) != "null" {
		t.Errorf("oversized frame: %s, want -32600 with id null", stringify(r))
	}
	r = c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}`)
	if r["error"] != nil || string(r["id"]) != "3" {
		t.Errorf("the call after the oversized frame: %s", stringify(r))
	}
}

func TestAnMCPSessionEndsItsEngineSessionWhenTheHostLeaves(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	cs := mcpClient(t, td.path, "Leaving Host", legacyProtocol)
	if r := callTool(t, cs, "start_session", map[string]any{"apps": []string{"Chat"}}); r["ok"] != true {
		t.Fatalf("start_session: %v", r)
	}
	cs.Close()
	c := helloClient(t, td.path)
	testkit.Eventually(t, 20*time.Second, "the session ends with its host", func() bool {
		var list SessionsResult
		resultOf(t, c.call(`{"jsonrpc":"2.0","id":1,"method":"sessions.list"}`), &list)
		return len(list.Sessions) == 0
	})
}

// TestShutdownDoesNotWaitForAPendingConsentDialog stops the daemon while a
// start_session waits for a person who never answers. With the consent
// timeout and the drain bound both far beyond the test's own bound, only
// cancelling the call on shutdown lets Serve return.
func TestShutdownDoesNotWaitForAPendingConsentDialog(t *testing.T) {
	td := startDaemon(t, daemonOpts{consentTimeout: time.Hour, drainBound: time.Hour})
	td.desk.SetConsent(mock.Ignore)
	cs := mcpClient(t, td.path, "Host", legacyProtocol)
	asked := make(chan struct{})
	go func() {
		defer close(asked)
		cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "start_session", Arguments: map[string]any{"apps": []string{"Form Demo"}}})
	}()
	testkit.Eventually(t, 20*time.Second, "the consent dialog is asked for", func() bool { return len(td.desk.CallsOf("AskConsent")) != 0 })
	if err := td.stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	select {
	case <-asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the pending call was never answered or ended")
	}
}

func TestShutdownClosesClientsRemovesTheSocketAndReleasesTheLock(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	ctl := helloClient(t, td.path)
	cs := mcpClient(t, td.path, "Host", legacyProtocol)
	if r := callTool(t, cs, "start_session", map[string]any{"apps": []string{"Form Demo"}}); r["ok"] != true {
		t.Fatalf("start_session: %v", r)
	}
	if err := td.stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if n := ctl.expectClosed(); n != 0 {
		t.Errorf("%d unexpected lines", n)
	}
	waitSessionEnd(t, cs)
	if ids := td.driver.SessionIDs(); len(ids) != 0 {
		t.Errorf("engine sessions after shutdown: %v", ids)
	}
	if _, err := os.Lstat(td.path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there: %v", err)
	}
	ep, err := Listen(td.path)
	if err != nil {
		t.Fatalf("the lock was not released: %v", err)
	}
	ep.Close()
}

// Every connection of the daemon shares one driver: a token read on one
// connection names no snapshot of another connection's session, however
// many reads that session has made, and acts on nothing there.
func TestATokenFromAnotherDaemonConnectionIsStale(t *testing.T) {
	td := startDaemon(t, daemonOpts{})
	a := mcpClient(t, td.path, "Host A", legacyProtocol)
	b := mcpClient(t, td.path, "Host B", legacyProtocol)
	for _, cs := range []*mcp.ClientSession{a, b} {
		if r := callTool(t, cs, "start_session", map[string]any{"apps": []string{"Form Demo", "Editor"}}); r["ok"] != true {
			t.Fatalf("start_session: %v", r)
		}
	}
	tok := testkit.Token(t, callTool(t, a, "get_window_state", map[string]any{"app": "Editor"}), "push_button", "New")
	for i := 0; i < 3; i++ {
		if r := callTool(t, b, "get_window_state", map[string]any{"app": "Form Demo"}); r["ok"] != true {
			t.Fatalf("get_window_state on B: %v", r)
		}
	}
	before := td.desk.ChangeCalls()
	for _, args := range []map[string]any{
		{"element_token": tok},
		{"app": "Editor", "element_token": tok},
	} {
		r := callTool(t, b, "click", args)
		errObj, _ := r["error"].(map[string]any)
		if r["ok"] != false || errObj["code"] != string(engine.CodeStaleElementToken) {
			t.Errorf("click %v on connection B: %v, want stale_element_token", args, r)
		}
	}
	if got := td.desk.ChangeCalls(); got != before {
		t.Fatalf("connection A's token acted on connection B: %d calls that change apps, want %d", got, before)
	}
	// On its own connection the token still acts.
	if r := callTool(t, a, "click", map[string]any{"element_token": tok}); r["ok"] != true {
		t.Errorf("click on connection A: %v", r)
	}
}
