package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/daemon"
	"github.com/nish-driver/nish-driver/internal/mcpserver/wire"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// echoMarker is put into junk lines; no reply may repeat it.
const echoMarker = "ECHOMARK-7d2a"

// wantErr is one error reply a junk line must get: its code and its id
// (raw JSON).
type wantErr struct {
	code int64
	id   string
}

// junkCase is one line a hostile or clumsy client might send, and the
// replies it must get (an empty list: none at all).
type junkCase struct {
	name string
	line []byte
	want []wantErr
}

func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// junkCorpus is every kind of junk line known to end an unguarded server,
// and the SDK-level faults whose replies would use code 0 or repeat the
// input.
// maxFrame is the server's line bound.
func junkCorpus(maxFrame int) []junkCase {
	parse := []wantErr{{-32700, "null"}}
	invalid := []wantErr{{-32600, "null"}}
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	return []junkCase{
		{"not JSON", []byte("hello " + echoMarker), parse},
		{"half an object", []byte(`{"jsonrpc":"2.0","id":1,"method":`), parse},
		{"bare number", []byte("42"), invalid},
		{"bare string", []byte(`"` + echoMarker + `"`), invalid},
		{"bare null", []byte("null"), invalid},
		{"bare true", []byte("true"), invalid},
		{"id is an object", []byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`), invalid},
		{"id is an array", []byte(`{"jsonrpc":"2.0","id":[1],"method":"ping"}`), invalid},
		{"id is a bool", []byte(`{"jsonrpc":"2.0","id":true,"method":"ping"}`), invalid},
		{"id is null", []byte(`{"jsonrpc":"2.0","id":null,"method":"ping"}`), invalid},
		{"byte-order mark", append([]byte("\xef\xbb\xbf"), ping...), parse},
		{"trailing text", []byte(ping + " " + echoMarker), parse},
		{"two objects on a line", []byte(ping + ping), parse},
		{"not UTF-8", []byte(`{"jsonrpc":"2.0","id":8,"method":"` + "\xff\xfe" + `"}`), parse},
		{"nesting over 1,000 levels in an unknown argument", []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_session_state","arguments":{"x":` + nested(1001) + `}}}`), invalid},
		{"nesting over 1,000 levels at the top", []byte(nested(1001)), invalid},
		{"nesting over 100,000 levels", []byte(nested(100000)), invalid},
		{"a line over the size bound", []byte(`{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":"` + strings.Repeat("a", maxFrame) + `"}}`), invalid},
		{"wrong jsonrpc version", []byte(`{"jsonrpc":"1.0","id":11,"method":"ping"}`), []wantErr{{-32600, "11"}}},
		{"no jsonrpc member", []byte(`{"id":12,"method":"ping"}`), []wantErr{{-32600, "12"}}},
		{"no method", []byte(`{"jsonrpc":"2.0","id":13}`), []wantErr{{-32600, "13"}}},
		{"method is a number", []byte(`{"jsonrpc":"2.0","id":14,"method":5}`), []wantErr{{-32600, "14"}}},
		{"params is a number", []byte(`{"jsonrpc":"2.0","id":15,"method":"ping","params":5}`), []wantErr{{-32600, "15"}}},
		{"notification without method", []byte(`{"jsonrpc":"2.0","params":{}}`), invalid},
		{"empty batch", []byte(`[]`), invalid},
		{"batch of junk", []byte(`[1,2]`), []wantErr{{-32600, "null"}, {-32600, "null"}}},
		{"batch of a call and junk", []byte(`[{"jsonrpc":"2.0","id":16,"method":"ping"},{"jsonrpc":"2.0","id":true,"method":"ping"}]`), []wantErr{{-32600, "null"}}},
		{"unknown method", []byte(`{"jsonrpc":"2.0","id":17,"method":"` + echoMarker + `"}`), []wantErr{{-32601, "17"}}},
		{"unknown tool", []byte(`{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"` + echoMarker + `","arguments":{}}}`), []wantErr{{-32602, "18"}}},
		{"tool name is a number", []byte(`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":5}}`), []wantErr{{-32602, "19"}}},
		{"tools/call params is an array", []byte(`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":["` + echoMarker + `"]}`), []wantErr{{-32602, "20"}}},
		{"cancellation of nothing", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"` + echoMarker + `"}}`), nil},
		{"unknown notification", []byte(`{"jsonrpc":"2.0","method":"notifications/` + echoMarker + `"}`), nil},
	}
}

// goTypeWords are fragments of Go's own error texts that must never reach
// a client.
var goTypeWords = []string{"Go struct", "Go value", "json:", "float64", "int64", "map[", "[]", "*mcp.", "jsonrpc2", "unmarshal"}

// checkJunkSurvives sends each junk line, then get_session_state, and
// checks each line's replies and that the session started before the junk
// is still the same one.
func checkJunkSurvives(t *testing.T, c *rawClient, maxFrame int) {
	c.initialize()
	var started struct {
		Session string `json:"session"`
	}
	if err := json.Unmarshal(c.tool(`"start"`, "start_session", `{"apps":["Form Demo"],"purpose":"junk test"}`), &started); err != nil || started.Session == "" {
		t.Fatalf("start_session gave no session: %v", err)
	}
	for i, tc := range junkCorpus(maxFrame) {
		c.send(tc.line)
		// Errors the transport writes itself (id null) come before it
		// reads the next line; the SDK answers calls concurrently, so an
		// error of its own (an unknown method) may come after the reply
		// to a later call: wait for each such id before going on.
		var before []reply
		for _, w := range tc.want {
			if w.id != "null" {
				r, earlier := c.await(w.id)
				before = append(append(before, earlier...), r)
			}
		}
		if isBatch(tc.line) {
			// A batch's replies come as one line once every call in it
			// is answered, which may be after the reply to a later call.
			before = append(before, c.awaitBatch()...)
		}
		id := fmt.Sprintf(`"after-%d"`, i)
		c.send([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"get_session_state","arguments":{}}}`))
		after, rest := c.await(id)
		before = append(before, rest...)
		var got []wantErr
		for _, r := range before {
			if r.Error == nil {
				if !slices.Contains([]string{"16"}, string(r.ID)) {
					t.Errorf("%s: a result nobody asked for: %.300s", tc.name, r.line)
				}
				continue
			}
			got = append(got, wantErr{r.Error.Code, string(r.ID)})
			for _, bad := range append([]string{echoMarker}, goTypeWords...) {
				if strings.Contains(r.Error.Message, bad) || bytes.Contains(r.Error.Data, []byte(bad)) {
					t.Errorf("%s: the error repeats %q: %.300s", tc.name, bad, r.line)
				}
			}
		}
		slices.SortFunc(got, func(a, b wantErr) int { return strings.Compare(a.id, b.id) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: errors %v, want %v (lines: %s)", tc.name, got, tc.want, describe(before))
		}
		var state struct {
			Session string `json:"session"`
			Active  bool   `json:"active"`
		}
		var res struct {
			IsError    bool            `json:"isError"`
			Structured json.RawMessage `json:"structuredContent"`
		}
		if after.Error != nil || json.Unmarshal(after.Result, &res) != nil || res.IsError ||
			json.Unmarshal(res.Structured, &state) != nil || state.Session != started.Session || !state.Active {
			t.Fatalf("%s: the session did not survive: get_session_state gave %.300s", tc.name, after.line)
		}
	}
}

