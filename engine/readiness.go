package engine

// Readiness (docs/contract.md#registry): what a backend says about the
// parts of the desktop it rests on. A backend reports how each part stands
// and never lists capabilities: those follow from its parts through the
// one capability table (capabilities.go), so that the doctor,
// health_report and the manifest cannot disagree about them.

// Statuses of a part or a capability, as the wire spells them.
const (
	StatusAvailable   = "available"
	StatusUnavailable = "unavailable"
	// StatusUnsupported: the platform offers no way to do it at all; only
	// features and capabilities take it, never a registry entry.
	StatusUnsupported = "unsupported"
	StatusPlanned     = "planned"
)

// Registry is what a backend reports for the doctor report, health_report
// and the manifest (docs/contract.md#registry).
type Registry struct {
	SessionType string // x11, wayland, none, mock
	// Backends are the registry's entries: the parts a person is told
	// about, each required or not.
	Backends []BackendEntry
	// Features are the other parts capabilities rest on (an X extension,
	// the platform's notification API): they decide capabilities but are
	// no entries of their own.
	Features    []Feature
	Permissions []Permission
	Probes      []Probe
	// Desktop is what the backend found of the graphical session beyond
	// its type; empty where there is nothing more to say (X11, the mock).
	Desktop DesktopFacts
}

// DesktopFacts describe a Wayland session: who composites it and whether
// X11 apps (and the consent dialog) have an Xwayland to run on.
type DesktopFacts struct {
	// Compositor is the Wayland compositor found: CompositorMutter,
	// CompositorKWin, CompositorWlroots, CompositorOther, or "".
	Compositor string
	// Xwayland is Xwayland's display (":0"), "" when there is none.
	Xwayland string
}

// Compositors, as the doctor report spells them.
const (
	CompositorMutter  = "gnome-mutter"
	CompositorKWin    = "kde-kwin"
	CompositorWlroots = "sway-wlroots"
	CompositorOther   = "other"
)

// BackendEntry is one registry entry: a part of the desktop shown to the
// person, which capabilities may rest on too.
type BackendEntry struct {
	ID         string
	Status     string // available, unavailable, planned
	Required   bool
	ReasonCode string
	Action     string
}

// Feature is a part of the desktop that capabilities rest on and that is
// not a registry entry.
type Feature struct {
	ID         string
	Status     string // available, unavailable, unsupported, planned
	ReasonCode string
	Action     string
}

// Capability is one capability as derived from the registry's parts, and
// how it is consented.
type Capability struct {
	Name       string
	Status     string // available, unavailable, unsupported, planned
	ReasonCode string
	Action     string
	Consent    string // session, takeover, separate, host_approval
	RestsOn    []string
}

// Permission is one OS permission the driver needs.
type Permission struct {
	Name       string
	Status     string // granted, missing, not_applicable
	ReasonCode string
	Action     string
}

// Probe is one line of the doctor report's probes: what was checked and
// how it went (the contract keeps the field for readers of its 0.6 shape).
type Probe struct {
	Label   string
	Status  string // ok, fail, skip
	Message string
}

// Ready reports whether every required entry is available, which is what
// the contract calls ready. A registry with no required entry at all is not
// ready: nothing says the desktop can be reached.
func (r Registry) Ready() bool {
	required := 0
	for _, b := range r.Backends {
		if !b.Required {
			continue
		}
		required++
		if b.Status != StatusAvailable {
			return false
		}
	}
	return required > 0
}

// part finds how the part id stands: among the entries first, then among
// the features. ok is false when the backend does not report the part.
func (r Registry) part(id string) (f Feature, ok bool) {
	for _, b := range r.Backends {
		if b.ID == id {
			return Feature{ID: b.ID, Status: b.Status, ReasonCode: b.ReasonCode, Action: b.Action}, true
		}
	}
	for _, p := range r.Features {
		if p.ID == id {
			return p, true
		}
	}
	return Feature{}, false
}
