package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// Registry reports one required backend, "mock", and the contract's
// capabilities: everything available (with the consent kind each takes)
// except the three notification commands, which are unsupported with
// no_platform_api as on X11. Accessibility is granted and screen capture is
// not_applicable. A switched-off desktop reports the backend and every
// capability unavailable (display_unreachable) and accessibility missing.
func (d *Desktop) Registry(ctx context.Context) engine.Registry {
	i := d.record(Call{Method: "Registry"})
	defer d.finish(i, nil)
	d.mu.Lock()
	off := d.unavailable
	d.mu.Unlock()

	reg := engine.Registry{SessionType: "mock"}
	status, reason, action := "available", "", ""
	if off {
		status, reason = "unavailable", "display_unreachable"
		action = "The mock desktop is switched off; switch it back on in the test that uses it."
	}
	reg.Backends = []engine.BackendEntry{{ID: "mock", Status: status, Required: true, ReasonCode: reason, Action: action}}
	for _, c := range capabilityConsent {
		capab := engine.Capability{Name: c.name, Status: status, ReasonCode: reason, Action: action, Consent: c.consent}
		if c.unsupported {
			capab.Status, capab.ReasonCode = "unsupported", "no_platform_api"
			capab.Action = "This platform gives no way to do this."
		}
		reg.Capabilities = append(reg.Capabilities, capab)
	}
	access := engine.Permission{Name: "accessibility", Status: "granted"}
	if off {
		access = engine.Permission{Name: "accessibility", Status: "missing", ReasonCode: reason, Action: action}
	}
	reg.Permissions = []engine.Permission{access, {Name: "screen_capture", Status: "not_applicable"}}
	probe := engine.Probe{Label: "mock desktop", Status: "ok", Message: "in-memory desktop"}
	if off {
		probe.Status, probe.Message = "fail", "switched off"
	}
	reg.Probes = []engine.Probe{probe}
	if !off {
		d.mu.Lock()
		reg.Probes = append(reg.Probes, engine.SwitchProbe(d.a11yOn, nil))
		reg.Probes = append(reg.Probes, engine.QtBusProbe(d.qtBusState()))
		reg.Probes = append(reg.Probes, d.emptyTreeProbes()...)
		d.mu.Unlock()
	}
	return reg
}

// capabilityConsent lists the contract's capabilities in its order, with
// the consent each takes.
var capabilityConsent = []struct {
	name        string
	consent     string
	unsupported bool
}{
	{"read_tree", "session", false},
	{"act_semantic", "session", false},
	{"capture_window", "session", false},
	{"input_takeover", "takeover", false},
	{"takeover_indicator", "takeover", false},
	{"takeover_handback", "takeover", false},
	{"list_notifications", "session", true},
	{"dismiss_notification", "session", true},
	{"invoke_notification_action", "session", true},
	{"clipboard_read", "separate", false},
	{"clipboard_write", "session", false},
}
