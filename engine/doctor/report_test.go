package doctor

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func ptr(s string) *string { return &s }

func TestNextStepsMerging(t *testing.T) {
	atspiAction := "Turn accessibility on."
	tests := []struct {
		name     string
		backends []engine.BackendEntry
		perms    []engine.Permission
		want     []NextStep
	}{
		{
			name:     "everything available gives no step",
			backends: []engine.BackendEntry{{ID: "x11", Status: "available", Required: true}},
			perms:    []engine.Permission{{Name: "accessibility", Status: "granted"}},
			want:     []NextStep{},
		},
		{
			name: "a missing permission joins the backend step with the same reason",
			backends: []engine.BackendEntry{
				{ID: "x11", Status: "available", Required: true},
				{ID: "atspi", Status: "unavailable", Required: true, ReasonCode: ReasonAtspiBusUnreachable, Action: atspiAction},
			},
			perms: []engine.Permission{{Name: "accessibility", Status: "missing", ReasonCode: ReasonAtspiBusUnreachable, Action: "other words"}},
			want:  []NextStep{{ReasonCode: ReasonAtspiBusUnreachable, Backend: ptr("atspi"), Permission: ptr("accessibility"), Required: true, Action: atspiAction}},
		},
		{
			name: "two backends with one reason give one step, required when either is",
			backends: []engine.BackendEntry{
				{ID: "xinput2", Status: "unavailable", Required: false, ReasonCode: ReasonDisplayUnreachable},
				{ID: "x11", Status: "unavailable", Required: true, ReasonCode: ReasonDisplayUnreachable},
			},
			want: []NextStep{{ReasonCode: ReasonDisplayUnreachable, Backend: ptr("xinput2"), Required: true, Action: Action(ReasonDisplayUnreachable)}},
		},
		{
			name:     "a permission with its own reason gets its own step, not required",
			backends: []engine.BackendEntry{{ID: "x11", Status: "unavailable", Required: true, ReasonCode: ReasonXTestMissing, Action: "a"}},
			perms:    []engine.Permission{{Name: "accessibility", Status: "missing", ReasonCode: ReasonAtspiBusNotAdvertised, Action: "b"}},
			want: []NextStep{
				{ReasonCode: ReasonXTestMissing, Backend: ptr("x11"), Required: true, Action: "a"},
				{ReasonCode: ReasonAtspiBusNotAdvertised, Permission: ptr("accessibility"), Action: "b"},
			},
		},
		{
			name: "planned backends and non-missing permissions give no step",
			backends: []engine.BackendEntry{
				{ID: WaylandPortalID, Status: "planned", ReasonCode: ReasonWaylandPortalNotBuilt},
			},
			perms: []engine.Permission{
				{Name: "screen_capture", Status: "not_applicable"},
				{Name: "accessibility", Status: "granted"},
			},
			want: []NextStep{},
		},
		{
			name:     "an optional backend alone is not required",
			backends: []engine.BackendEntry{{ID: "xinput2", Status: "unavailable", ReasonCode: ReasonXInput2Missing}},
			want:     []NextStep{{ReasonCode: ReasonXInput2Missing, Backend: ptr("xinput2"), Action: Action(ReasonXInput2Missing)}},
		},
		{
			name: "two missing permissions with one reason share a step",
			perms: []engine.Permission{
				{Name: "accessibility", Status: "missing", ReasonCode: ReasonPortalUnavailable},
				{Name: "screen_capture", Status: "missing", ReasonCode: ReasonPortalUnavailable},
			},
			want: []NextStep{{ReasonCode: ReasonPortalUnavailable, Permission: ptr("accessibility"), Action: Action(ReasonPortalUnavailable)}},
		},
		{
			name:     "an unavailable backend without a reason is reported as not_built",
			backends: []engine.BackendEntry{{ID: "x11", Status: "unavailable", Required: true}},
			want:     []NextStep{{ReasonCode: ReasonNotBuilt, Backend: ptr("x11"), Required: true, Action: Action(ReasonNotBuilt)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NextSteps(tt.backends, tt.perms)
			if !reflect.DeepEqual(got, tt.want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(tt.want)
				t.Errorf("NextSteps:\n got  %s\n want %s", g, w)
			}
		})
	}
}

// The report's readiness is the registry's own (engine.Registry.Ready,
// tested there); ok repeats it.
func TestBuildTakesReadinessFromTheRegistry(t *testing.T) {
	notReady := readyRegistry()
	notReady.Backends[1].Status, notReady.Backends[1].ReasonCode = "unavailable", ReasonAtspiBusUnreachable
	tests := []struct {
		name string
		reg  engine.Registry
		want bool
	}{
		{"ready", readyRegistry(), true},
		{"a required entry unavailable", notReady, false},
		{"empty registry", engine.Registry{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.reg.Ready() != tt.want {
				t.Fatalf("the registry's Ready = %v, want %v", tt.reg.Ready(), tt.want)
			}
			if r := Build(tt.reg); r.Ready != tt.want || r.OK != tt.want {
				t.Errorf("Build: ready %v ok %v, want %v", r.Ready, r.OK, tt.want)
			}
		})
	}
}

// readyRegistry is a registry where the desktop is fully reachable: every
// part the capability table names is available but the notification API,
// which the platform lacks.
func readyRegistry() engine.Registry {
	reg := engine.Registry{
		SessionType: "x11",
		Backends: []engine.BackendEntry{
			{ID: "x11", Status: "available", Required: true},
			{ID: "atspi", Status: "available", Required: true},
		},
		Permissions: []engine.Permission{{Name: "screen_capture", Status: "not_applicable"}},
	}
	for _, id := range engine.CapabilityParts() {
		if id == "x11" || id == "atspi" {
			continue // entries
		}
		f := engine.Feature{ID: id, Status: "available"}
		if id == engine.PartNotifications {
			f = engine.Feature{ID: id, Status: "unsupported", ReasonCode: ReasonNoPlatformAPI}
		}
		reg.Features = append(reg.Features, f)
	}
	return reg
}

// downRegistry is a registry where the desktop cannot be reached for
// reason, and no session bus answers: every part is unavailable but the
// notification API, which the platform lacks.
func downRegistry(sessionType, reason string) engine.Registry {
	reg := engine.Registry{
		SessionType: sessionType,
		Backends: []engine.BackendEntry{
			{ID: "x11", Status: "unavailable", Required: true, ReasonCode: reason, Action: Action(reason)},
			{ID: "atspi", Status: "unavailable", Required: true, ReasonCode: ReasonAtspiBusUnreachable, Action: Action(ReasonAtspiBusUnreachable)},
			{ID: "xinput2", Status: "unavailable", ReasonCode: reason, Action: Action(reason)},
		},
		Permissions: []engine.Permission{
			{Name: "accessibility", Status: "missing", ReasonCode: ReasonAtspiBusUnreachable, Action: Action(ReasonAtspiBusUnreachable)},
			{Name: "screen_capture", Status: "not_applicable"},
		},
		Probes: []engine.Probe{{Label: "display server", Status: "fail", Message: "DISPLAY is not set"}},
	}
	for _, id := range engine.CapabilityParts() {
		switch id {
		case "x11", "atspi", "xinput2":
			continue // entries
		case engine.PartNotifications:
			reg.Features = append(reg.Features, engine.Feature{ID: id, Status: "unsupported", ReasonCode: ReasonNoPlatformAPI})
		default:
			reg.Features = append(reg.Features, engine.Feature{ID: id, Status: "unavailable", ReasonCode: reason})
		}
	}
	return reg
}

func TestBuildWritesNullsNotMissingKeys(t *testing.T) {
	r := Build(readyRegistry())
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Backends     []map[string]any `json:"backends"`
		Capabilities []map[string]any `json:"capabilities"`
		Permissions  []map[string]any `json:"permissions"`
		NextSteps    []map[string]any `json:"next_steps"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	checkNull := func(where string, m map[string]any, key string, wantNull bool) {
		t.Helper()
		v, ok := m[key]
		if !ok {
			t.Errorf("%s: key %q missing in %v", where, key, m)
			return
		}
		if (v == nil) != wantNull {
			t.Errorf("%s: %q = %v, want null %v", where, key, v, wantNull)
		}
	}
	for _, b := range doc.Backends {
		avail := b["status"] == "available"
		checkNull("backend "+b["id"].(string), b, "reason_code", avail)
		checkNull("backend "+b["id"].(string), b, "action", avail)
	}
	for _, c := range doc.Capabilities {
		avail := c["status"] == "available"
		checkNull("capability "+c["name"].(string), c, "reason_code", avail)
		checkNull("capability "+c["name"].(string), c, "action", avail)
	}
	if len(doc.Permissions) != 1 {
		t.Fatalf("permissions = %v", doc.Permissions)
	}
	checkNull("permission", doc.Permissions[0], "reason_code", true)
	checkNull("permission", doc.Permissions[0], "action", true)
	if doc.NextSteps == nil || len(doc.NextSteps) != 0 {
		t.Errorf("next_steps = %v, want an empty array", doc.NextSteps)
	}
	for _, key := range []string{`"next_steps":[]`, `"probes":[`, `"network":{"code_paths":"none","telemetry":false,"update_check":false}`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("report lacks %s: %s", key, raw)
		}
	}
}

func TestStepsLeaveOutTheAbsentSide(t *testing.T) {
	reg := engine.Registry{
		SessionType: "x11",
		Backends:    []engine.BackendEntry{{ID: "x11", Status: "unavailable", Required: true, ReasonCode: ReasonXTestMissing}},
		Permissions: []engine.Permission{{Name: "accessibility", Status: "missing", ReasonCode: ReasonAtspiBusNotAdvertised}},
	}
	raw, _ := json.Marshal(Build(reg))
	var doc struct {
		NextSteps []map[string]any `json:"next_steps"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.NextSteps) != 2 {
		t.Fatalf("next_steps = %v", doc.NextSteps)
	}
	if v, ok := doc.NextSteps[0]["permission"]; ok {
		t.Errorf("backend-only step carries permission %v", v)
	}
	if doc.NextSteps[0]["backend"] != "x11" {
		t.Errorf("backend-only step: backend = %v", doc.NextSteps[0]["backend"])
	}
	if v, ok := doc.NextSteps[1]["backend"]; ok {
		t.Errorf("permission-only step carries backend %v", v)
	}
	if doc.NextSteps[1]["permission"] != "accessibility" {
		t.Errorf("permission-only step: permission = %v", doc.NextSteps[1]["permission"])
	}
}

func TestBuildHeader(t *testing.T) {
	r := Build(engine.Registry{})
	if r.Schema != "nish-driver/doctor" || r.SchemaVersion != 2 || r.Platform != "linux" {
		t.Errorf("header = %q %d %q", r.Schema, r.SchemaVersion, r.Platform)
	}
	if r.DriverVersion != engine.DriverVersion || r.ContractVersion != "0.8.0" {
		t.Errorf("versions = %q %q", r.DriverVersion, r.ContractVersion)
	}
	if r.SessionType != "none" {
		t.Errorf("empty session type reported as %q, want none", r.SessionType)
	}
	if r.Network != (Network{CodePaths: "none"}) {
		t.Errorf("network = %+v", r.Network)
	}
}

func TestWaylandPortalEntry(t *testing.T) {
	t.Run("added when the registry lacks it", func(t *testing.T) {
		reg := readyRegistry()
		r := Build(reg)
		last := r.Backends[len(r.Backends)-1]
		if last.ID != WaylandPortalID || last.Status != "planned" || last.Required {
			t.Fatalf("last backend = %+v", last)
		}
		if last.ReasonCode == nil || *last.ReasonCode != "wayland_portal_not_built" {
			t.Errorf("reason = %v", last.ReasonCode)
		}
		if last.Action == nil || !strings.HasSuffix(*last.Action, ".") {
			t.Errorf("action = %v, want a sentence", last.Action)
		}
		if !r.Ready {
			t.Error("a planned optional backend made the report not ready")
		}
		if len(reg.Backends) != 2 {
			t.Error("Build changed the caller's registry")
		}
	})
	t.Run("kept once when the registry has it", func(t *testing.T) {
		reg := readyRegistry()
		reg.Backends = append(reg.Backends, engine.BackendEntry{ID: WaylandPortalID, Status: "planned", ReasonCode: ReasonWaylandPortalNotBuilt, Action: "Own words."})
		r := Build(reg)
		n := 0
		for _, b := range r.Backends {
			if b.ID == WaylandPortalID {
				n++
				if *b.Action != "Own words." {
					t.Errorf("the registry's own entry was replaced: %v", *b.Action)
				}
			}
		}
		if n != 1 {
			t.Errorf("%d wayland-portal entries", n)
		}
	})
}

func TestBuildFillsMissingActions(t *testing.T) {
	reg := engine.Registry{Backends: []engine.BackendEntry{{ID: "atspi", Status: "unavailable", Required: true, ReasonCode: ReasonAtspiBusUnreachable}}}
	r := Build(reg)
	if a := r.Backends[0].Action; a == nil || *a != Action(ReasonAtspiBusUnreachable) {
		t.Errorf("action = %v", a)
	}
}

func TestEveryReasonHasAnAction(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Reasons() {
		if seen[r] {
			t.Errorf("reason %s listed twice", r)
		}
		seen[r] = true
		a := Action(r)
		if a == "" || !strings.HasSuffix(a, ".") || strings.Contains(a, "\n") {
			t.Errorf("reason %s: action %q is not one sentence", r, a)
		}
	}
	if len(seen) != len(actions) || len(seen) != 18 {
		t.Errorf("%d reasons, %d actions; the contract lists 18", len(seen), len(actions))
	}
}

func TestProbesFallBackToBackends(t *testing.T) {
	r := Build(engine.Registry{Backends: []engine.BackendEntry{
		{ID: "x11", Status: "available", Required: true},
		{ID: "atspi", Status: "unavailable", Required: true, ReasonCode: ReasonAtspiBusUnreachable},
	}})
	want := []ProbeOut{
		{Label: "x11", Status: "ok", Message: "available"},
		{Label: "atspi", Status: "fail", Message: "unavailable: atspi_bus_unreachable"},
		{Label: WaylandPortalID, Status: "skip", Message: "planned: wayland_portal_not_built"},
		StopProbe,
	}
	if !reflect.DeepEqual(r.Probes, want) {
		t.Errorf("probes = %+v", r.Probes)
	}
	own := []engine.Probe{{Label: "display server", Status: "ok", Message: "X11 :0"}}
	r = Build(engine.Registry{Probes: own})
	if len(r.Probes) != 2 || r.Probes[0].Label != "display server" || r.Probes[1] != StopProbe {
		t.Errorf("own probes not kept, then the stop command: %+v", r.Probes)
	}
}

// Every report names `nish-driver stop`, the kill switch that works on
// every desktop, whatever the backend says about the key.
func TestEveryReportNamesTheStopCommand(t *testing.T) {
	for name, reg := range map[string]engine.Registry{
		"no probes":        {},
		"a key that works": {SessionType: "x11", Probes: []engine.Probe{{Label: "kill switch", Status: "ok", Message: "grabbed"}}},
		"wayland":          {SessionType: "wayland", Probes: []engine.Probe{{Label: "kill switch", Status: "fail", Message: "not here"}}},
	} {
		r := Build(reg)
		if last := r.Probes[len(r.Probes)-1]; last != StopProbe || !strings.Contains(Text(r), "nish-driver stop") {
			t.Errorf("%s: the report does not end with the stop command: %+v", name, r.Probes)
		}
	}
}
