package native_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/native"
)

// The faults of a Wayland desktop: a part of it missing or going away
// (Xwayland, the accessibility bus, the compositor, PipeWire, the screen
// cast) gives a named error or a doctor reason within the contract's
// bounds, and the driver keeps serving. A test that breaks its desktop
// runs on one of its own (onOwnDesktop).

// freeDisplay is an X display number with no server behind it, neither
// socket file nor abstract socket, and the abstract socket's name.
func freeDisplay(t *testing.T) (display, abstract string) {
	t.Helper()
	for n := 850; n < 950; n++ {
		path := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if c, err := net.Dial("unix", "@"+path); err == nil {
			c.Close()
			continue
		}
		return fmt.Sprintf(":%d", n), "@" + path
	}
	t.Fatal("no free X display number from 850 to 949")
	return "", ""
}

// silentDisplay is a local X display that accepts connections and never
// answers: an Xwayland that hangs.
func silentDisplay(t *testing.T) string {
	t.Helper()
	display, abstract := freeDisplay(t)
	ln, err := net.Listen("unix", abstract)
	if err != nil {
		t.Fatal(err)
	}
	testkit.SilentServer(t, ln)
	return display
}

// A Wayland session whose Xwayland is missing (DISPLAY unset, or naming a
// display that is not there or never answers) has nowhere to show the
// consent dialog: the backend is the unavailable one, the doctor says not
// ready with wayland_session_unsupported and why, and names the
// compositor; start_session answers backend_unavailable at once, without
// a dialog (its time is logged; the test's bound on it, noCodeBound, is
// only a hang guard).
func TestWaylandWithoutXwayland(t *testing.T) {
	onWaylandDesktop(t)
	vars := deskOf(t).Vars()
	silent := silentDisplay(t)
	absent, _ := freeDisplay(t) // after the silent one took its number
	tests := []struct{ name, display string }{
		{"DISPLAY unset", ""},
		{"no Xwayland at DISPLAY", absent},
		{"an Xwayland that never answers", silent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "DISPLAY" {
					return tt.display
				}
				return vars[k]
			}
			opened := time.Now()
			b, release := native.OpenOrUnavailable(native.Options{Getenv: getenv})
			defer release()
			t.Logf("OpenOrUnavailable took %v", time.Since(opened).Round(time.Millisecond))
			if _, down := b.(*native.Unavailable); !down {
				t.Fatalf("OpenOrUnavailable gave %T", b)
			}
			reg := b.Registry(context.Background())
			if reg.Ready() || reg.SessionType != "wayland" || reg.Desktop.Compositor != engine.CompositorMutter {
				t.Fatalf("ready %v, session %q, desktop %+v: want not ready, a Wayland session on mutter", reg.Ready(), reg.SessionType, reg.Desktop)
			}
			if x := reg.Backends[0]; x.ID != engine.PartX11 || x.ReasonCode != doctor.ReasonWaylandSessionUnsupported || x.Action == "" {
				t.Fatalf("x11 entry %+v, want %s", x, doctor.ReasonWaylandSessionUnsupported)
			}
			r := doctor.Build(reg)
			if r.Ready || r.Desktop == nil || r.Desktop.Compositor != engine.CompositorMutter {
				t.Fatalf("doctor: ready %v, desktop %+v", r.Ready, r.Desktop)
			}
			if !probeSays(reg, "display server", "fail", "consent dialog") {
				t.Fatalf("no probe says the consent dialog has nowhere to show: %+v", reg.Probes)
			}

			d := engine.New(engine.Options{Backend: b, ConsentTimeout: consentWait})
			defer d.Shutdown()
			c := d.Connect(engine.ClientInfo{Name: "itest", Pid: os.Getpid()})
			defer c.Close()
			calls := enginecall.Caller{T: t, Conn: c, Bound: noCodeBound}
			asked := time.Now()
			calls.Fail(engine.CodeBackendUnavailable, "start_session", map[string]any{"apps": []any{"synthetic"}})
			took := time.Since(asked)
			t.Logf("start_session: backend_unavailable in %v", took.Round(time.Millisecond))
			if took > noCodeBound {
				t.Fatalf("start_session took %v to say the backend is unavailable: hung", took)
			}
			calls.OK("health_report", nil)
		})
	}
}

// noCodeBound is a hang guard on an answer the driver gives at once, with
// no bound of its own in the code (a refusal before anything is asked of
// the desktop): it only catches a hang, never a loaded machine.
const noCodeBound = 30 * time.Second

