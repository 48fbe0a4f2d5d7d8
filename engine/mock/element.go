package mock

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
)

// Element is one accessible of a window's tree. Its id is stable for its
// life: the app instance's bus name plus an object path, never reused.
//
// Setters return the element so that builders chain:
//
//	w.Root().Add("entry", "Email").SetValue("ada@example.org")
type Element struct {
	win      *Window
	id       engine.ElementID
	parent   *Element
	children []*Element
	removed  bool

	role, name, desc string
	value            string
	hasValue         bool
	caret            int // in runes
	numeric          *valueRange
	number           float64
	states           []string
	actions          []string
	secure           bool
	editable         bool
	text             bool
	windowKeys       bool         // takes text only as keys sent to its window (windowkeys.go)
	keysUnconfirmed  bool         // its app confirms no focus while its window is inactive (windowkey.go)
	frame            *engine.Rect // window coordinates, logical pixels; nil: laid out automatically
	handlers         map[string]func(*ActionContext)
	scroll           *scrollView       // a scrolled view's state (scroll.go)
	table            *engine.TableSize // a table read in part (table.go)
	belowFold        []string          // a document's paragraphs not listed as children (doctext.go)
}

// newElement makes an element with its role's defaults and registers it in
// the window. mu held (or the window not yet shared).
func (w *Window) newElement(parent *Element, role, name string) *Element {
	a := w.app
	a.nextObj++
	e := &Element{
		win:    w,
		id:     engine.ElementID(fmt.Sprintf("%s/org/a11y/atspi/accessible/%d", a.bus, a.nextObj)),
		parent: parent,
		role:   role,
		name:   name,
	}
	def := roleTable[role]
	e.states = append(append([]string(nil), baseStates...), def.states...)
	e.actions = append([]string(nil), def.actions...)
	e.editable, e.text, e.secure, e.hasValue = def.editable, def.text, def.secure, def.value
	if parent != nil && parent.removed {
		e.removed = true
	} else {
		w.byID[e.id] = e
	}
	return e
}

// Add appends a child element with the role's defaults (see roleTable):
// push buttons click, check boxes toggle, entries are editable text, a
// password_text is secure, and so on.
func (e *Element) Add(role, name string) *Element {
	d := e.win.d
	d.mu.Lock()
	defer d.mu.Unlock()
	c := e.win.newElement(e, role, name)
	e.children = append(e.children, c)
	d.touch()
	return c
}

// AddAt inserts a child at index i (clamped), shifting later siblings.
func (e *Element) AddAt(i int, role, name string) *Element {
	d := e.win.d
	d.mu.Lock()
	defer d.mu.Unlock()
	c := e.win.newElement(e, role, name)
	i = max(0, min(i, len(e.children)))
	e.children = append(e.children, nil)
	copy(e.children[i+1:], e.children[i:])
	e.children[i] = c
	d.touch()
	return c
}

// Remove takes the element and its subtree out of the tree. The root
// cannot be removed (close the window instead).
func (e *Element) Remove() {
	d := e.win.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if e.parent == nil || e.removed {
		return
	}
	d.touch()
	p := e.parent
	for i, c := range p.children {
		if c == e {
			p.children = append(p.children[:i:i], p.children[i+1:]...)
			break
		}
	}
	e.walk(func(x *Element) {
		x.removed = true
		delete(e.win.byID, x.id)
		if e.win.focus == x {
			e.win.focus = nil
		}
		if d.pressed == x {
			d.pressed = nil
		}
	})
}

// walk visits the subtree in pre-order. mu held.
func (e *Element) walk(fn func(*Element)) {
	fn(e)
	for _, c := range e.children {
		c.walk(fn)
	}
}

// set makes a change to the element (Desktop.change).
func (e *Element) set(fn func()) *Element {
	e.win.d.change(fn)
	return e
}

// get reads under the desktop's lock.
func get[T any](e *Element, fn func() T) T {
	e.win.d.mu.Lock()
	defer e.win.d.mu.Unlock()
	return fn()
}

// SetName changes the accessible name.
func (e *Element) SetName(s string) *Element { return e.set(func() { e.name = s }) }

// SetDescription changes the accessible description.
func (e *Element) SetDescription(s string) *Element { return e.set(func() { e.desc = s }) }

