package engine

import "context"

// press_key with element_token, headless, on the window_keys path
// (docs/contract.md#window-keys): one key a person uses in a field, sent
// to that field's app's window only, where the backend can confirm that
// the field holds its app's focus before the key goes (Chromium says so by
// the field's focused state). Where nothing confirms it (Firefox reports
// no focus while its window is inactive) the key is refused: unlike typed
// text, a Return or a Tab leaves no text to read back that would show
// where it landed. Keys with Control, Alt or Super (hotkey) stay
// takeover-only.

// WindowKeyPresser is a backend that can press one key in a field that
// takes window keys (WindowKeyTyper), by a key event sent to the field's
// window only. Optional: without it press_key stays takeover-only.
type WindowKeyPresser interface {
	// WindowKey prepares pressing key (a keysym name) in ref. It refuses
	// with not_actionable, before anything is focused, where
	// WindowKeyTyper.WindowKeys would, where the field's app gives no way
	// to confirm the field's focus before a key, and where the key has no
	// keycode in the live keymap; else it focuses the field, confirms
	// its focus, and returns the press.
	WindowKey(ctx context.Context, ref ElementRef, key string) (KeyPress, error)
}

// KeyPress is one press_key on the window_keys path.
type KeyPress interface {
	// Check is asked before the key (pressed false) and after it: the
	// keyboard focus is on the window that held it when the press began,
	// the field's window was not raised, and before the key the field
	// still holds its app's focus. After it the field may have lost that
	// focus (a Tab moves it, a Return may submit): not checked. A failure
	// is focus_changed.
	Check(ctx context.Context, pressed bool) error
	// Press sends the key's press and release to the field's window only.
	Press(ctx context.Context) error
	// End is called once when the press ends, whatever its outcome, as
	// KeyTyping.End.
	End()
}

// windowKeyNames are the keys without a character that press_key sends on
// the window_keys path: those a person uses in a field. Keys that type a
// character (KeyChar) are sent too.
var windowKeyNames = map[string]bool{
	"Return": true, "KP_Enter": true, "Tab": true, "BackSpace": true, "Delete": true, "Escape": true,
	"Left": true, "Right": true, "Up": true, "Down": true, "Home": true, "End": true,
}

// isWindowKey reports whether press_key may send key on the window_keys
// path: a key used in a field, or one that types a character, never a
// modifier.
func isWindowKey(key string) bool {
	if windowKeyNames[key] {
		return true
	}
	_, types := KeyChar(key, false)
	return types
}

// pressWindowKey is press_key with element_token outside a takeover: the
// token's field must take window keys and its backend confirm its focus;
// any other element needs a takeover, as press_key without a token.
func (x *act) pressWindowKey(ctx context.Context, key string) *Error {
	n := x.node
	if n.Secure {
		return Errf(CodeSecureField, "element %d is a secure field", x.token.Index)
	}
	wk, ok := x.s.d.backend.(WindowKeyPresser)
	takes, err := x.takesWindowKeys(ctx, n)
	if err != nil {
		return err
	}
	if !ok || !takes {
		return Errf(CodeRequiresTakeover, "press_key needs a takeover session unless the element takes keys sent to its window")
	}
	if r, types := KeyChar(key, false); types {
		// The credential check on the text the field would hold.
		if _, err := x.checkInsertion(ctx, n, string(r)); err != nil {
			return err
		}
	}
	ref := ElementRef{Window: x.win.ID, ID: n.ID}
	k, err := startWindowKeys(ctx, x, func(c context.Context) (KeyPress, error) { return wk.WindowKey(c, ref, key) })
	if err != nil {
		return err
	}
	defer k.End()
	if err := x.s.d.callElement(ctx, func(c context.Context) error { return k.Check(c, false) }); err != nil {
		return err
	}
	if err := x.s.d.callElement(ctx, func(c context.Context) error { return k.Press(c) }); err != nil {
		return err
	}
	return x.s.d.callElement(ctx, func(c context.Context) error { return k.Check(c, true) })
}
