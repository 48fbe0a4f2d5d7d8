package mock

import (
	"slices"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func TestRegistry(t *testing.T) {
	d := New()
	reg := d.Registry(testCtx(t))
	if reg.SessionType != "mock" || len(reg.Backends) != 1 {
		t.Fatalf("registry %+v", reg)
	}
	if b := reg.Backends[0]; b.ID != "mock" || b.Status != "available" || !b.Required || b.ReasonCode != "" {
		t.Errorf("backend %+v", b)
	}
	// The mock stands in for every part but the notification API, so
	// each capability is as the table has it: available, with its
	// consent, unless it rests on notifications.
	caps, table := reg.Capabilities(), engine.CapabilityTable()
	if len(caps) != len(table) {
		t.Fatalf("%d capabilities, the table has %d", len(caps), len(table))
	}
	for i, c := range caps {
		want := "available"
		if slices.Contains(table[i].RestsOn, engine.PartNotifications) {
			want = "unsupported"
		}
		if c.Name != table[i].Name || c.Status != want || c.Consent != table[i].Consent {
			t.Errorf("capability %+v, want %s %s", c, want, table[i].Consent)
		}
		if (c.Status == "unsupported") != (c.ReasonCode == "no_platform_api") {
			t.Errorf("reason of %+v", c)
		}
	}
	perms := map[string]string{}
	for _, p := range reg.Permissions {
		perms[p.Name] = p.Status
	}
	if perms["accessibility"] != "granted" || perms["screen_capture"] != "not_applicable" {
		t.Errorf("permissions %+v", reg.Permissions)
	}
	// The desktop's own line, the accessibility switch's and the
	// AT_SPI_BUS check's; no app has an empty tree.
	if len(reg.Probes) != 3 || reg.Probes[0].Status != "ok" || reg.Probes[1].Status != "ok" || reg.Probes[2].Status != "ok" {
		t.Errorf("probes %+v", reg.Probes)
	}

	d.SetUnavailable(true)
	reg = d.Registry(testCtx(t))
	if b := reg.Backends[0]; b.Status != "unavailable" || b.ReasonCode == "" || b.Action == "" {
		t.Errorf("switched-off backend %+v", b)
	}
	for _, c := range reg.Capabilities() {
		if c.Status == "available" {
			t.Errorf("switched-off capability %+v", c)
		}
	}
	if reg.Probes[0].Status != "fail" {
		t.Errorf("probe %+v", reg.Probes[0])
	}
}
