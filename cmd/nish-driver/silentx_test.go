package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// silentXServer listens where X display :n would and accepts connections
// without ever answering them, so a client waiting for the X handshake
// would hang. It returns the display name.
func silentXServer(t *testing.T) string {
	t.Helper()
	dir := "/tmp/.X11-unix"
	if err := os.MkdirAll(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	var ln net.Listener
	var n int
	for n = 900; n < 1000 && ln == nil; n++ {
		path := filepath.Join(dir, fmt.Sprintf("X%d", n))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		l, err := net.Listen("unix", path)
		if err == nil {
			ln = l
			break
		}
	}
	if ln == nil {
		t.Fatal("no free display number from :900 to :999 for the silent X server")
	}
	testkit.SilentServer(t, ln)
	return fmt.Sprintf(":%d", n)
}

// hangGuard bounds how long a test waits for a command that must not hang,
// so a hang fails the test instead of stalling the suite.
const hangGuard = 60 * time.Second

// With an X server that accepts the connection and never answers, the
// doctor still reports, and calls the display unreachable.
func TestDoctorReportsASilentXServerAsUnreachable(t *testing.T) {
	t.Parallel() // it waits out the connect bound; so does the next one
	display := silentXServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "doctor", "--json")
	cmd.Env = append(noDesktopEnv(t), "DISPLAY="+display)
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("doctor --json did not finish within %v with a silent X server", hangGuard)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	report := doctorJSON(t, string(out))
	if report.Ready {
		t.Error("ready with a silent X server")
	}
	x11 := ""
	for _, b := range report.Backends {
		if b.ID == "x11" && b.ReasonCode != nil {
			x11 = *b.ReasonCode
		}
	}
	if x11 != "display_unreachable" {
		t.Errorf("x11 reason %q, want display_unreachable:\n%s", x11, out)
	}
}

// With the same server, the MCP server starts, answers initialize, and
// answers every desktop call with the envelope (backend_unavailable).
func TestMCPStartsWithASilentXServer(t *testing.T) {
	t.Parallel()
	display := silentXServer(t)
	c, done := startRawMCPEnv(t, append(noDesktopEnv(t), "DISPLAY="+display), "--backend", "linux")
	c.guard = hangGuard
	c.initialize()
	c.send([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}`))
	r, _ := c.await("1")
	var res struct {
		IsError    bool `json:"isError"`
		Structured struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		} `json:"structuredContent"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || !res.IsError || res.Structured.Error.Code != "backend_unavailable" {
		t.Errorf("list_windows: %s, want the backend_unavailable envelope", r.line)
	}
	done()
}
