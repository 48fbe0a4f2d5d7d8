package native

import (
	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// unavailableRegistry is the registry of the Linux backend when the live
// one is not running: not built into the binary, or built and unable to
// start. No part is available; each names the first real obstacle the
// facts show (a Wayland session, no display, a remote display, a display
// that does not answer, no session bus) and only then not_built, for a
// binary without the live backend, so the person fixes what they can. A
// built backend that could not open a display that answers reports the
// display as unreachable, and its cause in the native backend's probe.
func unavailableRegistry(f desktopFacts) engine.Registry {
	x11Reason := doctor.ReasonNotBuilt
	if f.Built {
		x11Reason = doctor.ReasonDisplayUnreachable
	}
	displayProbe := engine.Probe{Label: "display server", Status: "ok", Message: "X11 " + f.Display + " answers"}
	switch {
	case f.Wayland && f.CompositorGone:
		// Not a session without Xwayland: no session at all any more.
		x11Reason = doctor.ReasonDisplayUnreachable
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "the session is Wayland and its compositor does not answer (it has ended, Xwayland with it), so the consent dialog cannot be shown"}
	case f.Wayland:
		// Xwayland is where the consent dialog shows; a Wayland session
		// without one that answers leaves the dialog nowhere to go.
		x11Reason = doctor.ReasonWaylandSessionUnsupported
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "the session is Wayland and no Xwayland answers, so the consent dialog cannot be shown"}
	case f.Display == "":
		x11Reason = doctor.ReasonDisplayUnreachable
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "DISPLAY is not set"}
	case !f.DisplayLocal:
		x11Reason = doctor.ReasonDisplayNotLocal
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "the display is not on this machine"}
	case !f.DisplayAnswers:
		x11Reason = doctor.ReasonDisplayUnreachable
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "X11 " + f.Display + " does not answer"}
	}
	// The built backend starts its accessibility part with the display, so
	// the display's obstacle is the accessibility bus's too.
	atspiReason := doctor.ReasonNotBuilt
	if f.Built {
		atspiReason = x11Reason
	}
	busProbe := engine.Probe{Label: "session bus", Status: "ok", Message: "the D-Bus session bus answers"}
	if !f.SessionBus {
		atspiReason = doctor.ReasonAtspiBusUnreachable
		busProbe = engine.Probe{Label: "session bus", Status: "fail", Message: "no D-Bus session bus answers"}
	}

	sessionType := "none"
	switch {
	case f.Wayland:
		sessionType = "wayland"
	case f.Display != "" && f.DisplayLocal && f.DisplayAnswers:
		sessionType = "x11"
	}

	var desk engine.DesktopFacts
	if f.Wayland {
		desk = engine.DesktopFacts{Compositor: f.Compositor}
	}
	reg := engine.Registry{
		SessionType: sessionType,
		Desktop:     desk,
		Backends: []engine.BackendEntry{
			entry(engine.PartX11, true, false, x11Reason),
			entry(engine.PartAtspi, true, false, atspiReason),
			entry(engine.PartXInput2, false, false, x11Reason),
		},
		Permissions: []engine.Permission{
			// X11 has no OS-level grant for capture or input.
			{Name: "screen_capture", Status: "not_applicable"},
		},
		Probes: []engine.Probe{
			displayProbe,
			busProbe,
			nativeProbe(f),
		},
	}
	if !f.SessionBus {
		// Without a session bus the accessibility bus cannot be found, which
		// is what a person fixes by turning assistive technologies on.
		reg.Permissions = append([]engine.Permission{{
			Name: "accessibility", Status: "missing", ReasonCode: doctor.ReasonAtspiBusUnreachable, Action: doctor.Action(doctor.ReasonAtspiBusUnreachable),
		}}, reg.Permissions...)
	}
	// The live backend's features (parts.go) are X extensions, lost with
	// the display, and the notification API Linux does not have at all.
	_, _, live := displayParts(xlib.Extensions{})
	for _, f := range live {
		if f.ID != engine.PartNotifications {
			f = feature(f.ID, false, x11Reason)
		}
		reg.Features = append(reg.Features, f)
	}
	return reg
}

// nativeProbe says whether the binary holds the live backend and, if it
// does, why it did not start.
func nativeProbe(f desktopFacts) engine.Probe {
	if !f.Built {
		return engine.Probe{Label: "native backend", Status: "fail", Message: "not built into this binary"}
	}
	msg := "built into this binary; it could not start"
	if f.Lost {
		msg = "built into this binary; it started and then lost its display"
	}
	if f.Cause != "" {
		msg += ": " + f.Cause
	}
	return engine.Probe{Label: "native backend", Status: "fail", Message: msg}
}
