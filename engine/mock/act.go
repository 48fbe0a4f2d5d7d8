package mock

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
)

// ActionContext is what an action handler gets: the element acted on, its
// window and the desktop, to change anything (names, values, states, new or
// removed elements), now or later through After.
type ActionContext struct {
	Desktop *Desktop
	Window  *Window
	Element *Element
	Action  string
}

// After schedules a later change (Desktop.After), so a settle loop sees it
// arrive after the act returned.
func (c *ActionContext) After(dur time.Duration, fn func()) { c.Desktop.After(dur, fn) }

// Default runs the built-in behaviour of the action (a check box toggles,
// a combo box expands, ...), for handlers that add to it.
func (c *ActionContext) Default() {
	c.Desktop.mu.Lock()
	defer c.Desktop.mu.Unlock()
	c.Element.builtin(c.Action)
	c.Desktop.touch()
}

// DoAction invokes a named action of the element. An action the element
// does not list is not_actionable. The backend does not refuse disabled or
// hidden elements (the engine decides that); it acts as AT-SPI would.
func (d *Desktop) DoAction(ctx context.Context, ref engine.ElementRef, action string) error {
	i := d.record(Call{Method: "DoAction", Window: ref.Window, Element: ref.ID, Action: action})
	var run func()
	err := d.appCallWait(ctx, ref.Window, func(w *Window) error {
		e, err := w.element(ref)
		if err != nil {
			return err
		}
		if !e.hasAction(action) {
			return engine.Errf(engine.CodeNotActionable, "the element has no action of that name")
		}
		run = d.perform(e, action)
		return nil
	})
	if err == nil && run != nil {
		run()
	}
	d.finish(i, err)
	return err
}

// perform applies an action: the built-in behaviour at once, or the
// scripted handler returned for running without the lock. mu held.
func (d *Desktop) perform(e *Element, action string) func() {
	if h := e.handlers[action]; h != nil {
		ac := &ActionContext{Desktop: d, Window: e.win, Element: e, Action: action}
		return func() { h(ac) }
	}
	e.builtin(action)
	d.touch()
	return nil
}

// primary is the element's first primary action, "" if none. mu held.
func (e *Element) primary() string {
	for _, a := range primaryActions {
		if e.hasAction(a) {
			return a
		}
	}
	return ""
}

func isPrimary(action string) bool { return slices.Contains(primaryActions, action) }

// builtin is what an action does without a handler. mu held.
func (e *Element) builtin(action string) {
	switch {
	case toggling[e.role] && isPrimary(action):
		if radio[e.role] {
			if e.parent != nil {
				for _, s := range e.parent.children {
					if s != e && radio[s.role] {
						s.dropState("checked")
					}
				}
			}
			e.addState("checked")
			return
		}
		if e.hasState("checked") {
			e.dropState("checked")
		} else {
			e.addState("checked")
		}
	case (e.role == "combo_box" || e.role == "menu") && isPrimary(action):
		if e.hasState("expanded") {
			e.dropState("expanded")
		} else {
			e.addState("expanded")
		}
	case e.role == "page_tab" && isPrimary(action):
		if e.parent != nil {
			for _, s := range e.parent.children {
				if s != e && s.role == "page_tab" {
					s.dropState("selected")
				}
			}
		}
		e.addState("selected")
	}
}

// recordText keeps the text of an edit call apart from Calls.
func (d *Desktop) recordText(method string, id engine.ElementID, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.texts = append(d.texts, TextCall{Method: method, Element: id, Text: text})
}

// InsertText inserts text at the element's caret, which then moves past it.
// A secure element takes the text too, as a real one would: refusing is
// the engine's job, and Calls lets a test check that it never got here.
func (d *Desktop) InsertText(ctx context.Context, ref engine.ElementRef, text string) (int, error) {
	at := 0
	err := d.editText(ctx, "InsertText", ref, text, func(e *Element) { at = e.insert(text) })
	return at, err
}

var _ engine.CaretFinder = (*Desktop)(nil)

// CaretChild finds the child of an editable container without editable
// text of its own that holds the caret, as the live backend does for
// LibreOffice Writer's document (native/atspi/caret.go): the focused
// child, else the last one. A container with editable text is returned
// as it is; a secure one is secure_field; one without the editable state
// or without children is not_actionable.
func (d *Desktop) CaretChild(ctx context.Context, ref engine.ElementRef) (engine.ElementID, error) {
	var id engine.ElementID
	err := d.elementCall(ctx, "CaretChild", ref, func(_ *Window, e *Element) error {
		switch {
		case e.secure:
			return engine.Errf(engine.CodeSecureField, "the element is a secure field")
		case e.editable:
			id = e.id
			return nil
		case !e.hasState("editable") || len(e.children) == 0:
			return engine.Errf(engine.CodeNotActionable, "the element has no editable text")
		}
		id = e.children[len(e.children)-1].id
		for _, ch := range e.children {
			if ch.hasState("focused") {
				id = ch.id
			}
		}
		return nil
	})
	return id, err
}

// editText records a text act, then changes the editable element's text
// with edit on the app's side.
func (d *Desktop) editText(ctx context.Context, method string, ref engine.ElementRef, text string, edit func(e *Element)) error {
	d.recordText(method, ref.ID, text)
	return d.elementCall(ctx, method, ref, func(_ *Window, e *Element) error {
		if !e.editable {
			return engine.Errf(engine.CodeNotActionable, "the element has no editable text")
		}
		edit(e)
		d.touch()
		return nil
	})
}

// insert puts text at the caret and returns where, in characters. mu held.
func (e *Element) insert(text string) int {
	runes := []rune(e.value)
	at := max(0, min(e.caret, len(runes)))
	var b strings.Builder
	b.WriteString(string(runes[:at]))
	b.WriteString(text)
	b.WriteString(string(runes[at:]))
	e.value, e.hasValue = b.String(), true
	e.caret = at + utf8.RuneCountInString(text)
	return at
}

// SetText replaces the element's whole text. On a Value-interface element
// (a spin button) text that parses as a number also sets the number,
// clamped to the range; the text stays as given.
func (d *Desktop) SetText(ctx context.Context, ref engine.ElementRef, text string) error {
	return d.editText(ctx, "SetText", ref, text, func(e *Element) {
		if e.numeric != nil {
			if v, perr := strconv.ParseFloat(strings.TrimSpace(text), 64); perr == nil && !math.IsNaN(v) {
				e.setNumber(v)
			}
		}
		e.setValue(text)
	})
}

// SetNumber sets a Value-interface element's number, clamped to its range;
// its value text becomes the number's shortest decimal form.
func (d *Desktop) SetNumber(ctx context.Context, ref engine.ElementRef, v float64) error {
	return d.elementCall(ctx, "SetNumber", ref, func(w *Window, e *Element) error {
		if e.numeric == nil {
			return engine.Errf(engine.CodeNotActionable, "the element has no numeric value")
		}
		if math.IsNaN(v) {
			return engine.Errf(engine.CodeInvalidArguments, "the number is not a number")
		}
		e.setNumber(v)
		d.touch()
		return nil
	})
}
