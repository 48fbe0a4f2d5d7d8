package testkit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The sockets' peer checks are tested by a client running as another user:
// the test binary copied where that user can run it, re-executed under its
// uid, dialing the socket and saying what came back (HelloOutcome).

// ShortDir is a private (0700) directory with a short path under /tmp
// (socket paths are limited to 107 bytes; t.TempDir's can be longer),
// removed when the test ends.
func ShortDir(t testing.TB, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", prefix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// CopyTestBinary puts the running test binary where another user can run
// it (the go tool's build directory is private) and returns its path.
func CopyTestBinary(t testing.TB) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := ShortDir(t, "ntb")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "client")
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// HelloOutcome dials the Unix socket at path, sends the sockets' hello
// (JSON-RPC, protocol 1) and says what came back: "reply" when it was
// answered, "closed" when the connection was closed instead, else what
// happened ("dial-failed: ...", "other: ...").
func HelloOutcome(path string) string {
	c, err := net.Dial("unix", path)
	if err != nil {
		return "dial-failed: " + err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintln(c, `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}`)
	line, err := bufio.NewReader(c).ReadString('\n')
	switch {
	case err == nil && strings.Contains(line, `"result"`):
		return "reply"
	case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || (err != nil && strings.Contains(err.Error(), "connection reset")):
		return "closed"
	default:
		return fmt.Sprintf("other: %s %v", line, err)
	}
}

// HelperClientMain is the TestMain of a package whose tests run
// HelloAsThisUserAndNobody: re-executed with helperEnv naming a socket, the
// test binary is the helper client (it prints HelloOutcome and exits);
// otherwise it runs the tests.
func HelperClientMain(m *testing.M, helperEnv string) {
	if path := os.Getenv(helperEnv); path != "" {
		fmt.Println(HelloOutcome(path))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// HelloAsThisUserAndNobody opens the socket at path, and its folder and
// the folder above, to every user (only for this test: so the socket's own
// peer check is what refuses a stranger), then runs the test binary's
// helper client (a TestMain that prints HelloOutcome of the socket named
// by helperEnv) as this user and as nobody (uid 65534). This user must be
// answered ("reply": a helper that cannot connect at all is noticed) and
// nobody's connection closed unanswered ("closed"). It needs root.
func HelloAsThisUserAndNobody(t *testing.T, path, helperEnv string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("this test runs a client as another user and needs root (CI runs the tests as root)")
	}
	for _, p := range []string{filepath.Dir(filepath.Dir(path)), filepath.Dir(path)} {
		if err := os.Chmod(p, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	helper := CopyTestBinary(t)
	cases := []struct {
		name string
		cred *syscall.Credential // nil: this user
		want string
	}{
		{"this user", nil, "reply"},
		{"nobody", &syscall.Credential{Uid: 65534, Gid: 65534, Groups: []uint32{}}, "closed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(helper, "-test.run=^$")
			cmd.Env = append(os.Environ(), helperEnv+"="+path)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: tc.cred}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("the client as %s saw %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}
