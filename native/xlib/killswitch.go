//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include "nx_grab.h"
*/
import "C"

import (
	"errors"
	"sync"
	"time"
	"unicode"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// The kill switch's grab lives on a connection of its own, so nothing the
// driver's other connections do (a long capture, a stuck app) can delay
// it: the connection's goroutine only ever waits for the grabbed key.

// evKeyPress is KeyPress (X.h).
const evKeyPress = 2

// xBadAccess is the X error a grab answers when another client holds the
// same key and modifiers.
const xBadAccess = 10

// killDebounce: presses closer together than this are one press (a held
// key repeats).
const killDebounce = 250 * time.Millisecond

// ErrKillSwitchTaken is GrabKillSwitch's error when another X client already
// grabbed the combination (another driver process, a desktop shortcut).
var ErrKillSwitchTaken = errors.New("xlib: another X client holds the kill switch's key combination")

// KillSwitch is a grabbed key combination. Its methods are safe from any
// goroutine.
type KillSwitch struct {
	conn     *Display
	combo    KeyCombo
	code     C.int
	variants []C.uint
	onPress  func()

	mu        sync.Mutex
	lastFired time.Time // loop only, under mu for Release's sake
	released  sync.Once
}

// GrabKillSwitch opens its own connection to display ("" means $DISPLAY)
// and grabs the combination on the root window, with every Caps Lock and
// Num Lock variant. Each real press (not a SendEvent) calls onPress on a
// goroutine of its own. A combination another client holds is
// ErrKillSwitchTaken; a key with no keycode is ErrUnknownKey.
func GrabKillSwitch(display string, combo KeyCombo, onPress func()) (*KillSwitch, error) {
	k := &KillSwitch{combo: combo, onPress: onPress}
	conn, err := open(display, k.handle)
	if err != nil {
		return nil, err
	}
	k.conn = conn
	if err := conn.do(k.grab); err != nil {
		conn.Close()
		return nil, err
	}
	return k, nil
}

// ProbeKillSwitch grabs the combination and lets it go at once: it tells
// the doctor whether a driver started now could hold the kill switch.
func ProbeKillSwitch(display string, combo KeyCombo) error {
	k, err := GrabKillSwitch(display, combo, func() {})
	if err != nil {
		return err
	}
	k.Release()
	return nil
}

// Release lets the combination go and closes the connection. It is safe to
// call more than once.
func (k *KillSwitch) Release() {
	k.released.Do(func() {
		_ = k.conn.do(func() error {
			C.nx_ungrab_key(k.conn.dpy, k.conn.root, k.code, C.uint(k.combo.Mods), &k.variants[0], C.int(len(k.variants)))
			C.XSync(k.conn.dpy, C.False)
			return nil
		})
		k.conn.Close()
	})
}

// grab runs on the connection's goroutine.
func (k *KillSwitch) grab() error {
	d := k.conn
	ks := d.keysym(k.combo.Key)
	if ks == noSymbol {
		// "escape" for "Escape": keysym names are case-sensitive, people
		// are not.
		r := []rune(k.combo.Key)
		r[0] = unicode.ToUpper(r[0])
		ks = d.keysym(string(r))
	}
	if ks == noSymbol {
		return ErrUnknownKey
	}
	k.code = C.int(C.XKeysymToKeycode(d.dpy, ks))
	if k.code == 0 {
		return ErrNoKeycode
	}
	for _, v := range lockVariants(uint(C.nx_numlock_mask(d.dpy))) {
		k.variants = append(k.variants, C.uint(v))
	}
	C.nx_grab_key(d.dpy, d.root, k.code, C.uint(k.combo.Mods), &k.variants[0], C.int(len(k.variants)))
	err := d.xerr(true)
	if err == nil {
		return nil
	}
	// Let go of whatever variants were granted before the refusal.
	C.nx_ungrab_key(d.dpy, d.root, k.code, C.uint(k.combo.Mods), &k.variants[0], C.int(len(k.variants)))
	C.XSync(d.dpy, C.False)
	xconn.ResetErrors()
	var xe *XError
	if errors.As(err, &xe) && xe.Code == xBadAccess {
		return ErrKillSwitchTaken
	}
	return err
}

// handle sees every event of the kill switch's connection; the only key
// events it gets are the grabbed combination's (and, while the grab is
// active, the keys pressed with it).
func (k *KillSwitch) handle(d *Display, ev *C.nx_event) {
	if int(ev._type) != evKeyPress || ev.send_event != 0 {
		return
	}
	now := time.Now()
	k.mu.Lock()
	fire := now.Sub(k.lastFired) >= killDebounce
	if fire {
		k.lastFired = now
	}
	k.mu.Unlock()
	if fire {
		go k.onPress()
	}
}
