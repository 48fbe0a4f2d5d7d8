package native_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native"
)

// The compositor dies while a call waits on a Wayland app (mutter killed
// with its process group, Xwayland with it; the app loses its display and
// quits): the call answers a named error within its bound, the driver
// keeps serving (health_report answers, the doctor says what is wrong),
// and once it is closed no goroutine of it is left. Each runs alone on a
// desktop of its own, so the goroutines counted are the driver's.

// compositorDeathCodes are the answers a call may give when the
// compositor dies under it: its window went with the app, the app fell
// silent first, or the display went before the app.
var compositorDeathCodes = []engine.Code{engine.CodeWindowGone, engine.CodeAppNotResponding, engine.CodeBackendUnavailable}

// compositorDeathBound is how long after the compositor's death a call in
// flight may take to answer: the call bound (an app silent for 2 s) with
// room for a loaded machine.
const compositorDeathBound = 5 * time.Second

// A read is caught with the app stopped on it, so the compositor surely
// dies mid-read.
func TestWaylandCompositorDiesMidRead(t *testing.T) {
	compositorDies(t, true, func(h *harness, pid int) engine.Result {
		return h.call("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	})
}

// A wait is caught waiting for the app's next change report, which never
// comes: the app's leaving the bus must end it.
func TestWaylandCompositorDiesMidWait(t *testing.T) {
	compositorDies(t, false, func(h *harness, pid int) engine.Result {
		return h.call("wait_for", map[string]any{"pid": pid, "timeout_ms": 30000,
			"condition": map[string]any{"kind": "appears", "label": "never shown"}})
	})
}

// waitSignal is actSignal that also signals when a wait for the app's
// next change report starts.
type waitSignal struct {
	*actSignal
	waiting chan struct{}
}

func (b *waitSignal) WaitChange(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, max time.Duration) (bool, error) {
	select {
	case b.waiting <- struct{}{}:
	default:
	}
	return b.actSignal.WaitChange(ctx, w, mark, max)
}

// compositorDies starts the 1000-row synthetic window and kills mutter
// while call is under way. With stopApp the app is stopped first and the
// compositor killed once the call has asked the backend for something the
// app must answer (as TestAppExitsMidAct does), then the app goes on and
// finds its display gone; without, the compositor is killed once the call
// waits for the app's change reports.
func compositorDies(t *testing.T, stopApp bool, call func(h *harness, pid int) engine.Result) {
	d := onOwnWaylandDesktop(t, true)
	pid := startSynthetic(t, 1000).cmd.Process.Pid
	base := runtime.NumGoroutine()

	b, err := native.Open(backendOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	acting, waiting := make(chan struct{}, 1), make(chan struct{}, 1)
	sig := &waitSignal{actSignal: &actSignal{Backend: b, acting: acting}, waiting: waiting}
	reached := waiting
	if stopApp {
		reached = acting
	}
	drv := engine.New(engine.Options{Backend: sig, ConsentTimeout: 20 * time.Second})
	h := harnessOn(t, b, drv, "itest")
	// The window shows a moment after the app says it is ready.
	testkit.Eventually(t, 10*time.Second, "the 1000-row window is listed", func() bool {
		return strings.Contains(asJSON(t, h.ok("list_windows", nil)), fmt.Sprint(pid))
	})
	p := newPerson(t)
	wg := p.answer("allow")
	h.ok("start_session", map[string]any{"apps": []any{pid}})
	wg.Wait()
	_ = p.p.Close()
	h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})

	if stopApp {
		_ = syscall.Kill(pid, syscall.SIGSTOP)
	}
	sig.armed.Store(true)
	done := make(chan engine.Result, 1)
	go func() { done <- call(h, pid) }()
	select {
	case <-reached:
	case r := <-done:
		t.Fatalf("the call returned before it reached the app: %s", r.Text)
	}
	if err := d.Crash("mutter"); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	_ = syscall.Kill(pid, syscall.SIGCONT)
	var r engine.Result
	select {
	case r = <-done:
	case <-time.After(3 * compositorDeathBound):
		t.Fatalf("the call still runs %v after the compositor died", 3*compositorDeathBound)
	}
	took := time.Since(killed)
	if r.Err == nil || !slices.Contains(compositorDeathCodes, r.Err.Code) {
		t.Fatalf("the call answered %s, want one of %v", r.Text, compositorDeathCodes)
	}
	t.Logf("the call answered %s %v after the compositor died", r.Err.Code, took.Round(time.Millisecond))
	if took > compositorDeathBound {
		t.Fatalf("the call answered %v after the compositor died, over %v", took, compositorDeathBound)
	}

	// The driver keeps serving, and says what is wrong.
	asked := time.Now()
	health := h.ok("health_report", nil)
	t.Logf("health_report answered in %v", time.Since(asked).Round(time.Millisecond))
	if health["ready"] != false {
		t.Fatalf("health_report says ready with the compositor gone: %v", health)
	}
	reg := b.Registry(t.Context())
	if x := reg.Backends[0]; reg.Ready() || x.ID != engine.PartX11 || x.ReasonCode != doctor.ReasonDisplayUnreachable {
		t.Fatalf("the doctor's x11 entry %+v, want %s", x, doctor.ReasonDisplayUnreachable)
	}
	if !probeSays(reg, "display server", "fail", "compositor does not answer") {
		t.Fatalf("no probe says the compositor does not answer: %+v", reg.Probes)
	}
	// The app quits once it reads that its display is gone.
	testkit.Eventually(t, 10*time.Second, "the app that lost its compositor leaves the list", func() bool {
		return !strings.Contains(asJSON(t, h.ok("list_windows", nil)), fmt.Sprint(pid))
	})

	h.c.Close()
	drv.Shutdown()
	b.Close()
	testkit.Poll(10*time.Second, func() bool { return runtime.NumGoroutine() <= base })
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after closing, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
