package engine

import (
	"unicode"
	"unicode/utf8"
)

// The US-layout keymap: which keysym names type which character, and
// which are modifiers. The typing buffer (typing.go) follows what keys
// type with it, and the mock desktop types with it, so the two never
// disagree about what a key act put in a field.

// keyChars maps the keysym names that type a character to it, on a US
// layout. Letters and digits are their own names.
var keyChars = map[string]rune{
	"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$',
	"percent": '%', "ampersand": '&', "apostrophe": '\'', "parenleft": '(',
	"parenright": ')', "asterisk": '*', "plus": '+', "comma": ',', "minus": '-',
	"period": '.', "slash": '/', "colon": ':', "semicolon": ';', "less": '<',
	"equal": '=', "greater": '>', "question": '?', "at": '@', "bracketleft": '[',
	"backslash": '\\', "bracketright": ']', "asciicircum": '^', "underscore": '_',
	"grave": '`', "braceleft": '{', "bar": '|', "braceright": '}', "asciitilde": '~',
	"Return": '\n', "KP_Enter": '\n', "Tab": '\t',
}

// shiftedChars is what Shift makes of the unshifted US-layout keys.
var shiftedChars = map[rune]rune{
	'1': '!', '2': '@', '3': '#', '4': '$', '5': '%', '6': '^', '7': '&', '8': '*',
	'9': '(', '0': ')', '-': '_', '=': '+', '[': '{', ']': '}', '\\': '|',
	';': ':', '\'': '"', ',': '<', '.': '>', '/': '?', '`': '~',
}

// shiftKeys and modifierKeys name the modifier keysyms.
var (
	shiftKeys    = map[string]bool{"Shift_L": true, "Shift_R": true}
	modifierKeys = map[string]bool{"Shift_L": true, "Shift_R": true, "Control_L": true, "Control_R": true,
		"Alt_L": true, "Alt_R": true, "Super_L": true, "Super_R": true, "Meta_L": true, "Meta_R": true,
		"Hyper_L": true, "Hyper_R": true, "ISO_Level3_Shift": true, "Caps_Lock": true}
)

// KeyChar is the character a key name types, with Shift or not; false
// for a key that types none (a modifier, an arrow, F1, an unknown name).
func KeyChar(name string, shift bool) (rune, bool) {
	var r rune
	if len(name) == 1 && name[0] < utf8.RuneSelf && (unicode.IsLetter(rune(name[0])) || unicode.IsDigit(rune(name[0]))) {
		r = rune(name[0])
	} else if c, ok := keyChars[name]; ok {
		r = c
	} else {
		return 0, false
	}
	if shift {
		if unicode.IsLetter(r) {
			return unicode.ToUpper(r), true
		}
		if s, ok := shiftedChars[r]; ok {
			return s, true
		}
	}
	return r, true
}

// IsModifierKey tells whether a keysym name is a modifier (Shift,
// Control, Alt, Super, Meta, Hyper, AltGr, Caps Lock): pressed alone it
// types nothing.
func IsModifierKey(name string) bool { return modifierKeys[name] }
