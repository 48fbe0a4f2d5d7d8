package daemon

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

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
