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

// WindowKeys refuses as focusForKeys does, focuses the element in its
// window (the keyboard focus stays where it is) and notes where the
// keyboard focus is and what the field holds.
func (d *Desktop) WindowKeys(ctx context.Context, ref engine.ElementRef, text string) (engine.KeyTyping, error) {
	var k *keyTyping
	err := d.elementCall(ctx, "WindowKeys", ref, func(w *Window, e *Element) error {
		f, err := d.focusForKeys(ref, w, e, nil)
		if err != nil {
			return err
		}
		k = &keyTyping{keysFocus: f, held: e.value}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// keysFocus is what the window_keys path holds from its start, a typing's
// and a press's alike (the live backend's start is one too:
// native/windowkeys.go, focusForKeys): the field, and the window that
// held the keyboard focus then.
type keysFocus struct {
	d      *Desktop
	ref    engine.ElementRef
	person *Window // the window holding the keyboard focus at the start
}

// focusForKeys starts the window_keys path in e of w, under the desktop's
// lock: it refuses an element that takes text through accessibility, then
// what refuse refuses (the path's own refusals; nil for none), then a
// window that holds the keyboard focus; else it focuses e in its window,
// the keyboard focus staying where it is.
func (d *Desktop) focusForKeys(ref engine.ElementRef, w *Window, e *Element, refuse func() error) (keysFocus, error) {
	if !e.windowKeys {
		return keysFocus{}, engine.Errf(engine.CodeNotActionable, "the element takes text through accessibility")
	}
	if refuse != nil {
		if err := refuse(); err != nil {
			return keysFocus{}, err
		}
	}
	if d.focus == w {
		return keysFocus{}, engine.Errf(engine.CodeNotActionable, "the window holds the keyboard focus")
	}
	w.setFocusElement(e)
	d.touch()
	return keysFocus{d: d, ref: ref, person: d.focus}, nil
}

// focusStill is nil while the keyboard focus is where it was at the start
// and, with field set, e still holds the focus of its window w; else
// focus_changed, saying which moved.
func (f *keysFocus) focusStill(w *Window, e *Element, field bool) error {
	switch {
	case f.d.focus != f.person:
		return engine.Errf(engine.CodeFocusChanged, "the keyboard focus moved to another window")
	case field && w.focus != e:
		return engine.Errf(engine.CodeFocusChanged, "the field lost its window's focus")
	}
	return nil
}

// end records that the typing or press ended, as the call method: a test
// checks that every one begun is ended once, whatever its outcome.
func (f *keysFocus) end(method string) {
	f.d.finish(f.d.record(Call{Method: method, Window: f.ref.Window, Element: f.ref.ID}), nil)
}

// keyTyping is one typing on the window_keys path.
type keyTyping struct {
	keysFocus
	held string // the field's text at the start
	sent string // what Send sent so far
}

// Check: the keyboard focus has not moved, the field is still its window's
// focused element and holds sent on top of what it held.
func (k *keyTyping) Check(ctx context.Context, sent string) error {
	return k.d.elementCall(ctx, "WindowKeysCheck", k.ref, func(w *Window, e *Element) error {
		if err := k.focusStill(w, e, true); err != nil {
			return err
		}
		if utf8.RuneCountInString(e.value) != utf8.RuneCountInString(k.held)+utf8.RuneCountInString(sent) || !strings.Contains(e.value, sent) {
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

// End records that the typing ended (WindowKeysEnd).
func (k *keyTyping) End() { k.end("WindowKeysEnd") }
