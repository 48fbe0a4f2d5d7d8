package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// TestTheUserUnitKnowsTheAlreadyRunningStatus: the systemd user unit does
// not restart a daemon that exited because another one serves the socket,
// so the status it names is the one the daemon exits with.
func TestTheUserUnitKnowsTheAlreadyRunningStatus(t *testing.T) {
	unit, err := os.ReadFile(filepath.Join(testkit.RepoDir(t), "packaging", "nish-driver.service"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("RestartPreventExitStatus=%d", exitAlreadyRunning)
	if !slices.Contains(strings.Split(string(unit), "\n"), want) {
		t.Fatalf("packaging/nish-driver.service has no line %q", want)
	}
}

// runningDaemon is `nish-driver daemon` started by a test.
type runningDaemon struct {
	cmd    *exec.Cmd
	socket string
	stderr *testkit.SyncBuffer
	exited chan struct{}
}

// socketDir is a private directory with a short path (Unix socket paths
// are limited to 107 bytes).
func socketDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "ndc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func startDaemonProcess(t *testing.T, env []string, socket string) *runningDaemon {
	t.Helper()
	cmd := exec.Command(binary, "daemon", "--backend", "mock", "--socket", socket)
	cmd.Env = env
	rd := &runningDaemon{cmd: cmd, socket: socket, stderr: &testkit.SyncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = rd.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(rd.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-rd.exited
	})
	started := testkit.Poll(20*time.Second, func() bool {
		select {
		case <-rd.exited:
			t.Fatalf("the daemon exited at start:\n%s", rd.stderr.String())
		default:
		}
		return strings.Contains(rd.stderr.String(), "daemon listening")
	})
	if !started {
		t.Fatalf("the daemon did not start:\n%s", rd.stderr.String())
	}
	return rd
}

// terminate sends SIGTERM and returns the exit code.
func (rd *runningDaemon) terminate(t *testing.T) int {
	t.Helper()
	if err := rd.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rd.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not stop on SIGTERM")
	}
	return rd.cmd.ProcessState.ExitCode()
}

// socketCall sends one hello-mode request after hello and returns its result.
func socketCall(t *testing.T, socket, method string) json.RawMessage {
	t.Helper()
	c, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "%s\n%s\n", `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"`+method+`"}`)
	r := bufio.NewReader(c)
	var reply struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	for reply.ID != 2 {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if err := json.Unmarshal(line, &reply); err != nil {
			t.Fatal(err)
		}
		if reply.Error != nil {
			t.Fatalf("%s: %s", method, reply.Error)
		}
	}
	return reply.Result
}

