package engine_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/engine/mock"
)

func TestRegistryReady(t *testing.T) {
	tests := []struct {
		name     string
		backends []engine.BackendEntry
		want     bool
	}{
		{"all required available", []engine.BackendEntry{{ID: "x11", Status: "available", Required: true}, {ID: "atspi", Status: "available", Required: true}}, true},
		{"one required unavailable", []engine.BackendEntry{{ID: "x11", Status: "available", Required: true}, {ID: "atspi", Status: "unavailable", Required: true}}, false},
		{"optional unavailable does not matter", []engine.BackendEntry{{ID: "x11", Status: "available", Required: true}, {ID: "xinput2", Status: "unavailable"}}, true},
		{"a required planned entry is not ready", []engine.BackendEntry{{ID: "x11", Status: "planned", Required: true}}, false},
		{"no required entry at all is not ready", []engine.BackendEntry{{ID: "wayland-portal", Status: "planned"}}, false},
		{"empty registry is not ready", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (engine.Registry{Backends: tt.backends}).Ready(); got != tt.want {
				t.Errorf("Ready = %v, want %v", got, tt.want)
			}
		})
	}
}

// health_report and the doctor read one registry the same way: the same
// readiness, entries and capabilities, with the desktop up and down.
func TestHealthAndDoctorAgree(t *testing.T) {
	for _, off := range []bool{false, true} {
		desk := mock.New()
		t.Cleanup(desk.Close)
		desk.SetUnavailable(off)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		health := engine.New(engine.Options{Backend: desk}).Health(ctx)
		report := doctor.Build(desk.Registry(ctx))
		if health.Ready != report.Ready || health.Ready == off {
			t.Errorf("switched off %v: health ready %v, doctor ready %v", off, health.Ready, report.Ready)
		}
		if !reflect.DeepEqual(health.Capabilities, report.Capabilities) {
			t.Errorf("switched off %v: health's capabilities %+v, the doctor's %+v", off, health.Capabilities, report.Capabilities)
		}
		// The doctor adds the planned wayland-portal entry after the
		// backend's own.
		if !reflect.DeepEqual(health.Backends, report.Backends[:len(health.Backends)]) {
			t.Errorf("switched off %v: health's entries %+v, the doctor's %+v", off, health.Backends, report.Backends)
		}
	}
}
