package stopsock

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/daemon"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// helperEnv names the stop socket a re-executed test binary says hello to
// as another user (TestAnotherUsersConnectionIsClosed).
const helperEnv = "NISH_STOPSOCK_TEST_CLIENT"

func TestMain(m *testing.M) { testkit.HelperClientMain(m, helperEnv) }

// stopDir is a fresh stop folder (not yet made: Listen makes it).
func stopDir(t *testing.T) string {
	return filepath.Join(testkit.ShortDir(t, "nss"), "stop")
}

// answerBound is the bound StopAll gives drivers that are expected to
// answer: long enough for a loaded machine, since a live driver that
// answers ends the wait at once.
const answerBound = 5 * time.Second

// fakeDriver is a listener whose kill switch ends the given sessions once
// and counts its pulls.
type fakeDriver struct {
	l     *Listener
	pulls atomic.Int32
}

func listenFake(t *testing.T, dir string, pid int, sessions ...string) *fakeDriver {
	t.Helper()
	f := &fakeDriver{}
	l, err := listenAs(dir, pid, func() []string {
		if f.pulls.Add(1) > 1 {
			return nil
		}
		return sessions
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	f.l = l
	return f
}

// gonePid is the pid of a process that has exited and been reaped.
func gonePid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// leaveStaleSocket binds a socket under name in dir and closes it without
// removing it: what a driver killed with SIGKILL leaves behind.
func leaveStaleSocket(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	return path
}

func TestStopEndsEveryDriverOnce(t *testing.T) {
	dir := stopDir(t)
	a := listenFake(t, dir, 1_000_001, "mcp:claude:10", "mcp:claude:11")
	b := listenFake(t, dir, os.Getpid())

	rep, err := StopAll(context.Background(), dir, answerBound)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Stopped) != 2 || len(rep.Unanswered) != 0 || rep.Sessions() != 2 {
		t.Fatalf("report = %+v, want two drivers stopped and two sessions ended", rep)
	}
	var ended []string
	for _, s := range rep.Stopped {
		// The pid is the kernel's (both fakes are this process), not the name's.
		if s.Pid != os.Getpid() {
			t.Errorf("stopped pid %d, want the listener's own %d", s.Pid, os.Getpid())
		}
		ended = append(ended, s.Ended...)
	}
	slices.Sort(ended)
	if !slices.Equal(ended, []string{"mcp:claude:10", "mcp:claude:11"}) {
		t.Errorf("ended %v", ended)
	}
	if a.pulls.Load() != 1 || b.pulls.Load() != 1 {
		t.Errorf("kill switch pulled %d and %d times, want once each", a.pulls.Load(), b.pulls.Load())
	}
}

func TestStopWithNoDriver(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T) string
	}{
		{"no folder", func(t *testing.T) string { return stopDir(t) }},
		{"an empty folder", func(t *testing.T) string {
			dir := stopDir(t)
			if err := daemon.EnsurePrivateDir(dir); err != nil {
				t.Fatal(err)
			}
			return dir
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := StopAll(context.Background(), tc.make(t), time.Second)
			if err != nil || len(rep.Stopped)+len(rep.Unanswered)+rep.Cleaned != 0 {
				t.Errorf("StopAll = %+v, %v; want an empty report", rep, err)
			}
		})
	}
}

func TestStopRefusesAFolderThatIsNotPrivate(t *testing.T) {
	dir := stopDir(t)
	listenFake(t, dir, 1_000_002, "s")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := StopAll(context.Background(), dir, time.Second); err == nil || !strings.Contains(err.Error(), "0700") {
		t.Errorf("StopAll in a 0755 folder: %v, want a refusal naming the mode", err)
	}
}

func TestADriverThatDoesNotAnswerIsReportedWithinTheBound(t *testing.T) {
	dir := stopDir(t)
	listenFake(t, dir, 1_000_003, "s")
	// A driver that accepts and never answers: hung.
	ln, err := net.Listen("unix", filepath.Join(dir, sockName(1_000_004)))
	if err != nil {
		t.Fatal(err)
	}
	testkit.SilentServer(t, ln)

	// One bound covers both drivers, so it is answerBound: the answering
	// one must meet it on a loaded machine. The hung one is given up on at
	// it; the elapsed check is only a hang guard.
	const bound = answerBound
	start := time.Now()
	rep, err := StopAll(context.Background(), dir, bound)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("StopAll took %v with a bound of %v", took, bound)
	if took > bound+30*time.Second {
		t.Errorf("StopAll took %v with a bound of %v: hung", took, bound)
	}
	if len(rep.Stopped) != 1 || rep.Sessions() != 1 {
		t.Errorf("stopped %+v, want the answering driver", rep.Stopped)
	}
	if len(rep.Unanswered) != 1 || rep.Unanswered[0].Pid != 1_000_004 || !strings.Contains(rep.Unanswered[0].Err.Error(), "did not answer within") {
		t.Errorf("unanswered %+v, want pid 1000004 that did not answer within the bound", rep.Unanswered)
	}
}

