// Package doctor builds the readiness report (docs/contract.md#doctor-report)
// from a backend's registry: the JSON a host's first-run wizard reads
// (`nish-driver doctor --json`) and the short text a person reads
// (`nish-driver doctor`). It only reshapes what the registry says; it never
// makes a network call and never reads app content.
package doctor

import (
	"github.com/nish-driver/nish-driver/engine"
)

// Schema names the report's JSON shape.
const Schema = "nish-driver/doctor"

// Platform is the only platform this driver is built for.
const Platform = "linux"

// WaylandPortalID is the registry entry the contract reserves for the planned
// Wayland backend (docs/contract.md#wayland).
const WaylandPortalID = "wayland-portal"

// Report is the doctor report (docs/contract.md#doctor-report). In backends,
// capabilities and permissions every key is always present: reason_code and
// action are JSON null rather than missing when they do not apply, so a
// reader can rely on the keys.
type Report struct {
	Schema          string                    `json:"schema"`
	SchemaVersion   int                       `json:"schema_version"`
	DriverVersion   string                    `json:"driver_version"`
	ContractVersion string                    `json:"contract_version"`
	Platform        string                    `json:"platform"`
	SessionType     string                    `json:"session_type"`
	Ready           bool                      `json:"ready"`
	Backends        []engine.RegistryEntryOut `json:"backends"`
	Capabilities    []engine.CapabilityOut    `json:"capabilities"`
	Permissions     []PermissionOut           `json:"permissions"`
	NextSteps       []NextStep                `json:"next_steps"`
	Network         Network                   `json:"network"`
	// Desktop names a Wayland session's compositor and Xwayland; left
	// out elsewhere.
	Desktop *DesktopOut `json:"desktop,omitempty"`
	// OK repeats Ready for readers of the older (schema 1) report.
	OK     bool       `json:"ok"`
	Probes []ProbeOut `json:"probes"`
}

// DesktopOut is the report's view of a Wayland session.
type DesktopOut struct {
	Compositor string  `json:"compositor"`
	Xwayland   *string `json:"xwayland"`
}

// desktopOut is nil where the registry has nothing to say.
func desktopOut(f engine.DesktopFacts) *DesktopOut {
	if f == (engine.DesktopFacts{}) {
		return nil
	}
	return &DesktopOut{Compositor: f.Compositor, Xwayland: nullable(f.Xwayland)}
}

// PermissionOut is one OS permission on the wire.
type PermissionOut struct {
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	ReasonCode *string `json:"reason_code"`
	Action     *string `json:"action"`
}

// NextStep is one thing the person must do, for one reason code. Backend and
// Permission name what that reason explains; at least one is set, and the
// other is left out when nothing of its kind is involved.
type NextStep struct {
	ReasonCode string  `json:"reason_code"`
	Backend    *string `json:"backend,omitempty"`
	Permission *string `json:"permission,omitempty"`
	Required   bool    `json:"required"`
	Action     string  `json:"action"`
}

// Network states what the driver does on the network: nothing.
type Network struct {
	CodePaths   string `json:"code_paths"`
	Telemetry   bool   `json:"telemetry"`
	UpdateCheck bool   `json:"update_check"`
}

