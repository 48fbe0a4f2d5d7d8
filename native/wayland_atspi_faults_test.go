package native_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// On a Wayland session every window comes from the accessibility bus, so
// without it the driver has nothing to list or read: each call answers a
// named error within the call bound, the doctor says
// atspi_bus_unreachable, and the driver keeps serving.

// atspiCallBound is how long a call may take to answer that the bus is
// not there: the call bound (2 s) with room for a loaded machine.
const atspiCallBound = 3 * time.Second

// answersNamed runs a call and checks that it answers within
// atspiCallBound with something other than internal, which it returns.
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
		t.Fatalf("%s took %v, over %v", tool, took, atspiCallBound)
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
	h := newHarnessOn(t, openBackendWith(t, opts), engine.Options{ConsentTimeout: 20 * time.Second}, nil)
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
	d := onOwnWaylandDesktop(t, false)
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
