package daemon

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

func mustListen(t *testing.T, path string) *Endpoint {
	t.Helper()
	ep, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen(%s): %v", path, err)
	}
	t.Cleanup(func() { ep.Close() })
	return ep
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

func accepts(path string) bool {
	c, err := net.Dial("unix", path)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func TestListenCreatesAPrivateDirectoryAndSocket(t *testing.T) {
	path := filepath.Join(testkit.ShortDir(t, "ndd"), "a", "b", "sock")
	mustListen(t, path)
	if m := mode(t, filepath.Dir(path)); !m.IsDir() || m.Perm() != 0o700 {
		t.Errorf("socket directory mode %v, want a 0700 directory", m)
	}
	if m := mode(t, path); m&fs.ModeSocket == 0 || m.Perm() != 0o600 {
		t.Errorf("socket mode %v, want a 0600 socket", m)
	}
	if m := mode(t, path+".lock"); !m.IsRegular() || m.Perm() != 0o600 {
		t.Errorf("lock mode %v, want a 0600 file", m)
	}
	if !accepts(path) {
		t.Error("the new socket does not accept connections")
	}
}

func TestListenRefusesAnUnsafeDirectory(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, base string) string // returns the socket directory
		want  string
	}{
		{"group and other can enter", func(t *testing.T, base string) string {
			dir := filepath.Join(base, "open")
			mkdir(t, dir, 0o755)
			return dir
		}, "mode 0755"},
		{"group can enter", func(t *testing.T, base string) string {
			dir := filepath.Join(base, "group")
			mkdir(t, dir, 0o750)
			return dir
		}, "mode 0750"},
		{"a symlink to a private directory", func(t *testing.T, base string) string {
			real := filepath.Join(base, "real")
			mkdir(t, real, 0o700)
			link := filepath.Join(base, "link")
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			return link
		}, "symlink"},
		{"owned by another user", func(t *testing.T, base string) string {
			dir := filepath.Join(base, "theirs")
			mkdir(t, dir, 0o700)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatalf("chown needs root (CI runs the tests as root): %v", err)
			}
			return dir
		}, "belongs to uid 65534"},
		{"a file, not a directory", func(t *testing.T, base string) string {
			f := filepath.Join(base, "file")
			if err := os.WriteFile(f, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return f
		}, "not a directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.setup(t, testkit.ShortDir(t, "ndd"))
			path := filepath.Join(dir, "sock")
			_, err := Listen(path)
			if err == nil {
				t.Fatal("Listen accepted the directory")
			}
			if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want ErrUnsafePath saying %q", err, tc.want)
			}
			if _, err := os.Lstat(path); err == nil {
				t.Error("a socket was made in the refused directory")
			}
		})
	}
}

func mkdir(t *testing.T, dir string, perm fs.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
}

func TestListenRefusesBadPaths(t *testing.T) {
	long := "/tmp/" + strings.Repeat("x", MaxSocketPath) + "/sock"
	for _, path := range []string{"relative/sock", "/tmp/a/../sock", long} {
		if _, err := Listen(path); err == nil {
			t.Errorf("Listen(%q) succeeded", path)
		}
	}
}

// TestListenRefusesATakenPath: beside a live socket, whether another
// program's that answers without holding the lock or a running daemon's,
// Listen is ErrAlreadyRunning and leaves that socket alone.
func TestListenRefusesATakenPath(t *testing.T) {
	for _, tc := range []struct {
		name string
		take func(t *testing.T, path string)
	}{
		{"a live socket", func(t *testing.T, path string) {
			ln, err := net.Listen("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
		}},
		{"another daemon holding the lock", func(t *testing.T, path string) { mustListen(t, path) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(testkit.ShortDir(t, "ndd"), "sock")
			tc.take(t, path)
			if _, err := Listen(path); !errors.Is(err, ErrAlreadyRunning) {
				t.Fatalf("error %v, want ErrAlreadyRunning", err)
			}
			if !accepts(path) {
				t.Error("the socket already there was disturbed")
			}
		})
	}
}

func TestListenReplacesAStaleSocket(t *testing.T) {
	path := filepath.Join(testkit.ShortDir(t, "ndd"), "sock")
	// A socket left behind by a daemon that died: the file stays, nobody listens.
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if accepts(path) {
		t.Fatal("setup: the stale socket still accepts")
	}
	mustListen(t, path)
	if !accepts(path) {
		t.Error("the replacement socket does not accept connections")
	}
	if m := mode(t, path); m.Perm() != 0o600 {
		t.Errorf("replacement socket mode %v, want 0600", m)
	}
}

func TestListenNeverReplacesAnythingButASocket(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"regular file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"directory", func(t *testing.T, path string) { mkdir(t, path, 0o700) }},
		{"symlink to a stale socket", func(t *testing.T, path string) {
			target := path + "-target"
			ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: target, Net: "unix"})
			if err != nil {
				t.Fatal(err)
			}
			ln.SetUnlinkOnClose(false)
			ln.Close()
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(testkit.ShortDir(t, "ndd"), "sock")
			tc.setup(t, path)
			before := mode(t, path)
			_, err := Listen(path)
			if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "not a socket") {
				t.Fatalf("error %v, want a refusal saying not a socket", err)
			}
			if after := mode(t, path); after != before {
				t.Errorf("the path changed from %v to %v", before, after)
			}
		})
	}
}

func TestTwoDaemonsStartingAtOnceOneWins(t *testing.T) {
	for round := 0; round < 20; round++ {
		path := filepath.Join(testkit.ShortDir(t, "ndd"), "sock")
		const starters = 4
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			eps   = make([]*Endpoint, starters)
			errs  = make([]error, starters)
		)
		for i := range starters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				eps[i], errs[i] = Listen(path)
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for i := range starters {
			switch {
			case errs[i] == nil:
				won++
				defer eps[i].Close()
			case !errors.Is(errs[i], ErrAlreadyRunning):
				t.Errorf("round %d: a loser failed with %v, want ErrAlreadyRunning", round, errs[i])
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d daemons started, want exactly 1", round, won)
		}
		if !accepts(path) {
			t.Fatalf("round %d: the winner's socket does not accept", round)
		}
	}
}

func TestCloseRemovesTheSocketAndReleasesTheLock(t *testing.T) {
	path := filepath.Join(testkit.ShortDir(t, "ndd"), "sock")
	ep, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ep.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the socket is still there after Close")
	}
	mustListen(t, path) // the lock is free again
}

func TestCloseLeavesASocketItDidNotMake(t *testing.T) {
	path := filepath.Join(testkit.ShortDir(t, "ndd"), "sock")
	ep, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	// Someone removes the daemon's socket and puts their own there.
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ep.Close()
	if !accepts(path) {
		t.Error("Close removed a socket it did not make")
	}
}

func TestDefaultPath(t *testing.T) {
	cases := []struct {
		name       string
		runtimeDir string
		want       string
	}{
		{"runtime dir", "/run/user/1000", "/run/user/1000/nish-driver/sock"},
		{"no runtime dir: the user cache dir", "", "/home/u/.cache-test/nish-driver/run/sock"},
		{"a relative runtime dir is ignored", "run/user", "/home/u/.cache-test/nish-driver/run/sock"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_RUNTIME_DIR", tc.runtimeDir)
			t.Setenv("XDG_CACHE_HOME", "/home/u/.cache-test")
			got, err := DefaultPath()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("DefaultPath() = %q, want %q", got, tc.want)
			}
		})
	}
}