// A junk line on stdio gets its JSON-RPC error, and the server and the
// person's session go on.
func TestJunkLinesOverStdioKeepTheSession(t *testing.T) {
	c, done := startRawMCP(t, "--backend", "mock")
	checkJunkSurvives(t, c, wire.DefaultMaxFrame)
	done()
}

// The same junk on a daemon's MCP connection.
func TestJunkLinesOnTheDaemonKeepTheSession(t *testing.T) {
	c := dialRawDaemon(t)
	checkJunkSurvives(t, c, daemon.MaxFrame)
}

// startRawMCP starts `nish-driver mcp args...` with a raw client on its
// stdio; done closes stdin and waits for a clean exit.
func startRawMCP(t *testing.T, args ...string) (*rawClient, func() []reply) {
	t.Helper()
	return startRawMCPEnv(t, noDesktopEnv(t), args...)
}

// startRawMCPEnv is startRawMCP with the given environment.
func startRawMCPEnv(t *testing.T, env []string, args ...string) (*rawClient, func() []reply) {
	t.Helper()
	cmd, stdin, stdout, stderr := startMCPPipes(t, env, args...)
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	c := newRawClient(t, stdin, stdout)
	return c, func() []reply {
		t.Helper()
		stdin.Close()
		rest := c.rest()
		<-exited
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("mcp exited with %d:\n%s", code, stderr.String())
		}
		return rest
	}
}

// startMCPPipes starts `nish-driver mcp args...` with env, its stdin and
// stdout as pipes and its stderr kept.
func startMCPPipes(t *testing.T, env []string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, *testkit.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Env = env
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, stdout, stderr
}

// dialRawDaemon starts a daemon on the mock and opens a raw connection.
func dialRawDaemon(t *testing.T) *rawClient {
	t.Helper()
	socket := filepath.Join(socketDir(t), "sock")
	startDaemonProcess(t, noDesktopEnv(t), socket)
	conn, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return newRawClient(t, conn, conn)
}

var _ io.Writer = (*net.UnixConn)(nil)

// isBatch tells whether a junk line is a batch of messages, which the
// server answers with one batch line once its calls are answered.
func isBatch(line []byte) bool {
	return bytes.HasPrefix(bytes.TrimSpace(line), []byte("[{"))
}