// probeSays reports whether the registry has a probe of that label and
// status whose message holds fragment.
func probeSays(reg engine.Registry, label, status, fragment string) bool {
	for _, p := range reg.Probes {
		if p.Label == label && p.Status == status && strings.Contains(p.Message, fragment) {
			return true
		}
	}
	return false
}

// On Wayland a takeover is refused up front (no hand-back can be heard),
// so every pointer or keyboard act, even with a session that asked for a
// takeover, answers requires_takeover before anything is sent (each
// refusal's time is logged; noCodeBound is only a hang guard).
func TestWaylandInputNeedsTakeover(t *testing.T) {
	onWaylandDesktop(t)
	pid := startSynthetic(t, 2).cmd.Process.Pid
	spy := &sendSpy{}
	h := newHarnessAround(t, engine.Options{ConsentTimeout: consentWait}, func(b *native.Backend) engine.Backend {
		spy.Backend = b
		return spy
	})
	p := newPerson(t)
	wg := p.answer("allow")
	st := h.ok("start_session", map[string]any{"apps": []any{pid}, "input": "takeover"})
	wg.Wait()
	if st["input"] != "headless" {
		t.Fatalf("input %v, want headless: a takeover is refused on Wayland", st["input"])
	}
	read := h.ok("get_window_state", map[string]any{"pid": pid})
	entry := testkit.Token(t, read, "text", "")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"press_key", map[string]any{"pid": pid, "key": "Return"}},
		{"hotkey", map[string]any{"pid": pid, "keys": []any{"Control_L", "a"}}},
		{"click", map[string]any{"pid": pid, "x": 10, "y": 10}},
		{"double_click", map[string]any{"pid": pid, "x": 10, "y": 10}},
		{"right_click", map[string]any{"pid": pid, "x": 10, "y": 10}},
		{"scroll", map[string]any{"pid": pid, "x": 10, "y": 10, "direction": "down"}},
		{"drag", map[string]any{"pid": pid, "from_x": 10, "from_y": 10, "to_x": 50, "to_y": 50}},
		{"move_cursor", map[string]any{"pid": pid, "x": 10, "y": 10}},
		{"type_text", map[string]any{"element_token": entry, "text": "x", "delivery_mode": "foreground"}},
	} {
		asked := time.Now()
		h.fail(engine.CodeRequiresTakeover, c.tool, c.args)
		took := time.Since(asked)
		t.Logf("%s: requires_takeover in %v", c.tool, took.Round(time.Millisecond))
		if took > noCodeBound {
			t.Errorf("%s took %v to be refused: hung", c.tool, took)
		}
		if n := spy.count(""); n != 0 {
			t.Fatalf("%s sent %d input events before it was refused", c.tool, n)
		}
	}
}

// On a Wayland session every window comes from the accessibility bus, so
// without it the driver has nothing to list or read: each call answers a
// named error (within the call bound; the tests log the time and guard
// only against a hang), the doctor says atspi_bus_unreachable, and the
// driver keeps serving.

// atspiCallBound is a hang guard on a call that answers that the bus is
// not there: the call bound (engine.DefaultCallTimeout) plus 10 s. It
// only catches a hang, never a loaded machine.
const atspiCallBound = engine.DefaultCallTimeout + 10*time.Second

// answersNamed runs a call and checks that it answers with something
// other than internal, which it returns; it logs the call's time and fails
// only past the hang guard atspiCallBound.
func answersNamed(t *testing.T, h *harness, tool string, args map[string]any) engine.Result {
	t.Helper()
	asked := time.Now()
	r := h.call(tool, args)
	took := time.Since(asked)
	code := "ok"
	if r.Err != nil {
		code = string(r.Err.Code)
	}
	t.Logf("%s: %s in %v", tool, code, took.Round(time.Millisecond))
	if r.Err != nil && r.Err.Code == engine.CodeInternal {
		t.Fatalf("%s: %s, want a named error", tool, r.Text)
	}
	if took > atspiCallBound {
		t.Fatalf("%s took %v, over the hang guard %v", tool, took, atspiCallBound)
	}
	return r
}

