package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
	"github.com/nish-driver/nish-driver/schema"
)

// argMarker is sent as a tool argument; it must never reach stderr.
const argMarker = "ARGMARKER-5e1f"

// connect starts `nish-driver mcp args...` through the SDK's
// CommandTransport and initializes a session with the legacy handshake.
func connect(t *testing.T, env []string, args ...string) (*mcp.ClientSession, *testkit.SyncBuffer) {
	t.Helper()
	return connectAs(t, mcpline.LegacyProtocol, env, args...)
}

// connectAs is connect with the protocol version the client asks for ("":
// the SDK client's newest).
func connectAs(t *testing.T, protocol string, env []string, args ...string) (*mcp.ClientSession, *testkit.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Env = env
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	cs := mcpkit.Connect(t, "binary-test", &mcp.CommandTransport{Command: cmd}, protocol, stderr.String)
	return cs, stderr
}

func TestMCPOverStdioWithTheMockDesktop(t *testing.T) {
	env := noDesktopEnv(t)
	auditPath := filepath.Join(t.TempDir(), "audit", "audit.jsonl")
	cs, stderr := connect(t, env, "--backend", "mock", "--audit-log", auditPath)

	if meta := cs.InitializeResult().Meta; meta["contract_version"] != "0.8.0" || meta["tools_list_schema_version"] != float64(1) {
		t.Errorf("initialize _meta = %v", meta)
	}
	mcpkit.ListsEveryTool(t, cs)

	lw := mcpkit.Call(t, cs, "list_windows", nil)
	if lw.IsError {
		t.Fatalf("list_windows failed: %v", lw.Content)
	}
	if err := schema.ValidateOutput("list_windows", mcpkit.Structured(t, lw)); err != nil {
		t.Errorf("list_windows result: %v", err)
	}
	var windows engine.ListWindowsResult
	if err := json.Unmarshal(mcpkit.Structured(t, lw), &windows); err != nil || len(windows.Windows) == 0 {
		t.Fatalf("list_windows: %s", mcpkit.Structured(t, lw))
	}

	if code := mcpkit.Failure(t, "call", mcpkit.Call(t, cs, "get_session_state", nil)).Code; code != "no_session" {
		t.Errorf("get_session_state before start_session: %s, want no_session", code)
	}
	// An argument the driver never logs.
	mcpkit.Call(t, cs, "list_windows", map[string]any{"app": argMarker})

	// A session on the mock: the consent person allows by default.
	start := mcpkit.Call(t, cs, "start_session", map[string]any{"apps": []any{windows.Windows[0].Pid}, "purpose": argMarker})
	if start.IsError {
		t.Fatalf("start_session: %v", start.Content)
	}
	lw = mcpkit.Call(t, cs, "list_windows", nil)
	if err := json.Unmarshal(mcpkit.Structured(t, lw), &windows); err != nil {
		t.Fatal(err)
	}
	var appText []string
	for _, w := range windows.Windows {
		appText = append(appText, w.App)
		if w.Title != "" {
			appText = append(appText, w.Title)
		}
	}
	if len(appText) == 0 {
		t.Fatal("no app text to look for")
	}

	if err := cs.Close(); err != nil {
		t.Errorf("closing: %v", err)
	}
	logs := stderr.String()
	if !strings.Contains(logs, "serving MCP on stdio") || !strings.Contains(logs, "MCP session ended") {
		t.Errorf("stderr lacks the lifecycle lines:\n%s", logs)
	}
	for _, bad := range append([]string{argMarker, `"jsonrpc"`}, appText...) {
		if strings.Contains(logs, bad) {
			t.Errorf("stderr contains %q:\n%s", bad, logs)
		}
	}
	info, err := os.Stat(auditPath)
	if err != nil {
		t.Fatalf("no audit log: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %v, want 0600", info.Mode().Perm())
	}
	audit, _ := os.ReadFile(auditPath)
	if !bytes.Contains(audit, []byte(`"session.started"`)) || !bytes.Contains(audit, []byte(`"session.ended"`)) {
		t.Errorf("audit log lacks the session's start and end:\n%s", audit)
	}
	for _, bad := range append([]string{argMarker}, appText...) {
		if bytes.Contains(audit, []byte(bad)) {
			t.Errorf("audit log contains %q", bad)
		}
	}
}

func TestLinuxBackendWithoutADisplayFailsHonestly(t *testing.T) {
	cs, stderr := connect(t, noDesktopEnv(t), "--backend", "linux")
	defer cs.Close()
	// The warning is written as the driver starts; its stderr is read on
	// its own pipe, which may not have been read yet.
	testkit.Eventually(t, 10*time.Second, "stderr warns that the desktop is unreachable", func() bool {
		logs := stderr.String()
		return strings.Contains(logs, "the desktop is not ready") && strings.Contains(logs, "display_unreachable")
	})
	if code := mcpkit.Failure(t, "call", mcpkit.Call(t, cs, "list_windows", nil)).Code; code != "backend_unavailable" {
		t.Errorf("list_windows: %s, want backend_unavailable", code)
	}
	health := mcpkit.Call(t, cs, "health_report", nil)
	if health.IsError {
		t.Fatalf("health_report: %v", health.Content)
	}
	var h engine.HealthResult
	if err := json.Unmarshal(mcpkit.Structured(t, health), &h); err != nil {
		t.Fatal(err)
	}
	if h.Ready {
		t.Errorf("health_report says ready without a display: %s", mcpkit.Structured(t, health))
	}
}