func TestDaemonServesHostsThroughMCPConnect(t *testing.T) {
	env := noDesktopEnv(t)
	socket := filepath.Join(socketDir(t), "run", "sock")
	rd := startDaemonProcess(t, env, socket)

	// A second daemon on the same socket refuses to start.
	_, errOut, exit := run(t, env, "daemon", "--backend", "mock", "--socket", socket)
	if exit != int(exitAlreadyRunning) || !strings.Contains(errOut, "already running") {
		t.Errorf("a second daemon: exit %d, stderr %q; want exit %d and a refusal saying already running", exit, errOut, exitAlreadyRunning)
	}

	// metadata is what `nish-driver manifest` prints; doctor is `doctor --json`.
	for method, args := range map[string][]string{
		"metadata": {"manifest", "--backend", "mock"},
		"doctor":   {"doctor", "--json", "--backend", "mock"},
	} {
		printed, errOut, exit := run(t, env, args...)
		if exit != 0 {
			t.Fatalf("%v: exit %d: %s", args, exit, errOut)
		}
		if !sameJSON(t, socketCall(t, socket, method), []byte(printed)) {
			t.Errorf("%s differs from %v:\n%s\n%s", method, args, socketCall(t, socket, method), printed)
		}
	}

	// A host starts `nish-driver mcp --connect` as if it were the driver.
	bridge := exec.Command(binary, "mcp", "--connect", "--socket", socket)
	bridge.Env = env
	bridgeErr := &testkit.SyncBuffer{}
	bridge.Stderr = bridgeErr
	cs := mcpkit.Connect(t, "bridge-test", &mcp.CommandTransport{Command: bridge}, mcpline.LegacyProtocol, func() string {
		return "bridge stderr:\n" + bridgeErr.String() + "\ndaemon stderr:\n" + rd.stderr.String()
	})
	if meta := cs.InitializeResult().Meta; meta["contract_version"] != engine.ContractVersion {
		t.Errorf("initialize _meta = %v", meta)
	}
	mcpkit.ListsEveryTool(t, cs)
	start := mcpkit.Call(t, cs, "start_session", map[string]any{"apps": []string{"Form Demo"}, "purpose": argMarker})
	if start.IsError {
		t.Fatalf("start_session: %v", start.Content)
	}
	if read := mcpkit.Call(t, cs, "get_window_state", map[string]any{"app": "Form Demo"}); read.IsError {
		t.Fatalf("get_window_state: %v", read.Content)
	}

	// The daemon knows the session by the bridge's pid: the socket's peer.
	var list struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(socketCall(t, socket, "sessions.list"), &list); err != nil {
		t.Fatal(err)
	}
	wantID := engine.SessionID("bridge-test", bridge.Process.Pid)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != wantID {
		t.Errorf("sessions.list = %+v, want %s", list.Sessions, wantID)
	}
	var killed struct {
		Ended []string `json:"ended"`
	}
	if err := json.Unmarshal(socketCall(t, socket, "kill"), &killed); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(killed.Ended, []string{wantID}) {
		t.Errorf("kill ended %v, want [%s]", killed.Ended, wantID)
	}
	if code := mcpkit.Failure(t, "call", mcpkit.Call(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})).Code; code != "session_revoked" {
		t.Errorf("after kill: %s, want session_revoked", code)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("closing the bridge: %v\n%s", err, bridgeErr.String())
	}
	if code := bridge.ProcessState.ExitCode(); code != 0 {
		t.Errorf("the bridge exited %d:\n%s", code, bridgeErr.String())
	}

	if code := rd.terminate(t); code != 0 {
		t.Errorf("the daemon exited %d on SIGTERM:\n%s", code, rd.stderr.String())
	}
	if _, err := os.Lstat(socket); !os.IsNotExist(err) {
		t.Errorf("the socket outlived the daemon: %v", err)
	}
	logs := rd.stderr.String() + bridgeErr.String()
	for _, bad := range []string{argMarker, `"jsonrpc"`, "Form Demo"} {
		if strings.Contains(logs, bad) {
			t.Errorf("diagnostics contain %q:\n%s", bad, logs)
		}
	}
	// The lock is free again: a new daemon starts on the same socket.
	startDaemonProcess(t, env, socket).terminate(t)
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

func TestMCPConnectWithoutADaemon(t *testing.T) {
	dir := socketDir(t)
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	out, errOut, exit := run(t, noDesktopEnv(t), "mcp", "--connect", "--socket", filepath.Join(dir, "sock"))
	if exit == 0 || !strings.Contains(errOut, "no daemon answers") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want a failure naming the missing daemon", exit, out, errOut)
	}
}

func TestMCPConnectRefusesASocketInAnotherUsersReach(t *testing.T) {
	dir := socketDir(t)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, errOut, exit := run(t, noDesktopEnv(t), "mcp", "--connect", "--socket", filepath.Join(dir, "sock"))
	if exit == 0 || !strings.Contains(errOut, "must be 0700") {
		t.Errorf("exit %d, stderr %q; want a refusal of the open directory", exit, errOut)
	}
}

func TestDaemonRefusesABadKillSwitch(t *testing.T) {
	socket := filepath.Join(socketDir(t), "sock")
	_, errOut, exit := run(t, noDesktopEnv(t), "daemon", "--backend", "mock", "--socket", socket, "--kill-switch", "ctrl+nosuchmodifier+")
	if exit == 0 || !strings.Contains(errOut, "--kill-switch") {
		t.Errorf("exit %d, stderr %q; want a refusal naming --kill-switch", exit, errOut)
	}
	if _, err := os.Lstat(socket); !os.IsNotExist(err) {
		t.Errorf("the refused daemon left its socket behind: %v", err)
	}
}

func TestDaemonRefusesARelativeSocket(t *testing.T) {
	_, errOut, exit := run(t, noDesktopEnv(t), "daemon", "--backend", "mock", "--socket", "run/sock")
	if exit == 0 || !strings.Contains(errOut, "absolute") {
		t.Errorf("exit %d, stderr %q; want a refusal asking for an absolute path", exit, errOut)
	}
}
