package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/native"
)

// noDisplayReport is the report a binary gives with no desktop at all.
func noDisplayReport(t *testing.T) []byte {
	t.Helper()
	down := native.NewUnavailable(native.Options{Getenv: func(string) string { return "" }}, errors.New("no display"))
	b, err := json.Marshal(doctor.Build(down.Registry(t.Context())))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readyReport is the mock desktop's report, which is ready.
func readyReport(t *testing.T) []byte {
	t.Helper()
	desk := mock.NewDemo()
	defer desk.Close()
	b, err := json.Marshal(doctor.Build(desk.Registry(t.Context())))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheck(t *testing.T) {
	noDisplay := noDisplayReport(t)
	tests := []struct {
		name    string
		report  []byte
		ready   bool
		reasons reasons
		wantErr string // empty: must pass
	}{
		{"no display, as expected", noDisplay, false, reasons{"x11": "display_unreachable"}, ""},
		{"no display, but ready expected", noDisplay, true, nil, "ready is false, want true"},
		{"another reason expected", noDisplay, false, reasons{"x11": "wayland_session"}, `backend x11: reason "display_unreachable", want "wayland_session"`},
		{"a ready report", readyReport(t), true, nil, ""},
		{"a ready report has no reasons", readyReport(t), true, reasons{"x11": "display_unreachable"}, "backend x11"},
		{"not JSON of the schema", []byte(`{"ready": false}`), false, nil, "does not validate"},
		{"not JSON at all", []byte(`doctor: NOT READY`), false, nil, "does not validate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := check(tt.report, tt.ready, tt.reasons)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected failure: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestReasonsFlag(t *testing.T) {
	tests := []struct {
		in      string
		wantErr bool
	}{
		{"x11=display_unreachable", false},
		{"x11", true},
		{"=display_unreachable", true},
		{"x11=", true},
	}
	for _, tt := range tests {
		r := reasons{}
		err := r.Set(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("Set(%q) err = %v, want error %v", tt.in, err, tt.wantErr)
		}
		if err == nil && r["x11"] != "display_unreachable" {
			t.Errorf("Set(%q) gave %v", tt.in, r)
		}
	}
}
