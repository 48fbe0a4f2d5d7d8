package native

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// desktopFacts are what can be learned about the desktop without the live
// backend: the environment, and whether the display's and the session
// bus's sockets accept a connection. They let the unavailable backend
// (unavailable.go) name the real first obstacle. Plain Go, no cgo, so a
// binary built without the live backend gathers them too.
type desktopFacts struct {
	// Display is the X display name (Options.Display or DISPLAY); "" when
	// unset.
	Display string
	// DisplayLocal: the display is on this machine (no host part).
	DisplayLocal bool
	// DisplayAnswers: the display's socket accepted a connection.
	DisplayAnswers bool
	// Wayland: the graphical session is a Wayland session.
	Wayland bool
	// Compositor names a Wayland session's compositor (compositorOf).
	Compositor string
	// CompositorGone: the session names its compositor's socket
	// (WAYLAND_DISPLAY) and nothing answers there: the compositor died,
	// taking Xwayland and the session's apps with it.
	CompositorGone bool
	// SessionBus: the D-Bus session bus (where the accessibility bus is
	// announced) accepted a connection.
	SessionBus bool
	// Built: the binary holds the live backend (it was built with cgo),
	// which then could not start.
	Built bool
	// Cause is why the built backend could not start, in the driver's
	// own words (its error), for the doctor's probe.
	Cause string
	// Lost: the built backend started and then lost its display (Cause
	// says which).
	Lost bool
}

// factDialTimeout bounds each socket probe of gatherFacts.
const factDialTimeout = 300 * time.Millisecond

// gatherFacts probes the environment. display overrides DISPLAY when not
// empty; getenv is os.Getenv when nil.
func gatherFacts(display string, getenv func(string) string) desktopFacts {
	if getenv == nil {
		getenv = os.Getenv
	}
	if display == "" {
		display = getenv("DISPLAY")
	}
	f := desktopFacts{Display: display}
	f.Wayland = waylandSession(getenv)
	if f.Wayland {
		f.Compositor = compositorOf(getenv)
		if sock := waylandSocket(getenv); sock != "" {
			f.CompositorGone = !answers("unix", sock)
		}
	}
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

// waylandSocket is the compositor's socket WAYLAND_DISPLAY names (a name
// in XDG_RUNTIME_DIR, or a path), "" when it names none.
func waylandSocket(getenv func(string) string) string {
	name := getenv("WAYLAND_DISPLAY")
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	if rt := getenv("XDG_RUNTIME_DIR"); rt != "" {
		return filepath.Join(rt, name)
	}
	return ""
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
	c, err := net.DialTimeout(network, addr, factDialTimeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