// The session names an accessibility bus (AT_SPI_BUS_ADDRESS) where
// nothing answers: the doctor says atspi_bus_unreachable with what to do,
// a list and a session answer backend_unavailable at once.
func TestWaylandWithoutTheAccessibilityBus(t *testing.T) {
	onWaylandDesktop(t)
	opts := backendOptions(t)
	desk := opts.Getenv
	dead := "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
	opts.Getenv = func(k string) string {
		if k == "AT_SPI_BUS_ADDRESS" {
			return dead
		}
		return desk(k)
	}
	h := newHarnessOn(t, openBackendWith(t, opts), engine.Options{ConsentTimeout: consentWait}, nil)
	reg := h.b.Registry(t.Context())
	a := reg.Backends[1]
	if reg.Ready() || reg.SessionType != "wayland" || a.ID != engine.PartAtspi || a.ReasonCode != doctor.ReasonAtspiBusUnreachable || a.Action == "" {
		t.Fatalf("ready %v, session %q, atspi entry %+v: want not ready for %s", reg.Ready(), reg.SessionType, a, doctor.ReasonAtspiBusUnreachable)
	}
	if !probeSays(reg, "accessibility bus", "fail", "does not answer") {
		t.Fatalf("no probe says the accessibility bus does not answer: %+v", reg.Probes)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"list_windows", nil},
		{"start_session", map[string]any{"apps": []any{"synthetic"}}},
	} {
		if r := answersNamed(t, h, c.tool, c.args); r.Err == nil || r.Err.Code != engine.CodeBackendUnavailable {
			t.Fatalf("%s: %s, want %s", c.tool, r.Text, engine.CodeBackendUnavailable)
		}
	}
	if r := answersNamed(t, h, "health_report", nil); r.Err != nil {
		t.Fatal(r.Text)
	}
}

// The bus launcher dies with the bus under a granted session (on a
// desktop of the test's own). The session bus starts a new launcher when
// the driver asks where the bus is, and the new bus has none of the apps
// (they join a bus when they start): the app's window is gone from the
// driver's view, and every call says so within the bound.
func TestWaylandAccessibilityBusRestarts(t *testing.T) {
	d := onOwnDesktop(t, waylandDesktops, false)
	pid, h := grantedSynthetic(t, 3)
	h.ok("get_window_state", map[string]any{"pid": pid})
	if err := d.Crash("at-spi-bus-launcher"); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"get_window_state", "find_elements"} {
		r := answersNamed(t, h, tool, map[string]any{"pid": pid, "role": "push_button"})
		if r.Err == nil {
			t.Fatalf("%s of a window whose bus died: %s", tool, r.Text)
		}
	}
	answersNamed(t, h, "list_windows", nil)
	if r := answersNamed(t, h, "health_report", nil); r.Err != nil {
		t.Fatal(r.Text)
	}
}

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

