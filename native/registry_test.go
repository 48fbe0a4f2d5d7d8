package native_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native"
)

// On the test desktop, which has every extension and the bus, the live
// backend reports every part the capability table names, and each
// capability is available but those resting on the notification API
// Linux lacks.
func TestRegistryOfTheTestDesktop(t *testing.T) {
	onDesktop(t)
	b, release := native.OpenOrUnavailable(backendOptions(t))
	defer release()
	if _, live := b.(*native.Backend); !live {
		t.Fatalf("OpenOrUnavailable gave %T on a desktop that answers", b)
	}
	reg := b.Registry(context.Background())
	if !reg.Ready() {
		t.Errorf("not ready: %+v", reg.Backends)
	}
	table := engine.CapabilityTable()
	for i, c := range reg.Capabilities() {
		want := "available"
		if slices.Contains(table[i].RestsOn, engine.PartNotifications) {
			want = "unsupported"
		}
		if c.Status != want {
			t.Errorf("%+v, want %s", c, want)
		}
	}
	if r := doctor.Build(reg); !r.Ready || len(r.NextSteps) != 0 {
		t.Errorf("doctor: ready %v, next steps %+v", r.Ready, r.NextSteps)
	}
}

// A display the live backend cannot open gives the unavailable backend,
// whose calls fail with backend_unavailable naming the obstacle.
func TestOpenOrUnavailableKeepsWhyTheDisplayDidNotOpen(t *testing.T) {
	tests := []struct {
		display, reason string
	}{
		{"unix:nonumber", "display_unreachable"},
		{"far.invalid:nonumber", "display_not_local"},
	}
	for _, tt := range tests {
		t.Run(tt.display, func(t *testing.T) {
			b, release := native.OpenOrUnavailable(native.Options{Display: tt.display, Getenv: func(string) string { return "" }})
			defer release()
			if _, down := b.(*native.Unavailable); !down {
				t.Fatalf("OpenOrUnavailable gave %T for %q", b, tt.display)
			}
			_, err := b.Windows(context.Background())
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != engine.CodeBackendUnavailable || !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("Windows: %v, want backend_unavailable naming %s", err, tt.reason)
			}
			if reg := b.Registry(context.Background()); reg.Ready() || reg.Backends[0].ReasonCode != tt.reason {
				t.Errorf("registry %+v, want x11 %s", reg.Backends, tt.reason)
			}
		})
	}
}

// The headless GNOME desktop is ready: its windows come from the
// accessibility bus and Xwayland shows the consent dialog. The doctor
// names the compositor and Xwayland, and says what is not built there
// (takeover, hand-back) with its reason; a takeover asked for is refused
// before the dialog, which then asks for the app alone.
func TestTheWaylandDesktopIsReady(t *testing.T) {
	onWaylandDesktop(t)
	waylandReady(t, engine.CompositorMutter, "")
	takeoverRefusedUpFront(t, startSynthetic(t, 2).cmd.Process.Pid)
}

// waylandReady checks the registry of the test's Wayland desktop: ready,
// a Wayland session of the compositor with the desktop's Xwayland, reads
// and acts available, capture available or unavailable for captureReason,
// takeover and hand-back unavailable until the input portal is built.
func waylandReady(t *testing.T, compositor, captureReason string) {
	t.Helper()
	d := deskOf(t)
	reg := openBackend(t).Registry(context.Background())
	if !reg.Ready() || reg.SessionType != "wayland" {
		t.Fatalf("ready %v, session %q; probes %+v", reg.Ready(), reg.SessionType, reg.Probes)
	}
	if want := (engine.DesktopFacts{Compositor: compositor, Xwayland: d.Display}); reg.Desktop != want {
		t.Errorf("desktop %+v, want %+v", reg.Desktop, want)
	}
	r := doctor.Build(reg)
	if r.Desktop == nil || r.Desktop.Compositor != compositor {
		t.Errorf("the report's desktop is %+v", r.Desktop)
	}
	caps := map[string]engine.Capability{}
	for _, c := range reg.Capabilities() {
		caps[c.Name] = c
	}
	available := []string{"read_tree", "act_semantic", "clipboard_write"}
	if captureReason == "" {
		available = append(available, "capture_window")
	} else if c := caps["capture_window"]; c.Status != engine.StatusUnavailable || c.ReasonCode != captureReason {
		t.Errorf("capture_window: %+v, want unavailable for %s", c, captureReason)
	}
	for _, name := range available {
		if caps[name].Status != engine.StatusAvailable {
			t.Errorf("%s: %+v, want available", name, caps[name])
		}
	}
	for _, name := range []string{"input_takeover", "takeover_indicator", "takeover_handback"} {
		if c := caps[name]; c.Status != engine.StatusUnavailable || c.ReasonCode != doctor.ReasonWaylandPortalNotBuilt {
			t.Errorf("%s: %+v, want unavailable for %s", name, c, doctor.ReasonWaylandPortalNotBuilt)
		}
	}
}

// takeoverRefusedUpFront asks for a takeover of app on the test's Wayland
// desktop: it is refused before the dialog, which the person allows for
// headless input alone.
func takeoverRefusedUpFront(t *testing.T, app int) {
	t.Helper()
	h := newHarness(t, consentWait)
	p := newPerson(t)
	wg := p.answer("allow")
	st := h.ok("start_session", map[string]any{"apps": []any{app}, "input": "takeover"})
	wg.Wait()
	tk := st["takeover"].(map[string]any)
	if tk["on"] != false || tk["reason"] != doctor.ReasonWaylandPortalNotBuilt || tk["action"] == nil {
		t.Fatalf("takeover %v: want refused up front with %s and what to do", tk, doctor.ReasonWaylandPortalNotBuilt)
	}
	if st["input"] != "headless" {
		t.Fatalf("input %v, want headless", st["input"])
	}
}
