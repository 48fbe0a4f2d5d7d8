//go:build cgo

package screencasttest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native/mutter"
	"github.com/nish-driver/nish-driver/native/pipewire"
)

// desk is the headless GNOME Wayland desktop the package's tests share;
// a test that breaks its desktop (stops PipeWire) starts its own.
var desk *sandbox.Desktop

// screen is the virtual monitor's size.
const screen = "1280x800x24"

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	desk, err = startDesktop(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "the screen-cast tests need the Wayland sandbox (mutter, xwayland, pipewire, wireplumber): %v\n", err)
		return 1
	}
	defer desk.Close()
	return m.Run()
}

func startDesktop(ctx context.Context) (*sandbox.Desktop, error) {
	return sandbox.Start(ctx, sandbox.Options{Wayland: true, Screen: screen})
}

// getenv reads a desktop's variables, never the test process's: the
// capture must reach the sandbox's session bus and PipeWire.
func getenv(d *sandbox.Desktop) func(string) string {
	vars := d.Vars()
	return func(k string) string { return vars[k] }
}

// captured is what one capture of a window gives.
type captured struct {
	frame  *pipewire.Frame
	stream mutter.Stream
}

// capture records the target on a desktop and takes one frame of it, as
// the backend will: mutter's session, then PipeWire's stream.
func capture(ctx context.Context, d *sandbox.Desktop, target mutter.Target) (captured, error) {
	client, err := mutter.Dial(ctx, mutter.Options{Getenv: getenv(d)})
	if err != nil {
		return captured{}, err
	}
	defer client.Close()
	return captureWith(ctx, client, d, target)
}

func captureWith(ctx context.Context, client *mutter.Client, d *sandbox.Desktop, target mutter.Target) (captured, error) {
	var got captured
	err := client.Capture(ctx, target, func(ctx context.Context, s mutter.Stream) error {
		got.stream = s
		f, err := pipewire.CaptureFrame(ctx, s.NodeID, pipewire.Options{Getenv: getenv(d)})
		got.frame = f
		return err
	})
	return got, err
}

// colourWindow is a started fixture window.
type colourWindow struct {
	cmd    *exec.Cmd
	d      *sandbox.Desktop
	title  string
	out    *testkit.SyncBuffer
	width  int
	height int
}

// startColourWindow opens an undecorated GTK 3 Wayland window of one
// colour and waits until it has drawn. Mutter focuses a new window as it
// maps it. The app itself never hears of that focus here: GTK 3 on Wayland
// is active only while it has the keyboard's focus, and the headless
// compositor has no keyboard, so its AT-SPI frame is never `active`.
func startColourWindow(t testing.TB, d *sandbox.Desktop, title, colour string, width, height int) colourWindow {
	t.Helper()
	script := filepath.Join("testdata", "colour_window.py")
	cmd := d.Command("/usr/bin/python3", script, title, colour, fmt.Sprint(width), fmt.Sprint(height))
	out := &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := d.Start(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if d.Running(cmd) {
			_, _ = d.Stop(cmd, 2*time.Second)
		}
	})
	if !testkit.Poll(20*time.Second, func() bool { return strings.Contains(out.String(), "ready") }) {
		t.Fatalf("%s did not say it has drawn; it said:\n%s", title, out.String())
	}
	return colourWindow{cmd: cmd, d: d, title: title, out: out, width: width, height: height}
}

// stop closes the window's app and waits until it has exited.
func (w colourWindow) stop(t testing.TB) {
	t.Helper()
	if _, err := w.d.Stop(w.cmd, 5*time.Second); err != nil {
		t.Fatalf("closing %s: %v", w.title, err)
	}
}
