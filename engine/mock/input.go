package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// Send sends one synthetic event, as XTEST would: it is recorded (Sent),
// it acts on the desktop, and every active WatchInput sink sees it as a raw
// event. Motion moves the pointer (clamped to the screen). A button-1 press
// focuses the window under the pointer and the focusable element under it;
// a release on the same element performs its primary action (click, press,
// activate, toggle or jump, whichever it has first). Keys go to the focused
// element of the focused window: on editable text a character key (Key as
// a keysym name, or Char) is typed at the caret, BackSpace/Delete/arrows/
// Home/End edit, Return and Tab type a newline and a tab in multi-line
// text (Return activates a single-line entry); on other controls Return
// and space perform the primary action. Nothing reaches a hung app.
//
// Send does not look at the context: like an XTEST request it is one
// write, and the engine sends key and button releases even after a
// cancellation.
func (d *Desktop) Send(ctx context.Context, ev engine.InputEvent) error {
	var run []func()
	err := d.plainCall(Call{Method: "Send", Action: string(ev.Kind)}, func() error {
		switch ev.Kind {
		case engine.InputMotion, engine.InputButtonPress, engine.InputButtonRelease:
		case engine.InputKeyPress, engine.InputKeyRelease:
			if ev.Char == 0 && !hasKey(ev.Key) {
				return engine.Errf(engine.CodeInvalidArguments, "unknown key name")
			}
		default:
			return engine.Errf(engine.CodeInvalidArguments, "unknown input event kind")
		}
		d.sent = append(d.sent, ev)
		raw := engine.RawInput{Kind: ev.Kind, At: ev.At, Button: ev.Button, Key: ev.Key, Char: ev.Char, Time: d.now()}
		run = d.applyInput(&raw)
		d.broadcast(raw)
		return nil
	})
	for _, f := range run {
		f()
	}
	return err
}

// Pointer returns the pointer's position in root coordinates.
func (d *Desktop) Pointer(ctx context.Context) (engine.Point, error) {
	var p engine.Point
	err := d.plainCall(Call{Method: "Pointer"}, func() error {
		p = d.pointer
		return nil
	})
	return p, err
}

// PointerAt is the pointer's position, for tests (not recorded).
func (d *Desktop) PointerAt() engine.Point {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pointer
}

// applyInput makes one event (the driver's or the person's) act on the
// desktop. For button and key events At is set to the pointer's position.
// It returns scripted handlers to run once mu is released. mu held.
func (d *Desktop) applyInput(ev *engine.RawInput) []func() {
	if ev.Kind != engine.InputMotion {
		// Focus, a field's text, an action's effect: no read shows
		// the pointer alone.
		d.touch()
	}
	switch ev.Kind {
	case engine.InputMotion:
		d.pointer = engine.Point{
			X: max(Screen.X, min(ev.At.X, Screen.X+Screen.W-1)),
			Y: max(Screen.Y, min(ev.At.Y, Screen.Y+Screen.H-1)),
		}
		ev.At = d.pointer
		return nil
	case engine.InputButtonPress:
		ev.At = d.pointer
		if ev.Button != 1 {
			return nil
		}
		d.pressed = nil
		w := d.windowAt(d.pointer)
		if w == nil {
			return nil
		}
		d.focus = w
		if w.app.hung {
			return nil
		}
		e := w.elementAt(d.pointer)
		d.pressed = e
		if e != nil && e.hasState("focusable") {
			w.setFocusElement(e)
		}
		return nil
	case engine.InputButtonRelease:
		ev.At = d.pointer
		if ev.Button != 1 {
			return nil
		}
		pressed := d.pressed
		d.pressed = nil
		w := d.windowAt(d.pointer)
		if w == nil || pressed == nil || w.app.hung || w.elementAt(d.pointer) != pressed {
			return nil
		}
		return d.activate(pressed)
	case engine.InputKeyPress:
		ev.At = d.pointer
		if ev.Key != "" {
			d.held[ev.Key] = true
		}
		return d.keyPress(ev.Key, ev.Char)
	case engine.InputKeyRelease:
		ev.At = d.pointer
		delete(d.held, ev.Key)
	}
	return nil
}

// activate performs an element's primary action. mu held.
func (d *Desktop) activate(e *Element) []func() {
	a := e.primary()
	if a == "" {
		return nil
	}
	if f := d.perform(e, a); f != nil {
		return []func(){f}
	}
	return nil
}

// keyPress delivers a key to the focused element. mu held.
func (d *Desktop) keyPress(key string, char rune) []func() {
	if engine.IsModifierKey(key) {
		return nil
	}
	w := d.focus
	if w == nil || w.app.hung || w.focus == nil {
		return nil
	}
	if d.held["Control_L"] || d.held["Control_R"] || d.held["Alt_L"] || d.held["Alt_R"] ||
		d.held["Super_L"] || d.held["Super_R"] {
		return nil // a shortcut, not typing
	}
	return d.keyInto(w.focus, key, char)
}

// keyInto is what a key does to element e, its window's focused element,
// with no modifier other than Shift held. mu held.
func (d *Desktop) keyInto(e *Element, key string, char rune) []func() {
	if !e.editable {
		if key == "Return" || key == "KP_Enter" || key == "space" {
			return d.activate(e)
		}
		return nil
	}
	runes := []rune(e.value)
	e.caret = max(0, min(e.caret, len(runes)))
	switch key {
	case "BackSpace":
		if e.caret > 0 {
			e.value = string(runes[:e.caret-1]) + string(runes[e.caret:])
			e.caret--
		}
		return nil
	case "Delete":
		if e.caret < len(runes) {
			e.value = string(runes[:e.caret]) + string(runes[e.caret+1:])
		}
		return nil
	case "Left":
		e.caret = max(0, e.caret-1)
		return nil
	case "Right":
		e.caret = min(len(runes), e.caret+1)
		return nil
	case "Home":
		e.caret = 0
		return nil
	case "End":
		e.caret = len(runes)
		return nil
	case "Tab":
		if e.hasState("multi_line") {
			e.insert("\t")
		}
		return nil
	case "Return", "KP_Enter":
		if e.hasState("multi_line") {
			e.insert("\n")
			return nil
		}
		if e.hasAction("activate") {
			if f := d.perform(e, "activate"); f != nil {
				return []func(){f}
			}
		}
		return nil
	}
	if char == 0 {
		c, ok := engine.KeyChar(key, d.held["Shift_L"] || d.held["Shift_R"])
		if !ok {
			return nil
		}
		char = c
	}
	e.insert(string(char))
	return nil
}

// elementAt is the element under a root point: the last one in tree order
// whose frame holds it and that is showing; the root when no other is.
// mu held.
func (w *Window) elementAt(p engine.Point) *Element {
	lay := w.layout()
	var hit *Element
	w.root.walk(func(e *Element) {
		if e != w.root && !e.hasState("showing") {
			return
		}
		if w.toRoot(lay[e]).Contains(p) {
			hit = e
		}
	})
	return hit
}