// Every line the driver writes to stdout is a JSON-RPC 2.0 message, and it
// exits cleanly when the host closes stdin.
func TestStdoutCarriesOnlyProtocol(t *testing.T) {
	cmd, stdin, stdout, stderr := startMCPPipes(t, noDesktopEnv(t), "--backend", "mock")
	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_session_state","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_windows","arguments":"` + argMarker + `"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
	}
	for _, r := range requests {
		if _, err := io.WriteString(stdin, r+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	answered := map[float64]map[string]any{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for len(answered) < 5 && sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
		if msg["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC 2.0: %q", sc.Text())
		}
		if id, ok := msg["id"].(float64); ok {
			answered[id] = msg
		}
	}
	stdin.Close()
	rest, _ := io.ReadAll(stdout)
	for _, line := range strings.Split(strings.TrimSpace(string(rest)), "\n") {
		if line != "" && !json.Valid([]byte(line)) {
			t.Errorf("stdout after the answers: %q", line)
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("driver exit: %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the driver did not exit after stdin closed")
	}

	if r, ok := answered[3]["result"].(map[string]any); !ok {
		t.Fatalf("get_session_state: no result object in the answer %v", answered[3])
	} else if r["isError"] != true {
		t.Errorf("get_session_state: %v", r)
	}
	if r, ok := answered[4]["result"].(map[string]any); !ok {
		t.Fatalf("arguments as a string: no result object in the answer %v", answered[4])
	} else if r["isError"] != true || strings.Contains(fmt.Sprint(r), argMarker) {
		t.Errorf("arguments as a string: %v", r)
	}
	if e, ok := answered[5]["error"].(map[string]any); !ok || e["code"] != float64(-32602) {
		t.Errorf("unknown tool: %v, want a -32602 protocol error", answered[5])
	}
	if strings.Contains(stderr.String(), argMarker) {
		t.Errorf("stderr has the argument:\n%s", stderr.String())
	}
}

// The control pipe is wired: the driver answers the host's lines on the
// inherited descriptors.
func TestControlPipeIsWired(t *testing.T) {
	hostToDriverR, hostToDriverW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	driverToHostR, driverToHostW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "mcp", "--backend", "mock", "--control-in", "3", "--control-out", "4")
	cmd.Env = noDesktopEnv(t)
	cmd.ExtraFiles = []*os.File{hostToDriverR, driverToHostW}
	stdin, _ := cmd.StdinPipe()
	cmd.Stdout = io.Discard
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hostToDriverR.Close()
	driverToHostW.Close()
	defer func() {
		stdin.Close()
		hostToDriverW.Close()
		cmd.Wait()
	}()

	if _, err := io.WriteString(hostToDriverW, `{"method":"no.such.method","id":7}`+"\n"); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(driverToHostR)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case line := <-lines:
		if !strings.Contains(line, "unknown_method") {
			t.Errorf("control answer %q, want an unknown_method error", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer on the control pipe\nstderr:\n%s", stderr.String())
	}
	// The control pipe starts before the server logs its start line, so
	// the answer can come first: wait for the line.
	if !testkit.Poll(10*time.Second, func() bool { return strings.Contains(stderr.String(), "control_pipe=true") }) {
		t.Errorf("stderr does not say the control pipe is on:\n%s", stderr.String())
	}
}

// A host that writes its requests and closes its end at once still gets
// every answer.
func TestAnswersSurviveTheEndOfInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "mcp", "--backend", "mock")
	cmd.Env = noDesktopEnv(t)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_session_state","arguments":{}}}`,
	}, "\n") + "\n")
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("the driver did not exit within %v after its input ended", hangGuard)
	}
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	ids := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var msg struct {
			ID float64 `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line %q: %v", line, err)
		}
		ids[msg.ID] = true
	}
	for _, id := range []float64{1, 2, 3} {
		if !ids[id] {
			t.Errorf("no answer to request %v; stdout:\n%s", id, out)
		}
	}
}

// The result bytes the driver writes itself on stdio (the lean path) are
// the SDK's for every protocol a client may speak: the newest adds fields
// around every result (_meta before, resultType after) that must stay, and
// the result must never reach the client as the stand-in it travels as
// inside the SDK.
func TestStdioResultsAreWholeInEveryProtocol(t *testing.T) {
	for _, protocol := range []string{"2025-03-26", mcpline.LegacyProtocol, ""} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			cs, _ := connectAs(t, protocol, noDesktopEnv(t), "--backend", "mock")
			mcpkit.Call(t, cs, "start_session", map[string]any{"apps": []any{"Form Demo"}})
			for tool, args := range map[string]map[string]any{
				"list_windows":     nil,
				"get_window_state": {"app": "Form Demo"},
				"find_elements":    {"app": "Form Demo", "role": "push_button"},
			} {
				res := mcpkit.Call(t, cs, tool, args)
				raw := mcpkit.Structured(t, res)
				if res.IsError || len(raw) == 0 || raw[0] != '{' {
					t.Fatalf("%s: structuredContent %.200s", tool, raw)
				}
				if err := schema.ValidateOutput(tool, raw); err != nil {
					t.Errorf("%s: %v", tool, err)
				}
			}
		})
	}
}
