package native

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// What each X server's extensions make of the capabilities, through the
// parts this backend reports and the engine's table.
func TestCapabilitiesFromTheDisplaysParts(t *testing.T) {
	full := xlib.Extensions{XTest: true, XInputMajor: 2, XInputMinor: 2, Composite: true, XRes: true, Shape: true}
	without := func(change func(*xlib.Extensions)) xlib.Extensions { e := full; change(&e); return e }
	tests := []struct {
		name  string
		ext   xlib.Extensions
		ready bool
		want  map[string]string // capability -> reason ("" available)
		rest  string            // the reason of the others but the unsupported ones
	}{
		{"every extension", full, true, nil, ""},
		{"no XTEST: no takeover, hand-back still heard", without(func(e *xlib.Extensions) { e.XTest = false }), true,
			map[string]string{"input_takeover": "xtest_missing", "takeover_handback": "", "takeover_indicator": ""}, ""},
		{"XInput 2.0: neither takeover nor hand-back", without(func(e *xlib.Extensions) { e.XInputMinor = 0 }), true,
			map[string]string{"input_takeover": "xinput2_missing", "takeover_handback": "xinput2_missing", "takeover_indicator": ""}, ""},
		{"no SHAPE: no indicator, so no takeover", without(func(e *xlib.Extensions) { e.Shape = false }), true,
			map[string]string{"input_takeover": "x11_extension_missing", "takeover_indicator": "x11_extension_missing", "takeover_handback": ""}, ""},
		{"no Composite: no capture", without(func(e *xlib.Extensions) { e.Composite = false }), true,
			map[string]string{"capture_window": "composite_missing", "read_tree": ""}, ""},
		{"no X-Resource: nothing works", without(func(e *xlib.Extensions) { e.XRes = false }), false, nil, "xres_missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x11, xi, features := displayParts(tt.ext)
			reg := engine.Registry{Backends: []engine.BackendEntry{x11, {ID: engine.PartAtspi, Status: "available", Required: true}, xi}, Features: features}
			for _, id := range unreported(reg) {
				t.Errorf("part %s of the capability table is not reported", id)
			}
			if reg.Ready() != tt.ready {
				t.Errorf("ready = %v, want %v", reg.Ready(), tt.ready)
			}
			for _, c := range reg.Capabilities() {
				reason, named := tt.want[c.Name]
				if !named {
					reason = tt.rest
				}
				switch {
				case c.Status == "unsupported":
					if c.ReasonCode != "no_platform_api" || named {
						t.Errorf("%+v", c)
					}
				case c.ReasonCode != reason:
					t.Errorf("%s: %s %q, want reason %q", c.Name, c.Status, c.ReasonCode, reason)
				case reason != "" && (c.Status != "unavailable" || c.Action == ""):
					t.Errorf("%s: %+v, want unavailable with an action", c.Name, c)
				}
			}
		})
	}
}

// unreported lists the parts the capability table names that reg does not
// report, as an entry or a feature.
func unreported(reg engine.Registry) []string {
	var out []string
	for _, id := range engine.CapabilityParts() {
		found := false
		for _, b := range reg.Backends {
			found = found || b.ID == id
		}
		for _, f := range reg.Features {
			found = found || f.ID == id
		}
		if !found {
			out = append(out, id)
		}
	}
	return out
}
