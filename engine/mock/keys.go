package mock

import "github.com/nish-driver/nish-driver/engine"

// namedKeys are the keys without a character that the mock can send.
var namedKeys = []string{
	"Return", "KP_Enter", "Tab", "ISO_Left_Tab", "Escape", "BackSpace", "Delete", "Insert",
	"Home", "End", "Page_Up", "Page_Down", "Prior", "Next",
	"Left", "Right", "Up", "Down",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
	"Shift_L", "Shift_R", "Control_L", "Control_R", "Alt_L", "Alt_R",
	"Super_L", "Super_R", "Meta_L", "Meta_R", "Caps_Lock", "Num_Lock", "Menu", "Print",
	"Pause", "Scroll_Lock",
}

var namedKeySet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range namedKeys {
		m[k] = true
	}
	return m
}()

// hasKey tells whether the mock has a key of that keysym name: a named
// key, or one that types a character on the engine's keymap.
func hasKey(name string) bool {
	_, types := engine.KeyChar(name, false)
	return types || namedKeySet[name]
}

// HasKey reports whether a keysym name is one the mock can send: letters,
// digits, punctuation names (comma, minus, ...), space, Return, Tab,
// Escape, BackSpace, Delete, Insert, Home, End, Page_Up, Page_Down, the
// arrows, F1-F12 and the modifiers. It is a pure question and is not
// recorded in Calls. A switched-off desktop has no keys.
func (d *Desktop) HasKey(name string) bool {
	d.mu.Lock()
	off := d.unavailable
	d.mu.Unlock()
	return !off && hasKey(name)
}
