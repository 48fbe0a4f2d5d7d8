package engine

import "slices"

// The capability table (docs/contract.md#capabilities): every capability
// once, with the consent it takes and the parts of the desktop it rests
// on. It is the only list of capabilities; the backends report their parts
// (readiness.go) and Registry.Capabilities derives each capability's status
// from them, for the doctor, health_report and the manifest alike.

// Consent kinds, as the wire spells them.
const (
	ConsentSession  = "session"  // the app consent of start_session
	ConsentTakeover = "takeover" // its own line in the consent dialog
	// ConsentSeparate: its own line in the dialog plus the host's approval
	// on every call.
	ConsentSeparate     = "separate"
	ConsentHostApproval = "host_approval" // the host's approval alone
)

// Parts of the desktop a capability rests on. A backend reports each one,
// as a registry entry (BackendEntry) or as a feature (Feature).
const (
	// PartX11 is the X display, with the X-Resource extension that ties
	// windows to the processes consent is given to.
	PartX11 = "x11"
	// PartAtspi is the accessibility bus the apps' trees are read over.
	PartAtspi = "atspi"
	// PartXInput2 is XInput 2.1's raw events, by which the driver hears
	// the person take control back.
	PartXInput2 = "xinput2"
	// PartXTest is the XTEST extension, which sends synthetic input.
	PartXTest = "xtest"
	// PartCapture is the desktop's way to capture one window's own
	// pixels: the Composite extension on X11, the compositor's screen
	// cast on a Wayland session.
	PartCapture = "window_capture"
	// PartShape is the SHAPE extension, which lets clicks through the
	// takeover indicator.
	PartShape = "shape"
	// PartNotifications is the platform's way to list and act on other
	// apps' notifications (none on X11).
	PartNotifications = "notifications"
)

// CapabilitySpec is one row of the capability table.
type CapabilitySpec struct {
	Name    string // the wire name
	Consent string // one of the Consent kinds
	// RestsOn lists every part the capability uses, the parts it is about
	// first and the X display, which every X capability needs too, last:
	// the first that is not available gives the capability's status and
	// reason, so the reason is the most particular one (a capture names
	// the missing Composite or screen cast; the display's own absence is named on its
	// entry and makes the driver not ready anyway).
	RestsOn []string
}

// capabilityTable is in the contract's order, which is the wire's.
var capabilityTable = []CapabilitySpec{
	{Name: "read_tree", Consent: ConsentSession, RestsOn: []string{PartAtspi, PartX11}},
	{Name: "act_semantic", Consent: ConsentSession, RestsOn: []string{PartAtspi, PartX11}},
	{Name: "capture_window", Consent: ConsentSession, RestsOn: []string{PartCapture, PartX11}},
	// A takeover must hear the person take control back, sends input
	// with XTEST and shows the click-through indicator: it is available
	// only with hand-back (docs/contract.md#capabilities).
	{Name: "input_takeover", Consent: ConsentTakeover, RestsOn: []string{PartXInput2, PartXTest, PartShape, PartX11}},
	{Name: "takeover_indicator", Consent: ConsentTakeover, RestsOn: []string{PartShape, PartX11}},
	{Name: "takeover_handback", Consent: ConsentTakeover, RestsOn: []string{PartXInput2, PartX11}},
	{Name: "list_notifications", Consent: ConsentSession, RestsOn: []string{PartNotifications}},
	{Name: "dismiss_notification", Consent: ConsentSession, RestsOn: []string{PartNotifications}},
	{Name: "invoke_notification_action", Consent: ConsentSession, RestsOn: []string{PartNotifications}},
	{Name: "clipboard_read", Consent: ConsentSeparate, RestsOn: []string{PartX11}},
	{Name: "clipboard_write", Consent: ConsentSession, RestsOn: []string{PartX11}},
}

// CapabilityTable returns the table's rows, in the wire's order. The
// caller may change what it gets.
func CapabilityTable() []CapabilitySpec {
	out := make([]CapabilitySpec, len(capabilityTable))
	for i, c := range capabilityTable {
		c.RestsOn = slices.Clone(c.RestsOn)
		out[i] = c
	}
	return out
}

// CapabilityParts lists every part the table names, each once, in the
// order the rows first name them: what a backend has to report.
func CapabilityParts() []string {
	var out []string
	for _, c := range capabilityTable {
		for _, p := range c.RestsOn {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// notBuilt is the reason (docs/contract.md#reason-codes) of a capability
// resting on a part the backend does not report: the part is not in it.
const notBuilt = "not_built"

// Capabilities derives every capability of the table from the parts the
// registry reports, in the table's order. A capability is available when
// every part it rests on is; otherwise the first part that is not gives
// its status (unavailable, unsupported or planned), reason and action. A
// part the backend does not report counts as unavailable, not_built.
func (r Registry) Capabilities() []Capability {
	out := make([]Capability, 0, len(capabilityTable))
	for _, spec := range capabilityTable {
		c := Capability{Name: spec.Name, Status: StatusAvailable, Consent: spec.Consent, RestsOn: slices.Clone(spec.RestsOn)}
		for _, id := range spec.RestsOn {
			p, ok := r.part(id)
			if !ok {
				p = Feature{ID: id, Status: StatusUnavailable, ReasonCode: notBuilt}
			}
			if p.Status != StatusAvailable {
				c.Status, c.ReasonCode, c.Action = p.Status, p.ReasonCode, p.Action
				break
			}
		}
		out = append(out, c)
	}
	return out
}
