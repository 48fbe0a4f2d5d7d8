package engine_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// Every row of the capability table is well formed: a name once, a consent
// kind of the contract, and at least one part, each once.
func TestCapabilityTableRows(t *testing.T) {
	consents := []string{engine.ConsentSession, engine.ConsentTakeover, engine.ConsentSeparate, engine.ConsentHostApproval}
	parts := engine.CapabilityParts()
	seen := map[string]bool{}
	for _, c := range engine.CapabilityTable() {
		if c.Name == "" || seen[c.Name] {
			t.Errorf("capability %q is empty or listed twice", c.Name)
		}
		seen[c.Name] = true
		if !slices.Contains(consents, c.Consent) {
			t.Errorf("%s: consent %q is not a contract kind", c.Name, c.Consent)
		}
		if len(c.RestsOn) == 0 {
			t.Errorf("%s rests on no part", c.Name)
		}
		for i, p := range c.RestsOn {
			if slices.Contains(c.RestsOn[:i], p) {
				t.Errorf("%s names part %s twice", c.Name, p)
			}
			if !slices.Contains(parts, p) {
				t.Errorf("%s: part %s is missing from CapabilityParts %v", c.Name, p, parts)
			}
		}
	}
	for i, p := range parts {
		if slices.Contains(parts[:i], p) {
			t.Errorf("CapabilityParts lists %s twice", p)
		}
	}
	// The caller's copy is its own.
	mine := engine.CapabilityTable()
	mine[0].Name, mine[0].RestsOn[0] = "changed", "changed"
	if again := engine.CapabilityTable(); again[0].Name == "changed" || again[0].RestsOn[0] == "changed" {
		t.Error("changing CapabilityTable's result changed the table")
	}
}

// withParts is a registry whose parts are all features of one status, but
// those in set, which take the given feature.
func withParts(status string, set ...engine.Feature) engine.Registry {
	var reg engine.Registry
	for _, id := range engine.CapabilityParts() {
		f := engine.Feature{ID: id, Status: status}
		for _, s := range set {
			if s.ID == id {
				f = s
			}
		}
		reg.Features = append(reg.Features, f)
	}
	return reg
}

// capability finds a derived capability by name.
func capability(t *testing.T, reg engine.Registry, name string) engine.Capability {
	t.Helper()
	for _, c := range reg.Capabilities() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no capability %s", name)
	return engine.Capability{}
}

func TestCapabilitiesFollowTheirParts(t *testing.T) {
	noX := engine.BackendEntry{ID: engine.PartX11, Status: "unavailable", Required: true, ReasonCode: "display_unreachable", Action: "Start X."}
	noBus := engine.Feature{ID: engine.PartAtspi, Status: "unavailable", ReasonCode: "atspi_bus_unreachable", Action: "Turn it on."}
	tests := []struct {
		name       string
		reg        engine.Registry
		capability string
		want       engine.Capability // Name and Consent are the table's
	}{
		{"every part available", withParts("available"), "read_tree",
			engine.Capability{Status: "available"}},
		{"a part not available gives its status, reason and action", withParts("available", noBus), "act_semantic",
			engine.Capability{Status: "unavailable", ReasonCode: "atspi_bus_unreachable", Action: "Turn it on."}},
		{"the first part in the row's order names the reason",
			func() engine.Registry {
				r := withParts("available", noBus)
				r.Backends = []engine.BackendEntry{noX}
				return r
			}(), "read_tree",
			engine.Capability{Status: "unavailable", ReasonCode: "atspi_bus_unreachable", Action: "Turn it on."}},
		{"a later part counts when the first are available",
			func() engine.Registry { r := withParts("available"); r.Backends = []engine.BackendEntry{noX}; return r }(), "read_tree",
			engine.Capability{Status: "unavailable", ReasonCode: "display_unreachable", Action: "Start X."}},
		{"an entry is found before a feature of the same name",
			func() engine.Registry { r := withParts("available"); r.Backends = []engine.BackendEntry{noX}; return r }(), "clipboard_read",
			engine.Capability{Status: "unavailable", ReasonCode: "display_unreachable", Action: "Start X."}},
		{"an unsupported part makes it unsupported",
			withParts("available", engine.Feature{ID: engine.PartNotifications, Status: "unsupported", ReasonCode: "no_platform_api"}), "list_notifications",
			engine.Capability{Status: "unsupported", ReasonCode: "no_platform_api"}},
		{"a planned part makes it planned",
			withParts("available", engine.Feature{ID: engine.PartXInput2, Status: "planned", ReasonCode: "wayland_portal_not_built"}), "takeover_handback",
			engine.Capability{Status: "planned", ReasonCode: "wayland_portal_not_built"}},
		{"a part the backend does not report is not built", engine.Registry{}, "capture_window",
			engine.Capability{Status: "unavailable", ReasonCode: "not_built"}},
	}
	specs := map[string]engine.CapabilitySpec{}
	for _, c := range engine.CapabilityTable() {
		specs[c.Name] = c
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			spec := specs[tt.capability]
			want.Name, want.Consent, want.RestsOn = tt.capability, spec.Consent, spec.RestsOn
			if got := capability(t, tt.reg, tt.capability); !reflect.DeepEqual(got, want) {
				t.Errorf("%+v, want %+v", got, want)
			}
		})
	}
}

// Every registry gives every capability of the table, in its order.
func TestCapabilitiesAreTheTablesRows(t *testing.T) {
	for _, reg := range []engine.Registry{{}, withParts("available"), withParts("unavailable")} {
		caps, table := reg.Capabilities(), engine.CapabilityTable()
		if len(caps) != len(table) {
			t.Fatalf("%d capabilities, the table has %d", len(caps), len(table))
		}
		for i := range caps {
			if caps[i].Name != table[i].Name || caps[i].Consent != table[i].Consent {
				t.Errorf("capability %d is %s/%s, the table's %s/%s", i, caps[i].Name, caps[i].Consent, table[i].Name, table[i].Consent)
			}
		}
	}
}
