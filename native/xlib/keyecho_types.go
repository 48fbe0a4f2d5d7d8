package xlib

// KeyEcho says what the input watcher will report when this Display
// presses a key: the watcher names a key by the keysym at level 0 of its
// keycode ("a" when "A" is typed), and XTEST's own Shift press arrives as
// a key of its own. The backend uses it to recognise its own presses among
// the raw events, so only the person's input pauses a takeover.
type KeyEcho struct {
	// Keysym is the name the watcher reports for the key itself.
	Keysym string
	// Shift is the name of the Shift key the press adds ("Shift_L"), or ""
	// when the press adds none.
	Shift string
}
