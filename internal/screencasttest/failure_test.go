//go:build cgo

package screencasttest

import (
	"bytes"
	"context"
	"errors"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/native/mutter"
	"github.com/nish-driver/nish-driver/native/pipewire"
)

// A failing capture in these tests ends within the packages' own bounds,
// set short here. The tests check the named error and log the time; the
// check on the time is only a hang guard, those bounds plus hangMargin,
// never what a loaded machine takes.

// frameTimeout is the frame's bound the tests set (pipewire.Options.Timeout)
// and callTimeout mutter's bound on each of its calls (mutter.Options.Timeout).
const (
	frameTimeout = 2 * time.Second
	callTimeout  = 2 * time.Second
	hangMargin   = 10 * time.Second
)

// A node id that PipeWire does not know ends in a named error within the
// frame's bound (the time is logged; the hang guard is that bound plus
// hangMargin): the session manager removes a stream whose target is
// missing (the stream asks never to be moved to another node), or nothing
// comes.
func TestFrameOfAMissingNodeEndsInTime(t *testing.T) {
	start := time.Now()
	_, err := pipewire.CaptureFrame(context.Background(), 987654, pipewire.Options{Getenv: getenv(desk), Timeout: frameTimeout})
	took := time.Since(start)
	if !errors.Is(err, pipewire.ErrNoFrame) && !errors.Is(err, pipewire.ErrStream) {
		t.Fatalf("a capture of a node that does not exist: %v, want ErrNoFrame or ErrStream", err)
	}
	t.Logf("%v after %v", err, took.Round(time.Millisecond))
	if guard := frameTimeout + hangMargin; took > guard {
		t.Errorf("it took %v, over the hang guard %v", took, guard)
	}
}

// On a desktop whose PipeWire has stopped, mutter cannot start the cast:
// the capture fails with a named error within its bounds (mutter's call
// bound and the frame's pipewire.DefaultTimeout; the time is logged, and
// the hang guard is those plus hangMargin). The desktop is the test's
// own, since it is broken on purpose.
func TestCaptureWithoutPipeWireFailsInTime(t *testing.T) {
	d, err := startDesktop(context.Background())
	if err != nil {
		t.Fatalf("a Wayland sandbox of the test's own: %v", err)
	}
	defer d.Close()
	w := startColourWindow(t, d, "No PipeWire", "808080", 200, 150)
	// The window has the focus before PipeWire stops (mutter gives it a
	// moment after the window maps): what fails below is PipeWire alone.
	if !testkit.Poll(10*time.Second, func() bool {
		got, err := capture(context.Background(), d, mutter.FocusedWindow())
		return err == nil && got.frame.Image.Rect.Size() == image.Pt(w.width, w.height)
	}) {
		t.Fatal("the window never had the focus")
	}
	stopPipeWire(t, d)
	client, err := mutter.Dial(context.Background(), mutter.Options{Getenv: getenv(d), Timeout: callTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	start := time.Now()
	_, err = captureWith(context.Background(), client, d, mutter.FocusedWindow())
	took := time.Since(start)
	t.Logf("%v after %v", err, took.Round(time.Millisecond))
	if !errors.Is(err, mutter.ErrNoStream) && !errors.Is(err, mutter.ErrRefused) && !errors.Is(err, pipewire.ErrNoPipeWire) {
		t.Fatalf("a capture without PipeWire: %v, want a named error", err)
	}
	if guard := callTimeout + pipewire.DefaultTimeout + hangMargin; took > guard {
		t.Errorf("it took %v, over the hang guard %v", took, guard)
	}
}

// stopPipeWire ends the desktop's PipeWire (and its session manager),
// which the sandbox started for this test: found by the private folder in
// its environment, stopped by its pid.
func stopPipeWire(t *testing.T, d *sandbox.Desktop) {
	t.Helper()
	mark := []byte("XDG_RUNTIME_DIR=" + d.Vars()["XDG_RUNTIME_DIR"] + "\x00")
	entries, _ := os.ReadDir("/proc")
	stopped := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		name := string(bytes.TrimSpace(comm))
		if name != "pipewire" && name != "wireplumber" {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if !bytes.Contains(env, mark) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err == nil {
			stopped++
		}
	}
	if stopped == 0 {
		t.Fatal("found no PipeWire of this desktop to stop")
	}
	sock := filepath.Join(d.Vars()["XDG_RUNTIME_DIR"], "pipewire-0")
	_ = os.Remove(sock)
}

// The probe finds mutter's API on the Wayland desktop, and says why not
// elsewhere: no mutter on an X11 desktop's bus, no bus at an address
// where none listens.
func TestProbeSaysWhetherTheAPIIsThere(t *testing.T) {
	ctx := context.Background()
	a := mutter.Probe(ctx, mutter.Options{Getenv: getenv(desk)})
	if !a.Available || a.Version < 2 || a.Reason != nil {
		t.Errorf("on the Wayland desktop: %+v, want available with version 2 or more", a)
	}
	t.Logf("mutter's screen-cast API version %d", a.Version)

	x11, err := sandbox.Start(ctx, sandbox.Options{})
	if err != nil {
		t.Fatalf("an X11 sandbox: %v", err)
	}
	defer x11.Close()
	if a := mutter.Probe(ctx, mutter.Options{Getenv: getenv(x11)}); a.Available || !errors.Is(a.Reason, mutter.ErrUnavailable) {
		t.Errorf("on an X11 desktop's bus: %+v, want ErrUnavailable", a)
	}
	nowhere := "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
	if a := mutter.Probe(ctx, mutter.Options{BusAddress: nowhere}); a.Available || !errors.Is(a.Reason, mutter.ErrNoBus) {
		t.Errorf("at an address where no bus listens: %+v, want ErrNoBus", a)
	}
	if a := mutter.Probe(ctx, mutter.Options{Getenv: func(string) string { return "" }}); !errors.Is(a.Reason, mutter.ErrNoBus) {
		t.Errorf("with no address at all: %+v, want ErrNoBus", a)
	}
}

// A capture on a bus without mutter fails with ErrUnavailable.
func TestCaptureWithoutMutterIsUnavailable(t *testing.T) {
	x11, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatalf("an X11 sandbox: %v", err)
	}
	defer x11.Close()
	_, err = capture(context.Background(), x11, mutter.FocusedWindow())
	if !errors.Is(err, mutter.ErrUnavailable) {
		t.Fatalf("a capture on a bus without mutter: %v, want ErrUnavailable", err)
	}
}
