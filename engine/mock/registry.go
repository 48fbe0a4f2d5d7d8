package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// Registry reports one required backend, "mock", which stands in for every
// part of the desktop the capability table names: each is reported as a
// feature with the desktop's own status, so every capability is available
// except the three notification commands, whose part is unsupported with
// no_platform_api as on X11, and any part SetPart set. Accessibility is granted and screen capture is
// not_applicable. A switched-off desktop reports the backend and every
// part unavailable (display_unreachable) and accessibility missing.
func (d *Desktop) Registry(ctx context.Context) engine.Registry {
	i := d.record(Call{Method: "Registry"})
	defer d.finish(i, nil)
	d.mu.Lock()
	off := d.unavailable
	set := make(map[string]engine.Feature, len(d.parts))
	for id, f := range d.parts {
		set[id] = f
	}
	d.mu.Unlock()

	reg := engine.Registry{SessionType: "mock"}
	status, reason, action := engine.StatusAvailable, "", ""
	if off {
		status, reason = engine.StatusUnavailable, "display_unreachable"
		action = "The mock desktop is switched off; switch it back on in the test that uses it."
	}
	reg.Backends = []engine.BackendEntry{{ID: "mock", Status: status, Required: true, ReasonCode: reason, Action: action}}
	for _, id := range engine.CapabilityParts() {
		part := engine.Feature{ID: id, Status: status, ReasonCode: reason, Action: action}
		if id == engine.PartNotifications {
			part = engine.Feature{ID: id, Status: engine.StatusUnsupported, ReasonCode: "no_platform_api",
				Action: "This platform gives no way to do this."}
		}
		if f, ok := set[id]; ok && !off {
			part = f
		}
		reg.Features = append(reg.Features, part)
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