// SetValue sets the element's text value (and gives it one); the caret
// moves to its end.
func (e *Element) SetValue(s string) *Element { return e.set(func() { e.setValue(s) }) }

func (e *Element) setValue(s string) {
	e.value, e.hasValue = s, true
	e.caret = utf8.RuneCountInString(s)
}

// SetCaret puts the caret at a rune offset (clamped), where InsertText and
// typed characters go.
func (e *Element) SetCaret(n int) *Element {
	return e.set(func() { e.caret = max(0, min(n, utf8.RuneCountInString(e.value))) })
}

// SetNumeric gives the element the Value interface: a range and a current
// number, which is also its value text.
func (e *Element) SetNumeric(minV, maxV, step, v float64) *Element {
	return e.set(func() {
		e.numeric = &valueRange{min: minV, max: maxV, step: step}
		e.setNumber(v)
	})
}

// SetNumber sets the current number, clamped to the range.
func (e *Element) SetNumber(v float64) *Element { return e.set(func() { e.setNumber(v) }) }

func (e *Element) setNumber(v float64) {
	if r := e.numeric; r != nil && r.min <= r.max {
		v = math.Max(r.min, math.Min(r.max, v))
	}
	e.number = v
	e.setValue(formatNumber(v))
}

// valueRange is a Value-interface element's range, as the simulated app
// keeps it: its number stays within the bounds. Reads give the engine the
// step only, as the native backend does.
type valueRange struct{ min, max, step float64 }

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// SetStates replaces the state set.
func (e *Element) SetStates(states ...string) *Element {
	return e.set(func() { e.states = append([]string(nil), states...) })
}

// AddStates adds states the element does not carry yet.
func (e *Element) AddStates(states ...string) *Element {
	return e.set(func() {
		for _, s := range states {
			e.addState(s)
		}
	})
}

// RemoveStates drops states.
func (e *Element) RemoveStates(states ...string) *Element {
	return e.set(func() {
		for _, s := range states {
			e.dropState(s)
		}
	})
}

// Disable makes the element insensitive (drops enabled and sensitive).
func (e *Element) Disable() *Element { return e.RemoveStates("enabled", "sensitive") }

// Enable makes it sensitive again.
func (e *Element) Enable() *Element { return e.AddStates("enabled", "sensitive") }

// Hide takes it off screen (drops visible and showing).
func (e *Element) Hide() *Element { return e.RemoveStates("visible", "showing") }

// Show puts it back on screen.
func (e *Element) Show() *Element { return e.AddStates("visible", "showing") }

func (e *Element) hasState(s string) bool { return slices.Contains(e.states, s) }

func (e *Element) addState(s string) {
	if !e.hasState(s) {
		e.states = append(e.states, s)
	}
}

func (e *Element) dropState(s string) {
	for i, x := range e.states {
		if x == s {
			e.states = append(e.states[:i:i], e.states[i+1:]...)
			return
		}
	}
}

// SetActions replaces the action names.
func (e *Element) SetActions(actions ...string) *Element {
	return e.set(func() { e.actions = append([]string(nil), actions...) })
}

// SetSecure marks the element as a secure (password-like) field or not. A
// secure element's value is never returned by ReadTree, ReadText or
// ReadValue.
func (e *Element) SetSecure(on bool) *Element { return e.set(func() { e.secure = on }) }

// SetEditable says whether the element implements EditableText.
func (e *Element) SetEditable(on bool) *Element { return e.set(func() { e.editable = on }) }

// SetHasText says whether the element implements Text (ReadText works).
func (e *Element) SetHasText(on bool) *Element { return e.set(func() { e.text = on }) }

// SetFrame places the element at a rectangle in root coordinates (device
// pixels). It is kept relative to the window, so it moves when the window
// does.
func (e *Element) SetFrame(r engine.Rect) *Element {
	return e.set(func() {
		wf := e.win.frame
		rel := e.win.toLogical(engine.Rect{X: r.X - wf.X, Y: r.Y - wf.Y, W: r.W, H: r.H})
		e.frame = &rel
	})
}

// AutoFrame goes back to the automatic layout.
func (e *Element) AutoFrame() *Element { return e.set(func() { e.frame = nil }) }

// Focus gives the element the keyboard focus inside its window (the state
// "focused"); keys sent to the window go to it.
func (e *Element) Focus() *Element { return e.set(func() { e.win.setFocusElement(e) }) }

