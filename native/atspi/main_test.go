package atspi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/naivewalk"
	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
)

// The package's integration tests share one private desktop (Xvfb, a
// session bus and the AT-SPI bus), started here.
var (
	desk   *sandbox.Desktop
	client *Client
)

// python is the interpreter the fixtures need (the reference scripts'
// own).
const python = pyref.Python

func TestMain(m *testing.M) {
	for _, need := range []string{python, "/usr/bin/gtk3-widget-factory", "/usr/bin/gnome-calculator"} {
		if _, err := os.Stat(need); err != nil {
			fmt.Fprintf(os.Stderr, "native/atspi tests need %s (see native/atspi/DEPS.txt): %v\n", need, err)
			os.Exit(1)
		}
	}
	os.Exit(sandbox.RunTests("native/atspi", func(d *sandbox.Desktop) int {
		desk = d
		return runMain(m)
	}))
}

// runMain connects the package's client and libatspi to the desktop's
// accessibility bus and runs the tests.
func runMain(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	vars := desk.Vars()
	client = New(Options{Getenv: func(k string) string { return vars[k] }})
	defer client.Close()
	// libatspi (the naive reference walk) connects through this process's
	// environment: aim it at the desktop's accessibility bus.
	addr, err := client.busAddress(ctx)
	if err != nil {
		fmt.Fprintf(os.Stderr, "native/atspi tests: no accessibility bus: %v\n", err)
		return 1
	}
	os.Setenv("AT_SPI_BUS_ADDRESS", addr)
	defer stopShared()
	return m.Run()
}

// fixture is an app started on the test desktop.
type fixture struct {
	cmd   *exec.Cmd
	pid   int
	title string
	frame Frame
}

// stop kills the app and waits until it is gone.
func (f *fixture) stop() {
	_ = syscall.Kill(-f.cmd.Process.Pid, syscall.SIGKILL)
	testkit.Poll(30*time.Second, func() bool { return syscall.Kill(f.pid, 0) != nil })
}

// startSynthetic starts testdata/synthetic.py with rows rows and waits for
// its window on the bus. It outlives the test: keep or stop it.
func startSynthetic(t testing.TB, rows int) *fixture {
	t.Helper()
	script, err := filepath.Abs("testdata/synthetic.py")
	if err != nil {
		t.Fatal(err)
	}
	cmd := desk.Command(python, script, strconv.Itoa(rows))
	out, err := desktop.Start(desk, cmd)
	if err != nil {
		t.Fatalf("starting the synthetic fixture: %v", err)
	}
	if err := out.Wait(desktop.ReadyBound, func(l string) bool { return l == "ready" }); err != nil {
		t.Fatalf("the synthetic fixture did not print ready: %v", err)
	}
	out.Drain()
	f := &fixture{cmd: cmd, pid: cmd.Process.Pid, title: fmt.Sprintf("Synthetic %d rows", rows)}
	f.frame = waitFrame(t, client, f.pid, f.title)
	return f
}

// startApp starts an installed app and waits for a window of it.
func startApp(t testing.TB, titlePrefix string, name string, args ...string) *fixture {
	t.Helper()
	cmd := desk.Command(name, args...)
	if _, err := desktop.Start(desk, cmd); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	f := &fixture{cmd: cmd, pid: cmd.Process.Pid}
	f.frame = waitFrame(t, client, f.pid, titlePrefix)
	f.title = f.frame.Name
	return f
}

// waitFrame waits until the app with this pid shows a window whose title
// starts with prefix, as c sees the bus.
func waitFrame(t testing.TB, c *Client, pid int, prefix string) Frame {
	t.Helper()
	return testkit.Await(t, desktop.ReadyBound, fmt.Sprintf("a window %q of pid %d on the accessibility bus", prefix, pid), func() (Frame, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		frames, _, err := c.AllFrames(ctx)
		if err != nil {
			return Frame{}, err
		}
		for _, f := range frames {
			if f.Pid == pid && strings.HasPrefix(f.Name, prefix) {
				return f, nil
			}
		}
		return Frame{}, errNoFrameYet
	})
}

// errNoFrameYet is waitFrame's answer while the window has not appeared.
var errNoFrameYet = errors.New("no such window yet")

// The shared 200-row fixture, started on first use and stopped after the
// tests.
var (
	sharedOnce sync.Once
	shared     *fixture
	sharedMu   sync.Mutex
	sharedAll  []*fixture
)

func synthetic200(t testing.TB) *fixture {
	t.Helper()
	sharedOnce.Do(func() { shared = startSynthetic(t, 200); keep(shared) })
	if shared == nil {
		t.Fatal("the shared fixture did not start")
	}
	return shared
}

// keep registers a fixture to stop when the tests end.
func keep(f *fixture) {
	sharedMu.Lock()
	sharedAll = append(sharedAll, f)
	sharedMu.Unlock()
}

func stopShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	for _, f := range sharedAll {
		f.stop()
	}
}

// pyWalk runs the pyatspi live walk of a window (testdata/walk.py), within
// a minute, and returns its elements.
func pyWalk(t testing.TB, pid int, prefix string) []naivewalk.Element {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	elems, err := pyref.Walk(ctx, desk.Env(), walkScript(t), pid, prefix)
	if err != nil {
		t.Fatalf("the pyatspi walk: %v", err)
	}
	return elems
}

// walkScript is testdata/walk.py's path.
func walkScript(t testing.TB) string {
	t.Helper()
	script, err := filepath.Abs("testdata/walk.py")
	if err != nil {
		t.Fatal(err)
	}
	return script
}

// callCtx is a hang guard for one call that must succeed. It is not the
// engine's bound: the engine bounds a call by how long its app stays
// silent (wire.go), never by its total time, and a whole read of a
// thousand-element window on a loaded machine takes longer than 2 s
// without any app falling silent. Tests of the bound itself make their
// own contexts.
func callCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
