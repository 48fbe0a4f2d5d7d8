package native

import "github.com/nish-driver/nish-driver/engine"

// A backend whose display was lost after it opened (the X server ended;
// on Wayland the compositor died, Xwayland with it) can do nothing more:
// every call it gets answers backend_unavailable. Its registry is then the
// unavailable backend's, from what the environment shows now (a Wayland
// compositor that does not answer, a display that does not), so the
// doctor and health_report say not ready and why, instead of the parts
// the display had when it opened.

// lostRegistry is the registry of a backend whose display was lost.
func (b *Backend) lostRegistry() engine.Registry {
	f := gatherFacts(b.opts.Display, b.getenv)
	f.DisplayAnswers = false
	f.Built, f.Lost = true, true
	f.Cause = "the connection to X display " + b.x.Name() + " was lost"
	return unavailableRegistry(f)
}
