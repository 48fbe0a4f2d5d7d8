package native

import (
	"strings"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// A Wayland session usually has an X display too (Xwayland, for the apps
// that still speak X11), so the live backend opens it: the consent dialog
// is shown there. But Xwayland holds only the X11 apps; the Wayland apps,
// most of the desktop, have no X window. So in a Wayland session the
// windows come from the accessibility bus, the X display serves the
// dialog alone, and what X gives on a whole X desktop (input, the
// person's input heard, captures) is not the desktop's: the registry says
// so, part by part.

// waylandSession tells, from the environment, whether the graphical
// session is Wayland, even when DISPLAY names an X display (Xwayland).
func waylandSession(getenv func(string) string) bool {
	return getenv("XDG_SESSION_TYPE") == "wayland" || getenv("WAYLAND_DISPLAY") != ""
}

// compositorOf names the session's compositor from what a session tells
// its apps: XDG_CURRENT_DESKTOP (GNOME, KDE, sway; a colon-separated
// list, as "ubuntu:GNOME") and sway's own SWAYSOCK.
func compositorOf(getenv func(string) string) string {
	for _, d := range strings.Split(getenv("XDG_CURRENT_DESKTOP"), ":") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "gnome", "gnome-classic", "gnome-flashback":
			return engine.CompositorMutter
		case "kde":
			return engine.CompositorKWin
		case "sway", "wlroots":
			return engine.CompositorWlroots
		}
	}
	if getenv("SWAYSOCK") != "" {
		return engine.CompositorWlroots
	}
	return engine.CompositorOther
}

// waylandDesktop is the registry's view of a Wayland session whose
// Xwayland is display ("" when there is none).
func waylandDesktop(getenv func(string) string, display string) engine.DesktopFacts {
	return engine.DesktopFacts{Compositor: compositorOf(getenv), Xwayland: display}
}

// waylandTakeoverParts are the parts a takeover rests on that a Wayland session
// does not give through Xwayland: synthetic input there reaches only X11
// windows, and the person's input over a Wayland window is never heard, so
// no hand-back could work. They wait for the input portal.
var waylandTakeoverParts = []string{engine.PartXTest, engine.PartShape}

// inWaylandSession is reg, a registry read on display inside a Wayland
// session, where the backend lists the windows from the accessibility bus
// (windows_wayland.go): the X display counts for what it does there,
// showing the consent dialog; captures rest on the compositor's screen
// cast (capture, with its probe: capture_wayland.go); takeover and
// hand-back wait for the input portal (wayland_portal_not_built).
func inWaylandSession(reg engine.Registry, display string, getenv func(string) string, capture engine.Feature, castProbe engine.Probe) engine.Registry {
	reg.SessionType = "wayland"
	reg.Desktop = waylandDesktop(getenv, display)
	notBuilt := doctor.ReasonWaylandPortalNotBuilt
	backends := make([]engine.BackendEntry, 0, len(reg.Backends))
	for _, e := range reg.Backends {
		if e.ID == engine.PartXInput2 {
			e = entry(engine.PartXInput2, false, false, notBuilt)
		}
		backends = append(backends, e)
	}
	reg.Backends = backends
	features := make([]engine.Feature, 0, len(reg.Features))
	for _, f := range reg.Features {
		switch {
		case f.ID == engine.PartCapture:
			f = capture
		case contains(waylandTakeoverParts, f.ID):
			f = feature(f.ID, false, notBuilt)
		}
		features = append(features, f)
	}
	reg.Features = features
	reg.Probes = append([]engine.Probe{{Label: "session", Status: "ok",
		Message: "Wayland (" + reg.Desktop.Compositor + "): the windows come from the accessibility bus; Xwayland " + display + " shows the consent dialog"},
		castProbe}, reg.Probes...)
	return reg
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