func TestTheSocketsOfGoneDriversAreCleaned(t *testing.T) {
	t.Run("by stop", func(t *testing.T) {
		dir := stopDir(t)
		live := listenFake(t, dir, 1_000_005, "s")
		stale := leaveStaleSocket(t, dir, sockName(gonePid(t)))
		// A socket that refuses is stale whatever pid its name says.
		refusing := leaveStaleSocket(t, dir, sockName(os.Getpid()+1_000_000))
		tmp := leaveStaleSocket(t, dir, tempName(gonePid(t)))
		notSocket := filepath.Join(dir, "123.sock.txt")
		os.WriteFile(notSocket, nil, 0o600)

		rep, err := StopAll(context.Background(), dir, answerBound)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Cleaned != 3 || len(rep.Stopped) != 1 || len(rep.Unanswered) != 0 {
			t.Errorf("report = %+v, want 3 cleaned and 1 stopped", rep)
		}
		for _, p := range []string{stale, refusing, tmp} {
			if _, err := os.Lstat(p); !os.IsNotExist(err) {
				t.Errorf("%s is still there", filepath.Base(p))
			}
		}
		for _, p := range []string{live.l.Path, notSocket} {
			if _, err := os.Lstat(p); err != nil {
				t.Errorf("%s was removed: %v", filepath.Base(p), err)
			}
		}
	})
	t.Run("by a driver starting", func(t *testing.T) {
		dir := stopDir(t)
		if err := daemon.EnsurePrivateDir(dir); err != nil {
			t.Fatal(err)
		}
		stale := leaveStaleSocket(t, dir, sockName(gonePid(t)))
		listenFake(t, dir, 1_000_006)
		if _, err := os.Lstat(stale); !os.IsNotExist(err) {
			t.Errorf("the gone driver's socket is still there after a driver started")
		}
	})
}

func TestListenerSocketIsPrivateAndRemovedOnClose(t *testing.T) {
	dir := stopDir(t)
	l, err := Listen(dir, func() []string { return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, sockName(os.Getpid())); l.Path != want {
		t.Errorf("path %s, want %s", l.Path, want)
	}
	for path, mode := range map[string]os.FileMode{dir: 0o700, l.Path: 0o600} {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v %v, want mode %04o", path, fi.Mode(), err, mode)
		}
	}
	l.Close()
	if _, err := os.Lstat(l.Path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there after Close")
	}
	l.Close() // twice is fine
}

// exchange sends lines to a listener and returns its replies by id.
func exchange(t *testing.T, path string, lines ...string) []reply {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	for _, l := range lines {
		fmt.Fprintln(c, l)
	}
	c.(*net.UnixConn).CloseWrite()
	var out []reply
	sc := bufio.NewScanner(c)
	for sc.Scan() {
		var r reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("not JSON-RPC: %s", sc.Bytes())
		}
		out = append(out, r)
	}
	return out
}

