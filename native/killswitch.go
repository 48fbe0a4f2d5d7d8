package native

import (
	"errors"
	"fmt"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The kill switch: a key combination (Ctrl+Alt+Shift+Escape unless
// configured) grabbed on the root window, which ends every takeover and
// session of this driver process. The grab is X's passive key grab, so only
// one client holds a combination at a time; another driver process, or a
// desktop shortcut, holding it is reported by the doctor and is not fatal.

// ErrBadKillSwitch: the configured combination is not one (a typo in a
// flag, which the caller should refuse to start with).
var ErrBadKillSwitch = xlib.ErrBadKeyCombo

// killSwitchState is what the registry reports about the grab.
type killSwitchState struct {
	combo string // the combination as people read it
	state string // "" (never tried), killGrabbed, killTaken or killFailed
}

const (
	killGrabbed = "grabbed"
	killTaken   = "taken"
	killFailed  = "failed"
)

// GrabKillSwitch grabs the combination spec ("ctrl+alt+shift+Escape"; ""
// is that default) on a connection of its own; each press of it calls
// onPress on a goroutine of its own. release lets the combination go. A
// combination that does not parse or names no key is an error to show the
// person who configured it; xlib.ErrKillSwitchTaken means another client
// holds it.
func (b *Backend) GrabKillSwitch(spec string, onPress func()) (release func(), err error) {
	if spec == "" {
		spec = xlib.DefaultKillSwitch
	}
	combo, err := xlib.ParseKeyCombo(spec)
	if err != nil {
		return nil, err
	}
	k, err := xlib.GrabKillSwitch(b.x.Name(), combo, onPress)
	parts := b.takeover()
	parts.mu.Lock()
	parts.kill = killSwitchState{combo: combo.String(), state: killGrabbed}
	switch {
	case errors.Is(err, xlib.ErrKillSwitchTaken):
		parts.kill.state = killTaken
	case err != nil:
		parts.kill.state = killFailed
	}
	parts.mu.Unlock()
	if err != nil {
		if errors.Is(err, xlib.ErrUnknownKey) || errors.Is(err, xlib.ErrNoKeycode) {
			return nil, fmt.Errorf("the kill switch %s names a key this keyboard lacks: %w", combo, err)
		}
		return nil, err
	}
	return func() {
		k.Release()
		parts.mu.Lock()
		if parts.kill.state == killGrabbed {
			parts.kill = killSwitchState{}
		}
		parts.mu.Unlock()
	}, nil
}

// GrabKillSwitchOn grabs the kill switch when backend is the live Linux one
// and only checks the combination for others (the mock and the unavailable
// backend have no keyboard to grab). The daemon and the mcp command share it. release is never nil,
// so a caller can defer it whatever the error: ErrBadKillSwitch for a
// combination that does not parse, else why the grab failed.
func GrabKillSwitchOn(backend engine.Backend, spec string, onPress func()) (release func(), err error) {
	nothing := func() {}
	b, ok := backend.(*Backend)
	if !ok {
		if _, err := xlib.ParseKeyCombo(orDefault(spec)); err != nil {
			return nothing, err
		}
		return nothing, nil
	}
	release, err = b.GrabKillSwitch(spec, onPress)
	if err != nil {
		return nothing, err
	}
	return release, nil
}

func orDefault(spec string) string {
	if spec == "" {
		return xlib.DefaultKillSwitch
	}
	return spec
}

// killSwitchProbe is the doctor's line about the kill switch: whether this
// process holds it, or (when it never tried, as in `nish-driver doctor`)
// whether the default combination can be grabbed right now.
func (b *Backend) killSwitchProbe() engine.Probe {
	parts := b.takeover()
	parts.mu.Lock()
	ks := parts.kill
	parts.mu.Unlock()
	p := engine.Probe{Label: "kill switch"}
	switch ks.state {
	case killGrabbed:
		p.Status, p.Message = "ok", ks.combo+" is grabbed: it ends every takeover and session"
	case killTaken:
		p.Status, p.Message = "fail", "another X client holds "+ks.combo+", so it does not reach this driver; choose another with --kill-switch"
	case killFailed:
		p.Status, p.Message = "fail", ks.combo+" could not be grabbed"
	default:
		combo, _ := xlib.ParseKeyCombo(xlib.DefaultKillSwitch)
		switch err := xlib.ProbeKillSwitch(b.x.Name(), combo); {
		case err == nil:
			p.Status, p.Message = "ok", combo.String()+" can be grabbed"
		case errors.Is(err, xlib.ErrKillSwitchTaken):
			p.Status, p.Message = "fail", "another X client (perhaps another nish-driver) holds "+combo.String()
		default:
			p.Status, p.Message = "fail", combo.String()+" could not be grabbed"
		}
	}
	return p
}
