package mock

import "unicode"

// keyChars maps the keysym names that type a character to it. Letters and
// digits are their own names and are handled apart.
var keyChars = map[string]rune{
	"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$',
	"percent": '%', "ampersand": '&', "apostrophe": '\'', "parenleft": '(',
	"parenright": ')', "asterisk": '*', "plus": '+', "comma": ',', "minus": '-',
	"period": '.', "slash": '/', "colon": ':', "semicolon": ';', "less": '<',
	"equal": '=', "greater": '>', "question": '?', "at": '@', "bracketleft": '[',
	"backslash": '\\', "bracketright": ']', "asciicircum": '^', "underscore": '_',
	"grave": '`', "braceleft": '{', "bar": '|', "braceright": '}', "asciitilde": '~',
}

// shifted is what Shift makes of the unshifted US-layout keys.
var shifted = map[rune]rune{
	'1': '!', '2': '@', '3': '#', '4': '$', '5': '%', '6': '^', '7': '&', '8': '*',
	'9': '(', '0': ')', '-': '_', '=': '+', '[': '{', ']': '}', '\\': '|',
	';': ':', '\'': '"', ',': '<', '.': '>', '/': '?', '`': '~',
}

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

var keySet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range namedKeys {
		m[k] = true
	}
	for k := range keyChars {
		m[k] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		m[string(c)] = true
		m[string(unicode.ToUpper(c))] = true
	}
	for c := '0'; c <= '9'; c++ {
		m[string(c)] = true
	}
	return m
}()

// HasKey reports whether a keysym name is one the mock can send: letters,
// digits, punctuation names (comma, minus, ...), space, Return, Tab,
// Escape, BackSpace, Delete, Insert, Home, End, Page_Up, Page_Down, the
// arrows, F1-F12 and the modifiers. It is a pure question and is not
// recorded in Calls. A switched-off desktop has no keys.
func (d *Desktop) HasKey(name string) bool {
	d.mu.Lock()
	off := d.unavailable
	d.mu.Unlock()
	return !off && keySet[name]
}

// keyChar is the character a key types, with Shift held or not.
func keyChar(name string, shift bool) (rune, bool) {
	var r rune
	switch {
	case len(name) == 1 && (name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z' || name[0] >= '0' && name[0] <= '9'):
		r = rune(name[0])
	default:
		c, ok := keyChars[name]
		if !ok {
			return 0, false
		}
		r = c
	}
	if shift {
		if unicode.IsLetter(r) {
			return unicode.ToUpper(r), true
		}
		if s, ok := shifted[r]; ok {
			return s, true
		}
	}
	return r, true
}

var modifierKeys = map[string]bool{
	"Shift_L": true, "Shift_R": true, "Control_L": true, "Control_R": true,
	"Alt_L": true, "Alt_R": true, "Super_L": true, "Super_R": true, "Meta_L": true, "Meta_R": true,
}
