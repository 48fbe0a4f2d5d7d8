package doctor

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// Facts are what can be learned about the desktop without the native
// backend: environment variables and whether the display's and the session
// bus's sockets accept a connection, and why the backend did not start.
// They let a driver whose native backend is not running (not built into
// the binary, or unable to open the display) tell the person the real
// first obstacle.
type Facts struct {
	// Display is the X display name (DISPLAY or --display); "" when unset.
	Display string
	// DisplayLocal: the display is on this machine (no host part).
	DisplayLocal bool
	// DisplayAnswers: the display's socket accepted a connection.
	DisplayAnswers bool
	// Wayland: the graphical session is a Wayland session.
	Wayland bool
	// SessionBus: the D-Bus session bus (where the accessibility bus is
	// announced) accepted a connection.
	SessionBus bool
	// Built: the binary holds the native backend (it was built with cgo),
	// which then could not start.
	Built bool
	// Cause is why the built backend could not start, in the driver's
	// own words (its error), for the doctor's probe.
	Cause string
}

// DialTimeout bounds each socket probe of GatherFacts.
const DialTimeout = 300 * time.Millisecond

// GatherFacts probes the environment. display overrides DISPLAY when not
// empty; getenv is os.Getenv outside tests.
func GatherFacts(display string, getenv func(string) string) Facts {
	if getenv == nil {
		getenv = os.Getenv
	}
	if display == "" {
		display = getenv("DISPLAY")
	}
	f := Facts{Display: display}
	f.Wayland = getenv("XDG_SESSION_TYPE") == "wayland" || getenv("WAYLAND_DISPLAY") != ""
	if display != "" {
		sockets, local := displaySockets(display)
		f.DisplayLocal = local
		for _, s := range sockets {
			if answers("unix", s) {
				f.DisplayAnswers = true
				break
			}
		}
	}
	for _, s := range sessionBusSockets(getenv) {
		if answers("unix", s) {
			f.SessionBus = true
			break
		}
	}
	return f
}

// displaySockets returns the unix sockets a local display listens on
// (filesystem and abstract), and whether the display is local at all.
func displaySockets(display string) (sockets []string, local bool) {
	colon := strings.LastIndex(display, ":")
	if colon < 0 {
		return nil, false
	}
	host, rest := display[:colon], display[colon+1:]
	if strings.HasPrefix(host, "/") { // a socket path (launchd style)
		return []string{display[:colon]}, true
	}
	if host != "" && host != "unix" {
		return nil, false
	}
	num, _, _ := strings.Cut(rest, ".")
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return nil, true
	}
	path := "/tmp/.X11-unix/X" + num
	return []string{path, "@" + path}, true
}

// sessionBusSockets lists the unix sockets of the session bus addresses.
func sessionBusSockets(getenv func(string) string) []string {
	var out []string
	for _, addr := range strings.Split(getenv("DBUS_SESSION_BUS_ADDRESS"), ";") {
		transport, params, ok := strings.Cut(addr, ":")
		if !ok || transport != "unix" {
			continue
		}
		for _, kv := range strings.Split(params, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "path":
				out = append(out, v)
			case "abstract":
				out = append(out, "@"+v)
			}
		}
	}
	if rt := getenv("XDG_RUNTIME_DIR"); rt != "" && len(out) == 0 {
		out = append(out, filepath.Join(rt, "bus"))
	}
	return out
}

func answers(network, addr string) bool {
	c, err := net.DialTimeout(network, addr, DialTimeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Unavailable is the registry of a driver whose native Linux backend is not
// running: not built into the binary, or built and unable to start. Nothing
// is available; each entry names the first real obstacle the facts show (a
// Wayland session, no display, a remote display, a display that does not
// answer, no session bus) and only then not_built, for a binary without the
// backend, so the person fixes what they can. A built backend that could
// not open a display that answers reports the display as unreachable, and
// its cause in the native backend's probe.
func Unavailable(f Facts) engine.Registry {
	x11Reason := ReasonNotBuilt
	if f.Built {
		x11Reason = ReasonDisplayUnreachable
	}
	displayProbe := engine.Probe{Label: "display server", Status: "ok", Message: "X11 " + f.Display + " answers"}
	switch {
	case f.Wayland:
		x11Reason = ReasonWaylandSessionUnsupported
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "the session is Wayland"}
	case f.Display == "":
		x11Reason = ReasonDisplayUnreachable
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "DISPLAY is not set"}
	case !f.DisplayLocal:
		x11Reason = ReasonDisplayNotLocal
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "the display is not on this machine"}
	case !f.DisplayAnswers:
		x11Reason = ReasonDisplayUnreachable
		displayProbe = engine.Probe{Label: "display server", Status: "fail", Message: "X11 " + f.Display + " does not answer"}
	}
	// The built backend starts its accessibility part with the display, so
	// the display's obstacle is the accessibility bus's too.
	atspiReason := ReasonNotBuilt
	if f.Built {
		atspiReason = x11Reason
	}
	busProbe := engine.Probe{Label: "session bus", Status: "ok", Message: "the D-Bus session bus answers"}
	if !f.SessionBus {
		atspiReason = ReasonAtspiBusUnreachable
		busProbe = engine.Probe{Label: "session bus", Status: "fail", Message: "no D-Bus session bus answers"}
	}

	sessionType := "none"
	switch {
	case f.Wayland:
		sessionType = "wayland"
	case f.Display != "" && f.DisplayLocal && f.DisplayAnswers:
		sessionType = "x11"
	}

	reg := engine.Registry{
		SessionType: sessionType,
		Backends: []engine.BackendEntry{
			{ID: engine.PartX11, Status: engine.StatusUnavailable, Required: true, ReasonCode: x11Reason, Action: Action(x11Reason)},
			{ID: engine.PartAtspi, Status: engine.StatusUnavailable, Required: true, ReasonCode: atspiReason, Action: Action(atspiReason)},
			{ID: engine.PartXInput2, Status: engine.StatusUnavailable, Required: false, ReasonCode: x11Reason, Action: Action(x11Reason)},
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
			Name: "accessibility", Status: permMissing, ReasonCode: ReasonAtspiBusUnreachable, Action: Action(ReasonAtspiBusUnreachable),
		}}, reg.Permissions...)
	}
	// Every other part the capabilities rest on is an X extension, lost
	// with the display, except the notification API Linux does not have.
	for _, id := range engine.CapabilityParts() {
		switch id {
		case engine.PartX11, engine.PartAtspi, engine.PartXInput2: // entries above
		case engine.PartNotifications:
			reg.Features = append(reg.Features, engine.Feature{ID: id, Status: engine.StatusUnsupported, ReasonCode: ReasonNoPlatformAPI, Action: Action(ReasonNoPlatformAPI)})
		default:
			reg.Features = append(reg.Features, engine.Feature{ID: id, Status: engine.StatusUnavailable, ReasonCode: x11Reason, Action: Action(x11Reason)})
		}
	}
	return reg
}

// nativeProbe says whether the binary holds the native backend and, if it
// does, why it did not start.
func nativeProbe(f Facts) engine.Probe {
	if !f.Built {
		return engine.Probe{Label: "native backend", Status: "fail", Message: "not built into this binary"}
	}
	msg := "built into this binary; it could not start"
	if f.Cause != "" {
		msg += ": " + f.Cause
	}
	return engine.Probe{Label: "native backend", Status: "fail", Message: msg}
}
