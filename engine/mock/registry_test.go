package mock

import (
	"testing"
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
	want := map[string][2]string{ // name -> status, consent
		"read_tree":                  {"available", "session"},
		"act_semantic":               {"available", "session"},
		"capture_window":             {"available", "session"},
		"input_takeover":             {"available", "takeover"},
		"takeover_indicator":         {"available", "takeover"},
		"takeover_handback":          {"available", "takeover"},
		"list_notifications":         {"unsupported", "session"},
		"dismiss_notification":       {"unsupported", "session"},
		"invoke_notification_action": {"unsupported", "session"},
		"clipboard_read":             {"available", "separate"},
		"clipboard_write":            {"available", "session"},
	}
	if len(reg.Capabilities) != len(want) {
		t.Fatalf("%d capabilities", len(reg.Capabilities))
	}
	for _, c := range reg.Capabilities {
		w, ok := want[c.Name]
		if !ok || c.Status != w[0] || c.Consent != w[1] {
			t.Errorf("capability %+v", c)
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
	for _, c := range reg.Capabilities {
		if c.Status == "available" {
			t.Errorf("switched-off capability %+v", c)
		}
	}
	if reg.Probes[0].Status != "fail" {
		t.Errorf("probe %+v", reg.Probes[0])
	}
}