// setFocusElement moves the focused state inside a window. mu held.
func (w *Window) setFocusElement(e *Element) {
	if w.focus == e {
		return
	}
	if w.focus != nil {
		w.focus.dropState("focused")
	}
	w.focus = e
	if e != nil {
		e.addState("focused")
	}
}

// OnAction scripts what an action does, replacing the built-in behaviour
// (ActionContext.Default runs that too). The action is added to the
// element's action names if missing. The handler runs without the desktop's
// lock, inside the DoAction call (or the click that triggered it).
func (e *Element) OnAction(action string, fn func(*ActionContext)) *Element {
	return e.set(func() {
		if e.handlers == nil {
			e.handlers = map[string]func(*ActionContext){}
		}
		e.handlers[action] = fn
		if !e.hasAction(action) {
			e.actions = append(e.actions, action)
		}
	})
}

func (e *Element) hasAction(a string) bool { return slices.Contains(e.actions, a) }

// ID is the element's stable id.
func (e *Element) ID() engine.ElementID { return e.id }

// Ref names the element for a backend call.
func (e *Element) Ref() engine.ElementRef { return engine.ElementRef{Window: e.win.id, ID: e.id} }

// Window is the element's window.
func (e *Element) Window() *Window { return e.win }

// Role is the element's role.
func (e *Element) Role() string { return get(e, func() string { return e.role }) }

// Name is the element's accessible name.
func (e *Element) Name() string { return get(e, func() string { return e.name }) }

// Description is the element's accessible description.
func (e *Element) Description() string { return get(e, func() string { return e.desc }) }

// Value is the element's value, secure or not (tests only: the backend
// never returns a secure value).
func (e *Element) Value() string { return get(e, func() string { return e.value }) }

// Number is a Value-interface element's current number.
func (e *Element) Number() float64 { return get(e, func() float64 { return e.number }) }

// States returns a copy of the states.
func (e *Element) States() []string {
	return get(e, func() []string { return append([]string(nil), e.states...) })
}

// HasState reports whether the element carries a state.
func (e *Element) HasState(s string) bool { return get(e, func() bool { return e.hasState(s) }) }

// Actions returns a copy of the action names.
func (e *Element) Actions() []string {
	return get(e, func() []string { return append([]string(nil), e.actions...) })
}

// Secure reports whether the element is secure.
func (e *Element) Secure() bool { return get(e, func() bool { return e.secure }) }

// Removed reports whether the element was taken out of its tree.
func (e *Element) Removed() bool { return get(e, func() bool { return e.removed }) }

// Parent is the element's parent (nil for the root).
func (e *Element) Parent() *Element { return get(e, func() *Element { return e.parent }) }

// Children returns a copy of the element's children.
func (e *Element) Children() []*Element {
	return get(e, func() []*Element { return append([]*Element(nil), e.children...) })
}

// Frame is the element's rectangle in root coordinates, laid out
// automatically unless SetFrame placed it.
func (e *Element) Frame() engine.Rect {
	return get(e, func() engine.Rect {
		rel := e.win.layout()[e]
		return e.win.toRoot(rel)
	})
}

// Find returns the first element of the subtree (pre-order, the element
// itself included) with the role and name; an empty role or name matches
// any. Nil when none does.
func (e *Element) Find(role, name string) *Element {
	return get(e, func() *Element {
		var found *Element
		e.walk(func(x *Element) {
			if found == nil && (role == "" || x.role == role) && (name == "" || x.name == name) {
				found = x
			}
		})
		return found
	})
}

// FindAll returns every element of the subtree with the role and name, in
// pre-order; an empty role or name matches any.
func (e *Element) FindAll(role, name string) []*Element {
	return get(e, func() []*Element {
		var out []*Element
		e.walk(func(x *Element) {
			if (role == "" || x.role == role) && (name == "" || x.name == name) {
				out = append(out, x)
			}
		})
		return out
	})
}

// Find searches the window's tree (Element.Find on the root).
func (w *Window) Find(role, name string) *Element { return w.root.Find(role, name) }

// Element returns an element of the window by id, or nil.
func (w *Window) Element(id engine.ElementID) *Element {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return w.byID[id]
}

// Len is the number of elements in the window's tree.
func (w *Window) Len() int {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return len(w.byID)
}
