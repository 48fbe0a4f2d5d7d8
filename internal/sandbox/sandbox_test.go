package sandbox

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// startDesk starts a private desktop for one test; it is closed when the
// test ends.
func startDesk(t *testing.T) *Desktop {
	t.Helper()
	d, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatalf("the sandbox needs Xvfb, dbus and at-spi2-core (make test installs them): %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// startCapturing starts cmd on the desktop with its output kept, to show
// when a test fails.
func startCapturing(t *testing.T, d *Desktop, cmd *exec.Cmd) *testkit.SyncBuffer {
	t.Helper()
	out := &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := d.Start(cmd); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDesktopComesUpAndGoesAway(t *testing.T) {
	d, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatalf("the sandbox needs Xvfb, dbus and at-spi2-core (make test installs them): %v", err)
	}
	vars := d.Vars()
	for _, k := range []string{"DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"} {
		if vars[k] == "" {
			t.Fatalf("%s is not set", k)
		}
	}
	// The accessibility bus answers with its address.
	cmd := d.Command("gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
		"--method", "org.a11y.Bus.GetAddress")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "unix:") {
		t.Fatalf("org.a11y.Bus.GetAddress: %v %s", err, out)
	}
	for _, kv := range d.Env() {
		if strings.HasPrefix(kv, "NO_AT_BRIDGE=") {
			t.Fatal("NO_AT_BRIDGE must be unset for apps to join the bus")
		}
	}
	num := strings.TrimPrefix(d.Display, ":")
	xvfb := d.procs[0].cmd.Process.Pid // the first process a desktop starts
	root := d.Root
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "Xvfb let go of its display after Close", func() bool {
		return !holdsDisplay(xvfb, num)
	})
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatal("the private directory outlived Close")
	}
}

// holdsDisplay reports whether the X server pid still holds display num:
// it has not exited, or a socket it left behind is there with nobody
// listening on it. Xvfb -displayfd takes the lowest number whose socket it
// can make (and writes no lock file), so once a desktop closes, another
// desktop starting at that moment (a parallel test binary) may take the
// same number at once: a socket that answers is that server's.
func holdsDisplay(pid int, num string) bool {
	if syscall.Kill(pid, 0) == nil {
		return true // running, or not yet reaped
	}
	c, err := net.DialTimeout("unix", "/tmp/.X11-unix/X"+num, time.Second)
	if err == nil {
		c.Close()
		return false // another server's
	}
	_, statErr := os.Stat("/tmp/.X11-unix/X" + num)
	return !os.IsNotExist(statErr)
}

func TestAnAppJoinsTheAccessibilityBus(t *testing.T) {
	d := startDesk(t)
	app := d.Command("zenity", "--info", "--text", "hello")
	if err := d.Start(app); err != nil {
		t.Fatalf("zenity (Debian: zenity) must be installed: %v", err)
	}
	got, err := d.WaitForApp(context.Background(), "zenity", 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pid != app.Process.Pid {
		t.Fatalf("registered pid %d, started %d", got.Pid, app.Process.Pid)
	}
}

// TestCloseKillsProgramsThatLeftTheirGroup starts a program that leaves
// its process group and its parent (as Chromium's crash handler does) and
// checks Close ends it too.
func TestCloseKillsProgramsThatLeftTheirGroup(t *testing.T) {
	d, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := d.Command("sh", "-c", `setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >"$0"`, pidFile)
	if err := d.Start(cmd); err != nil {
		d.Close()
		t.Fatal(err)
	}
	<-d.Done(cmd)
	b, err := os.ReadFile(pidFile)
	pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || perr != nil {
		d.Close()
		t.Fatalf("the straggler's pid: %v %v", err, perr)
	}
	if syscall.Kill(pid, 0) != nil {
		d.Close()
		t.Fatal("the straggler is not running before Close")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	ended := func() bool { return syscall.Kill(pid, 0) != nil || testkit.ProcState(pid) == "Z" }
	if !testkit.Poll(10*time.Second, ended) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("a program that left its group outlived Close")
	}
}

// unstartedDesktop is a desktop that was never started: its private
// folder (a test folder) and environment, for the tests of commands
// prepared and files written without running anything.
func unstartedDesktop(t *testing.T) *Desktop {
	t.Helper()
	d := &Desktop{Root: t.TempDir()}
	d.vars = desktopVars(d.Root)
	return d
}
