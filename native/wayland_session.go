package native

import (
	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// A Wayland session usually has an X display too (Xwayland, for the apps
// that still speak X11), so the live backend opens it and works, but only
// on those apps: the Wayland apps, most of the desktop, have no X window
// and are never listed. Until the driver finds windows through the
// accessibility bus on Wayland, a backend on such a display must not say
// ready: its registry says the session is Wayland and why the display
// does not count.

// waylandSession tells, from the environment, whether the graphical
// session is Wayland, even when DISPLAY names an X display (Xwayland).
func waylandSession(getenv func(string) string) bool {
	return getenv("XDG_SESSION_TYPE") == "wayland" || getenv("WAYLAND_DISPLAY") != ""
}

// inWaylandSession is reg, a registry read on display inside a Wayland
// session: the session type wayland, and the x11 entry unavailable with
// the reason that says why (the apps on display are not the desktop's).
func inWaylandSession(reg engine.Registry, display string) engine.Registry {
	reg.SessionType = "wayland"
	backends := make([]engine.BackendEntry, 0, len(reg.Backends))
	for _, e := range reg.Backends {
		if e.ID == engine.PartX11 {
			e = entry(engine.PartX11, e.Required, false, doctor.ReasonWaylandSessionUnsupported)
		}
		backends = append(backends, e)
	}
	reg.Backends = backends
	reg.Probes = append([]engine.Probe{{Label: "session", Status: "fail",
		Message: "the session is Wayland: X11 " + display + " is Xwayland, which holds only some of the apps"}}, reg.Probes...)
	return reg
}