// compositorDeathBound is a hang guard on the answer of a call in flight
// after the compositor's death: the call bound (engine.DefaultCallTimeout
// of an app's silence) plus 10 s. The time taken is logged; the guard
// only catches a hang, never a loaded machine.
const compositorDeathBound = engine.DefaultCallTimeout + 10*time.Second

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
	d := onOwnDesktop(t, waylandDesktops, true)
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
	drv := engine.New(engine.Options{Backend: sig, ConsentTimeout: consentWait})
	h := harnessOn(t, b, drv, "itest")
	// The window shows a moment after the app says it is ready.
	testkit.Eventually(t, 10*time.Second, "the 1000-row window is listed", func() bool {
		return strings.Contains(testkit.JSON(t, h.ok("list_windows", nil)), fmt.Sprint(pid))
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
	case <-time.After(compositorDeathBound):
		t.Fatalf("the call still runs %v after the compositor died: hung", compositorDeathBound)
	}
	took := time.Since(killed)
	if r.Err == nil || !slices.Contains(compositorDeathCodes, r.Err.Code) {
		t.Fatalf("the call answered %s, want one of %v", r.Text, compositorDeathCodes)
	}
	t.Logf("the call answered %s %v after the compositor died", r.Err.Code, took.Round(time.Millisecond))

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
		return !strings.Contains(testkit.JSON(t, h.ok("list_windows", nil)), fmt.Sprint(pid))
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

// A screenshot on Wayland rests on the compositor's screen cast and on
// PipeWire, which carries its frames. Without either the read still
// answers, with a screenshot_error that names what failed (never
// internal), and the doctor says capture_window is unavailable and why.

// screenshotBound is a hang guard on a read with a screenshot whose
// capture fails: the screen cast's own bound (castBound, 3 s) plus 10 s.
// The time taken is logged; the guard only catches a hang, never a loaded
// machine.
const screenshotBound = 3*time.Second + 10*time.Second

// refusedScreenshot reads pid's window with a screenshot, which must be
// refused (its time logged, screenshotBound only a hang guard), and
// returns the screenshot_error.
func refusedScreenshot(t *testing.T, h *harness, pid int) map[string]any {
	t.Helper()
	asked := time.Now()
	r := h.call("get_window_state", map[string]any{"pid": pid, "include_screenshot": true})
	took := time.Since(asked)
	if r.Err != nil || r.Image != nil {
		t.Fatalf("a read with a screenshot that cannot be taken: %s (image %v)", r.Text, r.Image != nil)
	}
	refused, _ := testkit.Decode(t, r.Structured)["screenshot_error"].(map[string]any)
	if refused == nil || refused["code"] == "" || refused["code"] == string(engine.CodeInternal) {
		t.Fatalf("screenshot_error %v, want a named code", refused)
	}
	t.Logf("screenshot_error %v in %v: %v", refused["code"], took.Round(time.Millisecond), refused["message"])
	if took > screenshotBound {
		t.Fatalf("the refused screenshot took %v, over the hang guard %v", took, screenshotBound)
	}
	return refused
}

// captureCapability is the registry's capture_window capability.
func captureCapability(t *testing.T, h *harness) engine.Capability {
	t.Helper()
	for _, c := range h.b.Registry(t.Context()).Capabilities() {
		if c.Name == "capture_window" {
			return c
		}
	}
	t.Fatal("no capture_window capability")
	return engine.Capability{}
}

// PipeWire killed (with WirePlumber) on a desktop of the test's own: the
// doctor says portal_unavailable and to start PipeWire; a screenshot of
// the focused window is refused with a named error.
func TestWaylandScreenshotWithoutPipeWire(t *testing.T) {
	d := onOwnDesktop(t, waylandDesktops, false)
	pid, h := grantedSynthetic(t, 2)
	for _, s := range []string{"wireplumber", "pipewire"} {
		if err := d.Crash(s); err != nil {
			t.Fatal(err)
		}
	}
	c := captureCapability(t, h)
	if c.Status != engine.StatusUnavailable || c.ReasonCode != doctor.ReasonPortalUnavailable || c.Action == "" {
		t.Fatalf("capture_window %+v, want unavailable for %s with what to do", c, doctor.ReasonPortalUnavailable)
	}
	// The window takes the focus a moment after it maps; until then the
	// refusal is for that.
	var refused map[string]any
	testkit.Eventually(t, 10*time.Second, "the focused window's screenshot refused for the screen cast", func() bool {
		refused = refusedScreenshot(t, h, pid)
		return refused["code"] != string(engine.CodeUnsupported)
	})
	if refused["code"] != string(engine.CodeBackendUnavailable) {
		t.Fatalf("screenshot_error %v, want %s (the doctor says why)", refused, engine.CodeBackendUnavailable)
	}
	h.ok("get_window_state", map[string]any{"pid": pid})
}

// A Wayland session whose compositor offers no mutter screen cast (KDE,
// sway): simulated by a Wayland session's environment on an X11 desktop,
// whose session bus has no org.gnome.Mutter.ScreenCast. The doctor names
// the compositor and says compositor_unsupported; a screenshot is refused
// with a named error.
func TestWaylandScreenCastRefused(t *testing.T) {
	onDesktop(t)
	pid := startSynthetic(t, 2).cmd.Process.Pid
	tests := []struct {
		name, compositor string
		env              map[string]string
	}{
		{"KDE", engine.CompositorKWin, map[string]string{"XDG_CURRENT_DESKTOP": "KDE"}},
		{"sway", engine.CompositorWlroots, map[string]string{"XDG_CURRENT_DESKTOP": "", "SWAYSOCK": "/nonexistent/sway-ipc.sock"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := backendOptions(t)
			desk := opts.Getenv
			opts.Getenv = func(k string) string {
				if v, ok := tt.env[k]; ok {
					return v
				}
				if k == "XDG_SESSION_TYPE" {
					return "wayland"
				}
				return desk(k)
			}
			h := newHarnessOn(t, openBackendWith(t, opts), engine.Options{ConsentTimeout: consentWait}, nil)
			reg := h.b.Registry(t.Context())
			if reg.SessionType != "wayland" || reg.Desktop.Compositor != tt.compositor {
				t.Fatalf("session %q on %q, want wayland on %q", reg.SessionType, reg.Desktop.Compositor, tt.compositor)
			}
			c := captureCapability(t, h)
			if c.Status != engine.StatusUnavailable || c.ReasonCode != doctor.ReasonCompositorUnsupported || c.Action == "" {
				t.Fatalf("capture_window %+v, want unavailable for %s", c, doctor.ReasonCompositorUnsupported)
			}
			if !probeSays(reg, "screen cast", "fail", "ScreenCast") {
				t.Fatalf("no probe says the screen cast is missing: %+v", reg.Probes)
			}
			grant(t, h, pid)
			if refused := refusedScreenshot(t, h, pid); refused["code"] != string(engine.CodeUnsupported) || !strings.Contains(asString(refused["message"]), "no capture") {
				t.Fatalf("screenshot_error %v, want unsupported: no capture on this desktop", refused)
			}
		})
	}
}
