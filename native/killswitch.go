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

// DefaultKillSwitch is the kill switch's combination unless configured.
const DefaultKillSwitch = xlib.DefaultKillSwitch

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

// killSwitchProbe is the doctor's line about the kill switch key: whether
// this process holds it, or (when it never tried, as in `nish-driver
// doctor`) whether the default combination can be grabbed right now. In a
// Wayland session the display is Xwayland, whose grab hears the key only
// while an X11 window has focus: the line says the key is not the kill
// switch there, whatever the grab did, and never probes it. (`nish-driver
// stop`, the kill switch everywhere, has the doctor's own line.)
func (b *Backend) killSwitchProbe() engine.Probe {
	parts := b.takeover()
	parts.mu.Lock()
	ks := parts.kill
	parts.mu.Unlock()
	return killSwitchLine(ks, waylandSession(b.getenv), func(combo xlib.KeyCombo) error {
		return xlib.ProbeKillSwitch(b.x.Name(), combo)
	})
}

// killSwitchLine words the kill switch key's line from the grab's state,
// the session, and a probe of the default combination (called only when
// this process never tried and the session is X11).
func killSwitchLine(ks killSwitchState, wayland bool, probe func(xlib.KeyCombo) error) engine.Probe {
	p := engine.Probe{Label: "kill switch"}
	if wayland {
		combo := ks.combo
		if combo == "" {
			c, _ := xlib.ParseKeyCombo(xlib.DefaultKillSwitch)
			combo = c.String()
		}
		p.Status, p.Message = "fail", "the session is Wayland: "+combo+" held on Xwayland is heard only while an X11 window has focus, so it is not a kill switch here; bind `nish-driver stop` to it in the desktop's keyboard shortcuts"
		return p
	}
	switch ks.state {
	case killGrabbed:
		p.Status, p.Message = "ok", ks.combo+" is grabbed: it ends every takeover and session"
	case killTaken:
		p.Status, p.Message = "fail", "another X client holds "+ks.combo+", so it does not reach this driver; choose another with --kill-switch"
	case killFailed:
		p.Status, p.Message = "fail", ks.combo+" could not be grabbed"
	default:
		combo, _ := xlib.ParseKeyCombo(xlib.DefaultKillSwitch)
		switch err := probe(combo); {
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
