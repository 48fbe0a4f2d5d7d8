package xlib

import (
	"errors"
	"strings"
)

// The kill switch is a key combination the driver grabs on the root window
// so the person can end every takeover and session from the keyboard,
// whatever window has the focus. Its combination is configurable; this
// file reads the combination's text form ("ctrl+alt+shift+Escape").

// DefaultKillSwitch is the kill switch's combination unless configured.
const DefaultKillSwitch = "ctrl+alt+shift+Escape"

// X modifier masks (X.h), as KeyCombo.Mods holds them.
const (
	modShift   = 1 << 0
	modLock    = 1 << 1
	modControl = 1 << 2
	mod1       = 1 << 3 // Alt on every common keymap
	mod2       = 1 << 4
	mod3       = 1 << 5
	mod4       = 1 << 6 // Super on every common keymap
	mod5       = 1 << 7
)

// KeyCombo is a parsed key combination: modifier masks and one key.
type KeyCombo struct {
	Mods uint   // X modifier masks (ShiftMask, ControlMask, Mod1Mask, ...)
	Key  string // an X keysym name ("Escape", "F12", "k")
}

// modifierNames maps the names a combination may use to X masks.
var modifierNames = map[string]uint{
	"shift": modShift, "ctrl": modControl, "control": modControl,
	"alt": mod1, "mod1": mod1, "super": mod4, "mod4": mod4,
	"mod2": mod2, "mod3": mod3, "mod5": mod5,
}

// modifierOrder is how String lists modifiers.
var modifierOrder = []struct {
	mask uint
	name string
}{{modControl, "Ctrl"}, {mod1, "Alt"}, {modShift, "Shift"}, {mod4, "Super"}, {mod2, "Mod2"}, {mod3, "Mod3"}, {mod5, "Mod5"}}

// ErrBadKeyCombo is ParseKeyCombo's error for text that is not a
// combination.
var ErrBadKeyCombo = errors.New(`xlib: a key combination is modifiers and one key joined by "+" (for example ctrl+alt+shift+Escape); modifiers are shift, ctrl, alt, super, mod1-mod5`)

// ParseKeyCombo reads "mod+mod+Key". Modifier names are case-insensitive;
// the key is an X keysym name, checked when the combination is grabbed. At
// least one modifier is needed: a bare key grabbed on the root would take
// that key away from every app.
func ParseKeyCombo(s string) (KeyCombo, error) {
	parts := strings.Split(strings.TrimSpace(s), "+")
	if len(parts) < 2 {
		return KeyCombo{}, ErrBadKeyCombo
	}
	var c KeyCombo
	for _, p := range parts[:len(parts)-1] {
		m, ok := modifierNames[strings.ToLower(strings.TrimSpace(p))]
		if !ok {
			return KeyCombo{}, ErrBadKeyCombo
		}
		c.Mods |= m
	}
	c.Key = strings.TrimSpace(parts[len(parts)-1])
	if c.Key == "" || strings.ContainsAny(c.Key, " \t") {
		return KeyCombo{}, ErrBadKeyCombo
	}
	return c, nil
}

// String writes the combination the way people read it: "Ctrl+Alt+Shift+Escape".
func (c KeyCombo) String() string {
	var b strings.Builder
	for _, m := range modifierOrder {
		if c.Mods&m.mask != 0 {
			b.WriteString(m.name)
			b.WriteByte('+')
		}
	}
	b.WriteString(c.Key)
	return b.String()
}

// lockVariants are the combinations of the lock modifiers (Caps Lock and,
// when the keymap has one, Num Lock's modifier) a grab must cover, since X
// matches a passive grab's modifiers exactly.
func lockVariants(numLock uint) []uint {
	out := []uint{0, modLock}
	if numLock != 0 && numLock != modLock {
		out = append(out, numLock, numLock|modLock)
	}
	return out
}
