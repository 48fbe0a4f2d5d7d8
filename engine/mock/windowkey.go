package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// press_key on the window_keys path as the live backend takes it
// (native/windowkeys.go): a field marked SetWindowKeys whose focus its app
// confirms (Chromium) takes one key sent to its window; one marked
// SetFocusUnconfirmed too (Firefox, whose fields report no focus while
// their window is inactive) is refused.

var _ engine.WindowKeyPresser = (*Desktop)(nil)

// SetFocusUnconfirmed marks a window-keys field as one whose app does not
// say that it holds the focus while its window is inactive (Firefox).
func (e *Element) SetFocusUnconfirmed(on bool) *Element {
	return e.set(func() { e.keysUnconfirmed = on })
}

// WindowKey refuses as WindowKeys does, and a field whose focus cannot be
// confirmed or a key without a keycode; else it focuses the field in its
// window (the keyboard focus stays where it is).
func (d *Desktop) WindowKey(ctx context.Context, ref engine.ElementRef, key string) (engine.KeyPress, error) {
	var k *keyPress
	err := d.elementCall(ctx, "WindowKey", ref, func(w *Window, e *Element) error {
		f, err := d.focusForKeys(ref, w, e, func() error {
			switch {
			case e.keysUnconfirmed:
				return engine.Errf(engine.CodeNotActionable, "nothing confirms the field's focus while its window is inactive")
			case !hasKey(key):
				return engine.Errf(engine.CodeNotActionable, "the key has no keycode in the keyboard map")
			}
			return nil
		})
		if err != nil {
			return err
		}
		k = &keyPress{keysFocus: f, key: key}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// keyPress is one press_key on the window_keys path.
type keyPress struct {
	keysFocus
	key string
}

// Check: the keyboard focus has not moved and, before the key, the field
// is still its window's focused element.
func (k *keyPress) Check(ctx context.Context, pressed bool) error {
	return k.d.elementCall(ctx, "WindowKeyCheck", k.ref, func(w *Window, e *Element) error {
		return k.focusStill(w, e, !pressed)
	})
}

// Press delivers the key to the focused element of the field's window,
// wherever that focus is now, as the app would.
func (k *keyPress) Press(ctx context.Context) error {
	var after []func()
	err := k.d.appCall(ctx, Call{Method: "WindowKeyPress", Window: k.ref.Window, Element: k.ref.ID, Action: k.key}, func(w *Window) error {
		if w.focus != nil {
			after = k.d.keyInto(w.focus, k.key, 0)
			k.d.touch()
		}
		return nil
	})
	for _, f := range after {
		f()
	}
	return err
}

// End records that the press ended (WindowKeyEnd).
func (k *keyPress) End() { k.end("WindowKeyEnd") }
