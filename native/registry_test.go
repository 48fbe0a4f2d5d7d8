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

// An X display inside a Wayland session (Xwayland) holds only the apps
// that speak X11: the live backend opens it but does not say ready, and
// says why (native/wayland_session.go).
func TestAnXDisplayInAWaylandSessionIsNotReady(t *testing.T) {
	onDesktop(t)
	for _, env := range []map[string]string{
		{"WAYLAND_DISPLAY": "wayland-0"},
		{"XDG_SESSION_TYPE": "wayland"},
	} {
		opts := backendOptions(t)
		inner := opts.Getenv
		opts.Getenv = func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			return inner(k)
		}
		b, release := native.OpenOrUnavailable(opts)
		reg := b.Registry(context.Background())
		release()
		if _, live := b.(*native.Backend); !live {
			t.Fatalf("%v: OpenOrUnavailable gave %T on a desktop that answers", env, b)
		}
		if reg.Ready() || reg.SessionType != "wayland" {
			t.Errorf("%v: ready %v, session %q", env, reg.Ready(), reg.SessionType)
		}
		r := doctor.Build(reg)
		if len(r.NextSteps) == 0 || r.NextSteps[0].ReasonCode != doctor.ReasonWaylandSessionUnsupported {
			t.Errorf("%v: next steps %+v", env, r.NextSteps)
		}
	}
}
