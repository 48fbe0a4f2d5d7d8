package atspi

import "strings"

// Secure fields. AT-SPI has no "protected" state; toolkits mark a password
// input by its role, password_text (GTK 3 and 4 for entries whose text is
// hidden, Qt for password echo mode, Firefox and Chromium for
// <input type=password>). Some toolkits also (or only) say it in the
// object's attributes, so an element is secure when:
//
//   - its role is password_text, or
//   - one of its attributes names a password input: text-input-type,
//     input-type, html-input-type or type equal to "password", or an
//     attribute password, secure, protected or sensitive set to true.
//
// The role is known with the structure, so every read marks such elements;
// the attribute check runs before any read of an element's text (tree
// values, ReadText, ReadValue) and a failed check counts as secure. A
// secure element's value is never requested from the app.

// secureRole reports whether a role alone makes an element secure.
func secureRole(role string) bool { return role == "password_text" }

// secureAttrs reads GetAttributes' a{ss} and reports whether it marks a
// password input. A malformed reply counts as secure.
func secureAttrs(d *decoder) bool {
	end := d.array(8)
	secure := false
	for d.more(end) {
		d.align(8)
		k := d.strBytes()
		v := d.strBytes()
		if secureAttr(string(k), string(v)) {
			secure = true
		}
	}
	return secure || d.err != nil
}

// secureAttr reports whether one attribute marks a password input.
func secureAttr(key, value string) bool {
	key = strings.ToLower(strings.TrimSpace(key))
	value = strings.ToLower(strings.TrimSpace(value))
	switch key {
	case "text-input-type", "input-type", "html-input-type", "type":
		return value == "password"
	case "password", "secure", "protected", "sensitive":
		return value == "true" || value == "1" || value == "yes"
	}
	return false
}
