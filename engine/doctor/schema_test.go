package doctor

import (
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema"
)

// Every report the doctor can build must satisfy the published schema, with
// and without a display.
func TestReportsValidateAgainstTheDoctorSchema(t *testing.T) {
	partial := readyRegistry()
	partial.Backends[1] = engine.BackendEntry{ID: "atspi", Status: "unavailable", Required: true, ReasonCode: ReasonAtspiBusUnreachable}
	partial.Permissions = append(partial.Permissions, engine.Permission{Name: "accessibility", Status: "missing", ReasonCode: ReasonAtspiBusUnreachable})
	partial.Probes = []engine.Probe{{Label: "display server", Status: "ok", Message: "X11 :0"}}

	tests := []struct {
		name string
		reg  engine.Registry
	}{
		{"ready", readyRegistry()},
		{"atspi missing", partial},
		{"no display", downRegistry("none", ReasonDisplayUnreachable)},
		{"wayland", downRegistry("wayland", ReasonWaylandSessionUnsupported)},
		{"not built", downRegistry("x11", ReasonNotBuilt)},
		{"empty registry", engine.Registry{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(Build(tt.reg))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.ValidateDoctor(json.RawMessage(raw)); err != nil {
				t.Errorf("%v\n%s", err, raw)
			}
		})
	}
}

// The schema must be able to refuse: a report that breaks the contract's
// rules is caught.
func TestTheDoctorSchemaRefusesBrokenReports(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(m map[string]any)
	}{
		{"ok differs from ready", func(m map[string]any) { m["ok"] = !m["ready"].(bool) }},
		{"missing network", func(m map[string]any) { delete(m, "network") }},
		{"telemetry on", func(m map[string]any) { m["network"].(map[string]any)["telemetry"] = true }},
		{"a step with neither backend nor permission", func(m map[string]any) {
			m["next_steps"] = []any{map[string]any{"reason_code": "not_built", "required": true, "action": "Do it."}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := json.Marshal(Build(downRegistry("none", ReasonDisplayUnreachable)))
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			tt.break_(m)
			if err := schema.ValidateDoctor(m); err == nil {
				t.Error("the broken report validated")
			}
		})
	}
}