func TestTheStopSocketsProtocol(t *testing.T) {
	const hello = `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}`
	cases := []struct {
		name  string
		lines []string
		codes []int // per reply: 0 for a result, else the error code
		pulls int32
	}{
		{"hello then kill", []string{hello, `{"jsonrpc":"2.0","id":2,"method":"kill"}`}, []int{0, 0}, 1},
		{"kill with empty params", []string{hello, `{"jsonrpc":"2.0","id":2,"method":"kill","params":{}}`}, []int{0, 0}, 1},
		{"kill before hello", []string{`{"jsonrpc":"2.0","id":2,"method":"kill"}`}, []int{daemon.CodeHandshake}, 0},
		{"another protocol", []string{`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":2}}`}, []int{daemon.CodeHandshake}, 0},
		{"hello without protocol", []string{`{"jsonrpc":"2.0","id":1,"method":"hello"}`}, []int{daemon.CodeInvalidParams}, 0},
		// The daemon's rules (daemon.Hello), which the stop socket did not
		// follow: an unknown member is refused, and a protocol too large
		// for an int is another protocol, not a malformed hello.
		{"hello with an unknown member", []string{`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1,"all":true}}`}, []int{daemon.CodeInvalidParams}, 0},
		{"a protocol too large for an int", []string{`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":99999999999999999999}}`}, []int{daemon.CodeHandshake}, 0},
		{"hello with null params", []string{`{"jsonrpc":"2.0","id":1,"method":"hello","params":null}`}, []int{daemon.CodeInvalidParams}, 0},
		{"an id that is an object", []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"hello","params":{"protocol":1}}`}, []int{daemon.CodeInvalidRequest}, 0},
		{"kill with params", []string{hello, `{"jsonrpc":"2.0","id":2,"method":"kill","params":{"all":true}}`}, []int{0, daemon.CodeInvalidParams}, 0},
		{"an unknown method", []string{hello, `{"jsonrpc":"2.0","id":2,"method":"initialize"}`}, []int{0, daemon.CodeMethodNotFound}, 0},
		{"not JSON", []string{`{kill`}, []int{daemon.CodeParseError}, 0},
		{"a batch", []string{`[` + hello + `]`}, []int{daemon.CodeInvalidRequest}, 0},
		{"a kill notification runs without a reply", []string{hello, `{"jsonrpc":"2.0","method":"kill"}`}, []int{0}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := listenFake(t, stopDir(t), 1_000_007, "s")
			got := exchange(t, f.l.Path, tc.lines...)
			var codes []int
			for _, r := range got {
				code := 0
				if r.Error != nil {
					code = r.Error.Code
				}
				codes = append(codes, code)
			}
			if !slices.Equal(codes, tc.codes) {
				t.Errorf("reply codes %v, want %v", codes, tc.codes)
			}
			if f.pulls.Load() != tc.pulls {
				t.Errorf("kill switch pulled %d times, want %d", f.pulls.Load(), tc.pulls)
			}
		})
	}
}

func TestAnOversizedLineClosesTheConnection(t *testing.T) {
	f := listenFake(t, stopDir(t), 1_000_008, "s")
	got := exchange(t, f.l.Path, strings.Repeat("x", MaxFrame+1), `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}`)
	if len(got) != 0 {
		t.Errorf("replies %+v after an oversized line, want none", got)
	}
}

// TestAnotherUsersConnectionIsClosed says hello from a process running as
// nobody: the stop socket closes the connection without an answer. The
// same client as this user is answered, so a helper that cannot connect at
// all would be noticed.
func TestAnotherUsersConnectionIsClosed(t *testing.T) {
	f := listenFake(t, stopDir(t), 1_000_009, "s")
	testkit.HelloAsThisUserAndNobody(t, f.l.Path, helperEnv)
	if f.pulls.Load() != 0 {
		t.Errorf("hello alone pulled the kill switch")
	}
}

func TestSocketNames(t *testing.T) {
	cases := []struct {
		name string
		pid  int
		ok   bool
	}{
		{"4242.sock", 4242, true},
		{sockName(7), 7, true},
		{"0.sock", 0, false},
		{".sock", 0, false},
		{"-1.sock", 0, false},
		{"42.sock.tmp", 0, false},
		{"x42.sock", 0, false},
		{"sock", 0, false},
	}
	for _, tc := range cases {
		pid, ok := pidOf(tc.name)
		if pid != tc.pid && tc.ok || ok != tc.ok {
			t.Errorf("pidOf(%q) = %d, %v; want %d, %v", tc.name, pid, ok, tc.pid, tc.ok)
		}
	}
	if pid, ok := tempPidOf(tempName(99)); !ok || pid != 99 {
		t.Errorf("tempPidOf(%q) = %d, %v", tempName(99), pid, ok)
	}
}

func TestDirFollowsTheRuntimeDir(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/1000")
	if dir, err := Dir(); err != nil || dir != "/run/user/1000/nish-driver/stop" {
		t.Errorf("Dir() = %q, %v", dir, err)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CACHE_HOME", "/home/p/.cache")
	if dir, err := Dir(); err != nil || dir != "/home/p/.cache/nish-driver/run/stop" {
		t.Errorf("Dir() without XDG_RUNTIME_DIR = %q, %v", dir, err)
	}
}
