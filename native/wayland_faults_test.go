package native_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
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
// runs on one of its own (onOwnWaylandDesktop).

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
// a dialog.
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

			d := engine.New(engine.Options{Backend: b, ConsentTimeout: 20 * time.Second})
			defer d.Shutdown()
			c := d.Connect(engine.ClientInfo{Name: "itest", Pid: os.Getpid()})
			defer c.Close()
			calls := enginecall.Caller{T: t, Conn: c, Bound: 10 * time.Second}
			asked := time.Now()
			calls.Fail(engine.CodeBackendUnavailable, "start_session", map[string]any{"apps": []any{"synthetic"}})
			if took := time.Since(asked); took > time.Second {
				t.Fatalf("start_session took %v to say the backend is unavailable", took)
			} else {
				t.Logf("start_session: backend_unavailable in %v", took.Round(time.Millisecond))
			}
			calls.OK("health_report", nil)
		})
	}
}

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
// takeover, answers requires_takeover before anything is sent.
func TestWaylandInputNeedsTakeover(t *testing.T) {
	onWaylandDesktop(t)
	pid := startSynthetic(t, 2).cmd.Process.Pid
	spy := &sendSpy{}
	h := newHarnessAround(t, engine.Options{ConsentTimeout: 20 * time.Second}, func(b *native.Backend) engine.Backend {
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
		if took := time.Since(asked); took > time.Second {
			t.Errorf("%s took %v to be refused", c.tool, took)
		}
		if n := spy.count(""); n != 0 {
			t.Fatalf("%s sent %d input events before it was refused", c.tool, n)
		}
	}
}
