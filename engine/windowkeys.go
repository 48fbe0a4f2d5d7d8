package engine

import (
	"context"
	"unicode/utf8"
)

// The window_keys path (docs/contract.md#window-keys): type_text into a
// field whose app takes no text through accessibility (Firefox's page
// fields answer EditableText with true and change nothing) by key events
// sent to that app's window alone. It is neither an accessibility action
// nor a takeover: the person's keyboard, pointer, focused window and
// stacking are untouched, and no key passes through the real devices.
// The backend owns the facts (which apps take such keys, how focus is
// checked, how keys are sent); the engine owns the rule: nothing is sent
// before the field has the app's focus, and before every batch the
// person's focus is where it was and the field holds what was sent so far,
// else the act stops with focus_changed and typed_characters.

// WindowKeyTyper is a backend that can type by key events sent to one
// app's window only. It stays optional: without it such fields are
// refused as before (not_actionable, a takeover recommended).
type WindowKeyTyper interface {
	// TakesWindowKeys reports whether ref is a field whose app takes text
	// only as keys sent to its window (a read shows it not Editable).
	TakesWindowKeys(ctx context.Context, ref ElementRef) (bool, error)
	// WindowKeys prepares typing text into such a field. It refuses with
	// not_actionable when the path cannot be taken safely (the window is
	// not one it can send keys to alone, the window holds the keyboard
	// focus, a character has no key in the keymap, focusing moved the
	// person's focus or raised the window), and else focuses the field
	// through accessibility and returns the typing.
	WindowKeys(ctx context.Context, ref ElementRef, text string) (KeyTyping, error)
}

// KeyTyping is one type_text on the window_keys path.
type KeyTyping interface {
	// Check is asked before each batch and after the last: the keyboard
	// focus is on the window that held it when the typing began, and the
	// field holds sent (what was sent so far) on top of what it held. A
	// failure is focus_changed.
	Check(ctx context.Context, sent string) error
	// Send sends the key presses and releases that type text to the
	// field's window only.
	Send(ctx context.Context, text string) error
	// End is called once when the typing ends, whatever its outcome
	// (typed, stopped, failed, cancelled): the backend undoes what
	// WindowKeys set up for the keys to land (Chromium is told again that
	// its window does not hold the focus). It cannot fail the act: the
	// keys have been sent or refused by then.
	End()
}

// windowKeysBatch is how many characters go between two checks. The first
// batch is one character: the field's focus is confirmed by the app's own
// answer to it (docs/decisions.md, "Window keys").
const windowKeysBatch = 16

// takesWindowKeys asks the backend whether field n takes text only as
// keys sent to its window.
func (x *act) takesWindowKeys(ctx context.Context, n *Node) (bool, *Error) {
	wk, ok := x.s.d.backend.(WindowKeyTyper)
	if !ok {
		return false, nil
	}
	var takes bool
	err := x.s.d.callElement(ctx, func(c context.Context) error {
		var e error
		takes, e = wk.TakesWindowKeys(c, ElementRef{Window: x.win.ID, ID: n.ID})
		return e
	})
	return takes, err
}

// typeWindowKeys types text into field n on the window_keys path, after
// the checks every type_text makes.
func (x *act) typeWindowKeys(ctx context.Context, n *Node, text string) *Error {
	wk := x.s.d.backend.(WindowKeyTyper)
	ref := ElementRef{Window: x.win.ID, ID: n.ID}
	k, err := startWindowKeys(ctx, x, func(c context.Context) (KeyTyping, error) { return wk.WindowKeys(c, ref, text) })
	if err != nil {
		return err
	}
	defer k.End()
	typed := 0
	x.typed = &typed
	for sent := 0; sent < len(text); {
		if err := x.checkWindowKeys(ctx, k, text[:sent]); err != nil {
			return err
		}
		end := batchEnd(text, sent, typed)
		if err := x.s.d.callElement(ctx, func(c context.Context) error { return k.Send(c, text[sent:end]) }); err != nil {
			return err
		}
		typed += utf8.RuneCountInString(text[sent:end])
		sent = end
	}
	if err := x.checkWindowKeys(ctx, k, text); err != nil {
		return err
	}
	// The check read the field holding all that was sent.
	x.landed = true
	return nil
}

// startWindowKeys runs the backend's preparation of keys for the act's
// field (start: a typing or a press); its not_actionable refusal
// recommends a takeover, and once it is prepared the act's path is
// window_keys (audited so from then on, whatever follows).
func startWindowKeys[K any](ctx context.Context, x *act, start func(context.Context) (K, error)) (K, *Error) {
	var k K
	err := x.s.d.callElement(ctx, func(c context.Context) error {
		var e error
		k, e = start(c)
		return e
	})
	if err != nil && err.Code == CodeNotActionable {
		return k, notActionable(x, err.Message)
	}
	if err != nil {
		return k, err
	}
	x.path = PathWindowKeys
	return k, nil
}

// batchEnd is the byte offset where the batch starting at sent ends: one
// character first, then windowKeysBatch.
func batchEnd(text string, sent, typed int) int {
	n := windowKeysBatch
	if typed == 0 {
		n = 1
	}
	end := sent
	for i := 0; i < n && end < len(text); i++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	return end
}

// checkWindowKeys is the check before a batch: focus_changed, with how
// many characters were sent, when the backend finds the person's focus
// moved or the field not holding what was sent.
func (x *act) checkWindowKeys(ctx context.Context, k KeyTyping, sent string) *Error {
	err := x.s.d.callElement(ctx, func(c context.Context) error { return k.Check(c, sent) })
	if err == nil {
		return nil
	}
	if err.Code == CodeFocusChanged && x.typed != nil {
		n := *x.typed
		err.TypedCharacters = &n
	}
	return err
}
