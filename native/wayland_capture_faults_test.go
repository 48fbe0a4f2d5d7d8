package native_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// A screenshot on Wayland rests on the compositor's screen cast and on
// PipeWire, which carries its frames. Without either the read still
// answers, with a screenshot_error that names what failed (never
// internal), and the doctor says capture_window is unavailable and why.

// screenshotBound is how long a read with a screenshot may take when the
// capture fails: the screen cast's own bound with room for the read.
const screenshotBound = 5 * time.Second

// refusedScreenshot reads pid's window with a screenshot, which must be
// refused within screenshotBound, and returns the screenshot_error.
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
		t.Fatalf("the refused screenshot took %v, over %v", took, screenshotBound)
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
	d := onOwnWaylandDesktop(t, false)
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
			h := newHarnessOn(t, openBackendWith(t, opts), engine.Options{ConsentTimeout: 20 * time.Second}, nil)
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
			if refused := refusedScreenshot(t, h, pid); refused["code"] != string(engine.CodeUnsupported) || !strings.Contains(asStr(refused["message"]), "no capture") {
				t.Fatalf("screenshot_error %v, want unsupported: no capture on this desktop", refused)
			}
		})
	}
}
