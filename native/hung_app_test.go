package native_test

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// One app stopped on the desktop must not slow the calls on another. On
// X11 the window list comes from the X server; on Wayland from the
// accessibility bus, where the stopped app is one of the apps asked. The
// rule (native/atspi/silent.go): an app that misses a listing's bound is
// asked nothing more by later listings but one probe at a time, and keeps
// its windows and their ids until it answers or leaves the bus. So while
// it is stopped the driver sends it at most maxCallsIntoStopped calls,
// however many calls are made on the other app.

// maxCallsIntoStopped: the listing call that found the app silent, and
// the one probe in flight.
const maxCallsIntoStopped = 2

func TestHealthyAppBesideAStoppedOne(t *testing.T) {
	onDesktop(t)
	healthyBesideStopped(t)
}

func TestWaylandHealthyAppBesideAStoppedOne(t *testing.T) {
	onWaylandDesktop(t)
	healthyBesideStopped(t)
}

// healthyBesideStopped starts the form and a second app, stops the
// second, calls on the form and counts the calls that reach the stopped
// app; then lets it go on (its window keeps its id), and kills it while
// stopped (its window is gone at the next call).
func healthyBesideStopped(t *testing.T) {
	form := startSynthetic(t, 6).cmd.Process.Pid
	other := startSynthetic(t, 3).cmd.Process.Pid
	h := newHarness(t, consentWait)
	grant(t, h, form, other)
	h.ok("get_window_state", map[string]any{"pid": other})
	read := h.ok("get_window_state", map[string]any{"pid": form})
	ids := windowIDs(t, h)
	bus := busNameOf(t, other)

	_ = syscall.Kill(other, syscall.SIGSTOP)
	t.Cleanup(func() { _ = syscall.Kill(other, syscall.SIGCONT) })
	count, stop := native.CallsInto(h.b, bus)
	defer stop()
	calls := []struct {
		tool string
		args func() map[string]any
	}{
		{"get_window_state", func() map[string]any { return map[string]any{"pid": form} }},
		{"click", func() map[string]any {
			return map[string]any{"element_token": testkit.Token(t, read, "push_button", "Click me")}
		}},
		{"list_windows", func() map[string]any { return nil }},
	}
	for _, c := range calls {
		var took []time.Duration
		for range 5 {
			args := c.args()
			start := time.Now()
			h.ok(c.tool, args)
			took = append(took, time.Since(start))
			if c.tool == "click" {
				read = h.ok("get_window_state", map[string]any{"pid": form})
			}
		}
		slices.Sort(took)
		t.Logf("%s on the healthy app beside a stopped one: median %v (min %v, max %v)", c.tool,
			took[len(took)/2].Round(100*time.Microsecond), took[0].Round(100*time.Microsecond), took[len(took)-1].Round(100*time.Microsecond))
	}
	if n := count(); n > maxCallsIntoStopped {
		t.Fatalf("15 calls on the healthy app sent the stopped app %d calls, want at most %d", n, maxCallsIntoStopped)
	} else {
		t.Logf("calls into the stopped app: %d", n)
	}
	if got := windowIDs(t, h); got[form] != ids[form] || got[other] != ids[other] {
		t.Fatalf("window ids while one app is stopped: %v, before: %v", got, ids)
	}

	// Going on, the app answers again, with the window it had.
	_ = syscall.Kill(other, syscall.SIGCONT)
	h.ok("get_window_state", map[string]any{"pid": other})
	if got := windowIDs(t, h); got[form] != ids[form] || got[other] != ids[other] {
		t.Fatalf("window ids after the app went on: %v, before: %v", got, ids)
	}

	// Killed while silent, its window is gone at the next call.
	_ = syscall.Kill(other, syscall.SIGSTOP)
	h.ok("list_windows", nil)
	_ = syscall.Kill(other, syscall.SIGKILL)
	testkit.Poll(10*time.Second, func() bool { return syscall.Kill(other, 0) != nil })
	r := h.call("get_window_state", map[string]any{"window_id": ids[other]})
	if r.Err == nil || (r.Err.Code != engine.CodeWindowGone && r.Err.Code != engine.CodeWindowTargetNotFound) {
		t.Fatalf("the killed app's window: %s", r.Text)
	}
	if got := windowIDs(t, h); got[other] != 0 || got[form] != ids[form] {
		t.Fatalf("window ids after the stopped app was killed: %v, before: %v", got, ids)
	}
}

// windowIDs maps each approved window's pid to its window id.
func windowIDs(t *testing.T, h *harness) map[int]int64 {
	t.Helper()
	ids := map[int]int64{}
	for _, w := range h.ok("list_windows", nil)["windows"].([]any) {
		row := w.(map[string]any)
		if row["approved"] == true {
			ids[int(row["pid"].(float64))] = int64(row["window_id"].(float64))
		}
	}
	return ids
}

// busNameOf is the accessibility bus name of the app with pid, as a
// client of the test's own sees it.
func busNameOf(t *testing.T, pid int) string {
	t.Helper()
	c := atspi.New(atspi.Options{Getenv: backendOptions(t).Getenv})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	apps, err := c.Apps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if a.Pid == pid {
			return a.Bus
		}
	}
	t.Fatal(fmt.Sprintf("pid %d is not on the accessibility bus", pid))
	return ""
}
