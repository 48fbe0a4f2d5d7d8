//go:build !cgo

package xlib

import "errors"

// Without cgo there is no display: the kill switch, the key echo and the
// probes report that the X11 backend was not built.

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

func (k *KillSwitch) Combo() KeyCombo { return KeyCombo{} }
func (k *KillSwitch) Release()        {}

func (d *Display) KeyEcho(name string, r rune) (KeyEcho, error) { return KeyEcho{}, ErrNotBuilt }
func (d *Display) HeldInput() ([]string, []int, error)          { return nil, nil, ErrNotBuilt }
func (d *Display) InputShapeRects(id uint64) (int, error)       { return 0, ErrNotBuilt }
func (d *Display) DestroyWindow(id uint64) error                { return ErrNotBuilt }
func (d *Display) MoveWindow(id uint64, x, y int) error         { return ErrNotBuilt }