// ProbeOut is one line of the older report's probe list.
type ProbeOut struct {
	Label   string `json:"label"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

// permMissing is the status of a permission the person has to grant.
const permMissing = "missing"

// Build turns a backend's registry into the doctor report. Readiness and
// the capabilities are the registry's own (engine.Registry.Ready and
// Capabilities); the doctor only writes them down. The planned
// wayland-portal entry is added when the registry does not carry it, so
// every report shows it as the contract reserves it.
func Build(reg engine.Registry) Report {
	backends := withWaylandPortal(reg.Backends)
	capabilities := reg.Capabilities()
	sessionType := reg.SessionType
	if sessionType == "" {
		sessionType = "none"
	}
	ready := reg.Ready()
	r := Report{
		Schema:          Schema,
		SchemaVersion:   engine.DoctorSchemaVersion,
		DriverVersion:   engine.DriverVersion,
		ContractVersion: engine.ContractVersion,
		Platform:        Platform,
		SessionType:     sessionType,
		Ready:           ready,
		Backends:        make([]engine.RegistryEntryOut, 0, len(backends)),
		Capabilities:    make([]engine.CapabilityOut, 0, len(capabilities)),
		Permissions:     make([]PermissionOut, 0, len(reg.Permissions)),
		NextSteps:       NextSteps(backends, reg.Permissions),
		Network:         Network{CodePaths: "none", Telemetry: false, UpdateCheck: false},
		Desktop:         desktopOut(reg.Desktop),
		OK:              ready,
		Probes:          probes(reg.Probes, backends),
	}
	for _, b := range backends {
		r.Backends = append(r.Backends, BackendOut(b))
	}
	for _, c := range capabilities {
		r.Capabilities = append(r.Capabilities, CapabilityOut(c))
	}
	for _, p := range reg.Permissions {
		r.Permissions = append(r.Permissions, PermissionOut{
			Name:       p.Name,
			Status:     p.Status,
			ReasonCode: nullable(p.ReasonCode),
			Action:     nullable(actionFor(p.ReasonCode, p.Action)),
		})
	}
	return r
}

// BackendOut renders one registry entry, with null reason and action when
// there are none. An entry that is not available but has no action of its
// own gets the fixed sentence of its reason.
func BackendOut(b engine.BackendEntry) engine.RegistryEntryOut {
	reason, action := reasonAndAction(b.Status, b.ReasonCode, b.Action)
	return engine.RegistryEntryOut{ID: b.ID, Status: b.Status, Required: b.Required, ReasonCode: reason, Action: action}
}

// CapabilityOut renders one capability, with null reason and action when
// there are none.
func CapabilityOut(c engine.Capability) engine.CapabilityOut {
	reason, action := reasonAndAction(c.Status, c.ReasonCode, c.Action)
	return engine.CapabilityOut{Name: c.Name, Status: c.Status, ReasonCode: reason, Action: action, Consent: c.Consent, RestsOn: c.RestsOn}
}

// reasonAndAction are an entry's reason code and action as the report
// writes them: null when there are none, and the reason's fixed sentence
// for an entry that is not available and has no action of its own.
func reasonAndAction(status, reason, action string) (*string, *string) {
	if status != engine.StatusAvailable {
		action = actionFor(reason, action)
	}
	return nullable(reason), nullable(action)
}

// withWaylandPortal appends the planned wayland-portal entry unless the
// registry already has one. It never changes the caller's slice.
func withWaylandPortal(in []engine.BackendEntry) []engine.BackendEntry {
	out := append([]engine.BackendEntry(nil), in...)
	for _, b := range out {
		if b.ID == WaylandPortalID {
			return out
		}
	}
	return append(out, engine.BackendEntry{
		ID:         WaylandPortalID,
		Status:     engine.StatusPlanned,
		Required:   false,
		ReasonCode: ReasonWaylandPortalNotBuilt,
		Action:     Action(ReasonWaylandPortalNotBuilt),
	})
}

// StopProbe is the report's last line: the kill switch every driver has,
// on every desktop and without one, beside the key the backend reports
// (which Wayland does not deliver to it).
var StopProbe = ProbeOut{Label: "kill switch command", Status: "ok",
	Message: "`nish-driver stop` ends every session and takeover of every nish-driver of this user; bind it to a keyboard shortcut (on Wayland it is the only kill switch)"}

// probes passes the backend's own probes through, then StopProbe; a
// backend that gives none gets one line per registry entry, so older
// readers still see something true.
func probes(in []engine.Probe, backends []engine.BackendEntry) []ProbeOut {
	return append(backendProbes(in, backends), StopProbe)
}

// backendProbes are the backend's probes, or one line per registry entry.
func backendProbes(in []engine.Probe, backends []engine.BackendEntry) []ProbeOut {
	out := make([]ProbeOut, 0, len(in)+len(backends)+1)
	for _, p := range in {
		out = append(out, ProbeOut{Label: p.Label, Status: p.Status, Message: p.Message})
	}
	if len(in) > 0 {
		return out
	}
	for _, b := range backends {
		p := ProbeOut{Label: b.ID, Status: "fail", Message: b.Status}
		switch b.Status {
		case engine.StatusAvailable:
			p.Status = "ok"
		case engine.StatusPlanned:
			p.Status = "skip"
		}
		if b.ReasonCode != "" {
			p.Message += ": " + b.ReasonCode
		}
		out = append(out, p)
	}
	return out
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func actionFor(reason, action string) string {
	if action != "" || reason == "" {
		return action
	}
	return Action(reason)
}
