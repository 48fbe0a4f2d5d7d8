package mock

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
)

// The window_keys path as the live backend takes it for Firefox's page
// fields (native/windowkeys.go): an element marked SetWindowKeys takes
// text only as keys sent to its window, which land in the window's
// focused element whichever window holds the keyboard focus.

var _ engine.WindowKeyTyper = (*Desktop)(nil)

// SetWindowKeys marks the element as one whose app takes text only as
// keys sent to its window (Firefox's page fields): a read shows it not
// Editable, as the live backend does.
func (e *Element) SetWindowKeys(on bool) *Element { return e.set(func() { e.windowKeys = on }) }

// OnWindowKeys runs fn after each batch of window keys, with everything
// sent so far, outside the desktop's lock: a test moves the focus there.
func (d *Desktop) OnWindowKeys(fn func(sent string)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.onWindowKeys = fn
}

// TakesWindowKeys reports whether the element is marked SetWindowKeys.
func (d *Desktop) TakesWindowKeys(ctx context.Context, ref engine.ElementRef) (bool, error) {
	var takes bool
	err := d.elementCall(ctx, "TakesWindowKeys", ref, func(_ *Window, e *Element) error {
		takes = e.windowKeys
		return nil
	})
	return takes, err
}

// WindowKeys refuses a window that holds the keyboard focus, focuses the element in
// its window (the keyboard focus stays where it is) and notes where the
// keyboard focus is and what the field holds.
func (d *Desktop) WindowKeys(ctx context.Context, ref engine.ElementRef, text string) (engine.KeyTyping, error) {
	var k *keyTyping
	err := d.elementCall(ctx, "WindowKeys", ref, func(w *Window, e *Element) error {
		if !e.windowKeys {
			return engine.Errf(engine.CodeNotActionable, "the element takes text through accessibility")
		}
		if d.focus == w {
			return engine.Errf(engine.CodeNotActionable, "the window holds the keyboard focus")
		}
		w.setFocusElement(e)
		d.touch()
		k = &keyTyping{d: d, ref: ref, person: d.focus, held: e.value}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// keyTyping is one typing on the window_keys path.
type keyTyping struct {
	d      *Desktop
	ref    engine.ElementRef
	person *Window // the window holding the keyboard focus at the start
	held   string  // the field's text at the start
	sent   string  // what Send sent so far
}

// Check: the keyboard focus has not moved, the field is still its window's
// focused element and holds sent on top of what it held.
func (k *keyTyping) Check(ctx context.Context, sent string) error {
	return k.d.elementCall(ctx, "WindowKeysCheck", k.ref, func(w *Window, e *Element) error {
		switch {
		case k.d.focus != k.person:
			return engine.Errf(engine.CodeFocusChanged, "the keyboard focus moved to another window")
		case w.focus != e:
			return engine.Errf(engine.CodeFocusChanged, "the field lost its window's focus")
		case utf8.RuneCountInString(e.value) != utf8.RuneCountInString(k.held)+utf8.RuneCountInString(sent) || !strings.Contains(e.value, sent):
			return engine.Errf(engine.CodeFocusChanged, "the field does not hold what was sent")
		}
		return nil
	})
}

// Send types text into the focused element of the field's window, wherever
// that focus is now, as the app would.
func (k *keyTyping) Send(ctx context.Context, text string) error {
	k.d.recordText("WindowKeysSend", k.ref.ID, text)
	err := k.d.appCall(ctx, Call{Method: "WindowKeysSend", Window: k.ref.Window, Element: k.ref.ID}, func(w *Window) error {
		if f := w.focus; f != nil && f.editable {
			f.insert(text)
			k.d.touch()
		}
		return nil
	})
	k.sent += text
	k.d.mu.Lock()
	fn := k.d.onWindowKeys
	k.d.mu.Unlock()
	if fn != nil {
		fn(k.sent)
	}
	return err
}

// End records that the typing ended (WindowKeysEnd): a test checks that
// every typing WindowKeys began is ended once, whatever its outcome.
func (k *keyTyping) End() {
	k.d.finish(k.d.record(Call{Method: "WindowKeysEnd", Window: k.ref.Window, Element: k.ref.ID}), nil)
}
