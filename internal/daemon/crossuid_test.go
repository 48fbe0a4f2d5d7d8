package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestAnotherUsersConnectionIsClosed connects from a process running as
// nobody (uid 65534): the daemon must close the connection without an
// answer. The same client running as this user is answered, so the test
// would notice a helper that cannot connect at all.
func TestAnotherUsersConnectionIsClosed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("this test runs a client as another user and needs root (CI runs the tests as root)")
	}
	td := startDaemon(t, daemonOpts{})
	// Only in this test: let another user reach the socket at all, so the
	// daemon's own peer check is what refuses it.
	for _, p := range []string{filepath.Dir(filepath.Dir(td.path)), filepath.Dir(td.path)} {
		if err := os.Chmod(p, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(td.path, 0o666); err != nil {
		t.Fatal(err)
	}
	helper := testkit.CopyTestBinary(t)

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
			cmd.Env = append(os.Environ(), helperEnv+"="+td.path)
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

