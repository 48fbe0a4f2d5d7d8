//go:build !cgo

package xlib

import "errors"

// Without cgo there is no display: the kill switch and the key echo report
// that the X11 backend was not built.

// ErrKillSwitchTaken is GrabKillSwitch's error when another X client holds
// the combination.
var ErrKillSwitchTaken = errors.New("xlib: another X client holds the kill switch's key combination")

// KillSwitch is a grabbed key combination; without cgo there is none.
type KillSwitch struct{}

// GrabKillSwitch reports that the X11 backend was not built.
func GrabKillSwitch(display string, combo KeyCombo, onPress func()) (*KillSwitch, error) {
	return nil, ErrNotBuilt
}

// ProbeKillSwitch reports that the X11 backend was not built.
func ProbeKillSwitch(display string, combo KeyCombo) error { return ErrNotBuilt }

func (k *KillSwitch) Release() {}

func (d *Display) KeyEcho(name string, r rune) (KeyEcho, error) { return KeyEcho{}, ErrNotBuilt }
