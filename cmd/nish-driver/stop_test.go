package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// stopEnv is noDesktopEnv with a runtime folder of the test's own, so that
// `nish-driver stop` reaches only the drivers this test starts.
func stopEnv(t *testing.T) (env []string, stopDir string) {
	t.Helper()
	runtime := socketDir(t)
	return append(noDesktopEnv(t), "XDG_RUNTIME_DIR="+runtime), filepath.Join(runtime, "nish-driver", "stop")
}

// envValue is the value of name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if s, ok := strings.CutPrefix(kv, name+"="); ok {
			v = s
		}
	}
	return v
}

// awaitStopSockets waits until n drivers listen in dir.
func awaitStopSockets(t *testing.T, dir string, n int) {
	t.Helper()
	testkit.Eventually(t, 20*time.Second, "the drivers' stop sockets", func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
		return len(m) == n
	})
}

// startedSession is an MCP client with a session on the mock's Form Demo.
func startedSession(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	if res := mcpkit.Call(t, cs, "start_session", map[string]any{"apps": []string{"Form Demo"}, "purpose": argMarker}); res.IsError {
		t.Fatalf("start_session: %s", mcpkit.Structured(t, res))
	}
}

func TestStopEndsTheSessionsOfEveryDriver(t *testing.T) {
	env, stopDir := stopEnv(t)
	runtime := envValue(env, "XDG_RUNTIME_DIR")

	// A host's driver over stdio, with a wait in flight.
	stdioAudit := filepath.Join(t.TempDir(), "audit.jsonl")
	host, _ := connect(t, env, "--backend", "mock", "--audit-log", stdioAudit)
	startedSession(t, host)
	waited := make(chan *mcp.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := host.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for", Arguments: map[string]any{
			"app": "Form Demo", "condition": map[string]any{"kind": "title", "text": "never shown"}, "timeout_ms": 30000}})
		if err != nil {
			res = nil
		}
		waited <- res
	}()

	// The daemon, with a host on its socket.
	rd := startDaemonProcess(t, env, filepath.Join(runtime, "nish-driver", "sock"))
	bridge := exec.Command(binary, "mcp", "--connect", "--socket", rd.socket)
	bridge.Env = env
	onDaemon := mcpkit.Connect(t, "stop-test", &mcp.CommandTransport{Command: bridge}, mcpline.LegacyProtocol, rd.stderr.String)
	startedSession(t, onDaemon)

	awaitStopSockets(t, stopDir, 2)
	start := time.Now()
	out, errOut, exit := run(t, env, "stop")
	if exit != 0 {
		t.Fatalf("stop: exit %d\n%s%s", exit, out, errOut)
	}
	if !strings.HasPrefix(out, "Stopped 2 drivers: 2 sessions ended.\n") {
		t.Errorf("stop printed %q, want the count of drivers and sessions", out)
	}

	// The wait in flight answers the kill switch at once, and so does
	// every next call, on both drivers.
	select {
	case res := <-waited:
		if res == nil {
			t.Fatal("the wait in flight failed at the transport")
		}
		if code := mcpkit.Failure(t, "the wait in flight", res).Code; code != "session_revoked" {
			t.Errorf("the wait in flight answered %s, want session_revoked", code)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("the wait in flight answered %v after stop began", took)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the wait in flight did not answer after stop")
	}
	for name, cs := range map[string]*mcp.ClientSession{"stdio": host, "daemon": onDaemon} {
		res := mcpkit.Call(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})
		if code := mcpkit.Failure(t, name, res).Code; code != "session_revoked" {
			t.Errorf("%s: the next call answered %s, want session_revoked", name, code)
		}
	}

	// Both audit logs have the end, as the key writes it.
	daemonAudit := filepath.Join(envValue(env, "XDG_STATE_HOME"), "nish-driver", "audit.jsonl")
	for _, path := range []string{stdioAudit, daemonAudit} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log := string(b)
		if !strings.Contains(log, `"event":"kill_switch"`) || !strings.Contains(log, `"reason":"kill_switch"`) {
			t.Errorf("%s lacks the kill switch and the session's end by it:\n%s", path, log)
		}
	}

	// The drivers still serve; a second stop finds them with nothing left.
	if out, _, exit := run(t, env, "stop"); exit != 0 || !strings.HasPrefix(out, "Stopped 2 drivers: 0 sessions ended.\n") {
		t.Errorf("a second stop: exit %d, %q", exit, out)
	}
	host.Close()
	onDaemon.Close()
	if code := rd.terminate(t); code != 0 {
		t.Errorf("the daemon exited %d", code)
	}
	awaitStopSockets(t, stopDir, 0)
}

func TestStopReportsAHungDriverAndCleansAGoneOne(t *testing.T) {
	env, stopDir := stopEnv(t)
	host, _ := connect(t, env, "--backend", "mock")
	startedSession(t, host)
	awaitStopSockets(t, stopDir, 1)

	// A driver that accepts and never answers.
	hung, err := net.Listen("unix", filepath.Join(stopDir, "999999991.sock"))
	if err != nil {
		t.Fatal(err)
	}
	testkit.SilentServer(t, hung)
	// The socket of a driver killed with SIGKILL: its pid is gone.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(stopDir, strconv.Itoa(gone.Process.Pid)+".sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()

	// One bound covers every driver: the live mock driver, a separate
	// process, must answer within it on a loaded machine, so it is 5s; the
	// hung one is given up on at it. The elapsed check is only a hang guard.
	start := time.Now()
	out, errOut, exit := run(t, env, "stop", "--timeout", "5s")
	took := time.Since(start)
	t.Logf("stop took %v with a hung driver and a bound of 5s", took)
	if took > 30*time.Second {
		t.Errorf("stop took %v with a hung driver and a bound of 5s: hung", took)
	}
	if exit != 1 {
		t.Errorf("stop with a hung driver: exit %d, want 1", exit)
	}
	if !strings.Contains(out, "Stopped 1 driver: 1 session ended.") || !strings.Contains(out, "Removed 1 socket left by drivers that are gone.") {
		t.Errorf("stop printed %q", out)
	}
	if !strings.Contains(errOut, "pid 999999991 did not answer within 5s") {
		t.Errorf("stop's stderr %q does not name the hung driver", errOut)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("the gone driver's socket is still there")
	}
	res := mcpkit.Call(t, host, "get_window_state", map[string]any{"app": "Form Demo"})
	if code := mcpkit.Failure(t, "after stop", res).Code; code != "session_revoked" {
		t.Errorf("after stop: %s, want session_revoked", code)
	}
}

func TestStopWhenNoDriverRuns(t *testing.T) {
	env, _ := stopEnv(t)
	out, errOut, exit := run(t, env, "stop")
	if exit != 0 || out != "No nish-driver is running: nothing to stop.\n" || errOut != "" {
		t.Errorf("stop with no driver: exit %d, stdout %q, stderr %q", exit, out, errOut)
	}
}
