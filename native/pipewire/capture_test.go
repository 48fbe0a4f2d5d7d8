//go:build cgo

package pipewire

import (
	"context"
	"errors"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// These tests need no PipeWire: they check the bounds around the C loop.
// They check the outcome (the error) and a lower bound where the capture
// must wait; the time taken is logged, and its upper bound is only a hang
// guard (the code's own bound plus 10 s), never what a loaded machine
// takes. The frames themselves are checked against mutter on the Wayland sandbox
// (internal/screencasttest).

// A runtime folder without PipeWire's socket is ErrNoPipeWire at once
// (before the capture's DefaultTimeout, which the hang guard adds 10 s to).
func TestNoSocketIsNoPipeWire(t *testing.T) {
	empty := t.TempDir()
	start := time.Now()
	_, err := CaptureFrame(context.Background(), 1, Options{
		Getenv: func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": empty}[k] },
	})
	if !errors.Is(err, ErrNoPipeWire) {
		t.Fatalf("a capture with no PipeWire socket: %v, want ErrNoPipeWire", err)
	}
	took := time.Since(start)
	t.Logf("ErrNoPipeWire in %v", took)
	if guard := DefaultTimeout + 10*time.Second; took > guard {
		t.Errorf("it took %v, over the hang guard %v", took, guard)
	}
}

// silentServer is a socket that accepts connections and never answers,
// like a PipeWire that has hung: the capture must still end.
func silentServer(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipewire-0")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	testkit.SilentServer(t, l)
	return path
}

// A PipeWire that never sends a frame ends the capture with ErrNoFrame at
// the timeout: not before it, and (a hang guard) within it plus 10 s.
func TestSilentPipeWireIsNoFrameAtTheTimeout(t *testing.T) {
	sock := silentServer(t)
	const timeout = 400 * time.Millisecond
	start := time.Now()
	_, err := CaptureFrame(context.Background(), 42, Options{Socket: sock, Timeout: timeout})
	took := time.Since(start)
	if !errors.Is(err, ErrNoFrame) {
		t.Fatalf("a capture from a silent PipeWire: %v, want ErrNoFrame", err)
	}
	t.Logf("ErrNoFrame in %v with a timeout of %v", took, timeout)
	if took < timeout {
		t.Errorf("it took %v, before the %v timeout", took, timeout)
	}
	if guard := timeout + 10*time.Second; took > guard {
		t.Errorf("it took %v, over the hang guard %v", took, guard)
	}
}

// The context ends a capture that waits for its frame, with the
// context's error (a capture that ran to its minute's timeout would end
// with ErrNoFrame); the time is logged, and its bound, the cancel plus
// 10 s, is only a hang guard.
func TestContextEndsTheWait(t *testing.T) {
	sock := silentServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	const cancelAt = 200 * time.Millisecond
	time.AfterFunc(cancelAt, cancel)
	start := time.Now()
	_, err := CaptureFrame(ctx, 42, Options{Socket: sock, Timeout: time.Minute})
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a capture whose context is cancelled: %v, want context.Canceled", err)
	}
	t.Logf("context.Canceled in %v after a cancel at %v", took, cancelAt)
	if guard := cancelAt + 10*time.Second; took > guard {
		t.Errorf("it took %v after a cancel at %v, over the hang guard %v", took, cancelAt, guard)
	}
}

// The socket is the one the options name, from the environment given.
func TestSocketPathFollowsTheEnvironmentGiven(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Socket: "/x/s"}, "/x/s"},
		{Options{Getenv: env(map[string]string{"XDG_RUNTIME_DIR": "/run/u"})}, "/run/u/pipewire-0"},
		{Options{Getenv: env(map[string]string{"XDG_RUNTIME_DIR": "/run/u", "PIPEWIRE_RUNTIME_DIR": "/pw"})}, "/pw/pipewire-0"},
		{Options{Getenv: env(map[string]string{"XDG_RUNTIME_DIR": "/run/u", "PIPEWIRE_REMOTE": "other"})}, "/run/u/other"},
		{Options{Getenv: env(map[string]string{"PIPEWIRE_REMOTE": "/abs/sock"})}, "/abs/sock"},
	} {
		if got := c.opts.SocketPath(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.opts, got, c.want)
		}
	}
}
