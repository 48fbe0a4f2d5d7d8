package mock

import (
	"context"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// ReadTree reads a window's tree in pre-order within the budget. A budget
// field of zero or less means the zoom budget's. Nodes deeper than
// MaxDepth (the root is depth 0) and nodes past MaxElements are left out and
// set Truncated; a table read in part (SetTableSize) sets it too, and
// BlocksOnly when nothing else was left out. ChildCount is always the element's real number of
// children. The nodes are fresh copies the caller may keep.
func (d *Desktop) ReadTree(ctx context.Context, window engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	var t *engine.Tree
	err := d.appCall(ctx, Call{Method: "ReadTree", Window: window}, func(w *Window) error {
		t = w.read(budget)
		return nil
	})
	return t, err
}

// read walks the tree. mu held.
func (w *Window) read(b engine.Budget) *engine.Tree {
	return w.readFrom(w.root, b)
}

// readFrom walks the subtree of e as read walks the window's: e is
// Nodes[0], at depth 0. mu held.
func (w *Window) readFrom(root *Element, b engine.Budget) *engine.Tree {
	if b.MaxElements <= 0 {
		b.MaxElements = engine.DefaultZoomBudget().MaxElements
	}
	if b.MaxDepth <= 0 {
		b.MaxDepth = engine.DefaultZoomBudget().MaxDepth
	}
	lay := w.layout()
	t := &engine.Tree{Window: w.id}
	if root == w.root && !w.app.offBus {
		// The read is kept whole by whoever asked (a wait holds it
		// for as long as it waits): no room past its end.
		t.Nodes = make([]engine.Node, 0, min(len(w.byID), b.MaxElements))
	}
	cut := false // left out by the budget, not by a table read in part
	var visit func(e *Element, parent, index, depth int) bool
	visit = func(e *Element, parent, index, depth int) bool {
		if len(t.Nodes) >= b.MaxElements {
			t.Truncated, cut = true, true
			return false
		}
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, w.node(e, parent, index, depth, lay[e]))
		if e.table != nil {
			// A table read in part, as the native backend reads a
			// sheet by its visible block: its other cells are left out.
			t.Truncated = true
		}
		if w.app.offBus {
			// Off the bus, a window is its frame alone (from X).
			t.Nodes[i].ChildCount = 0
			return true
		}
		if depth >= b.MaxDepth {
			if len(e.children) > 0 {
				t.Truncated, cut = true, true
			}
			return true
		}
		for k, c := range e.children {
			if !visit(c, i, k, depth+1) {
				return false
			}
		}
		return true
	}
	visit(root, -1, 0, 0)
	t.BlocksOnly = t.Truncated && !cut
	return t
}

// node copies one element into a Node. A secure element's value is never
// copied. mu held.
func (w *Window) node(e *Element, parent, index, depth int, frame engine.Rect) engine.Node {
	n := engine.Node{
		ID:            e.id,
		Parent:        parent,
		IndexInParent: index,
		Depth:         depth,
		Role:          e.role,
		Name:          e.name,
		Description:   e.desc,
		States:        append([]string(nil), e.states...),
		Actions:       append([]string(nil), e.actions...),
		ChildCount:    len(e.children),
		Frame:         w.toRoot(frame),
		Secure:        e.secure,
		Editable:      e.editable && !e.windowKeys,
		Text:          e.text,
		Table:         e.tableSize(),
	}
	if e.numeric != nil {
		n.Numeric = &engine.NumericRange{Step: e.numeric.step}
	}
	if e.hasValue && (!e.secure || w.d.leakSecure) {
		n.Value, n.HasValue = e.value, true
	}
	return n
}

// element resolves a reference inside a resolved window. mu held.
func (w *Window) element(ref engine.ElementRef) (*Element, error) {
	if e := w.byID[ref.ID]; e != nil {
		return e, nil
	}
	return nil, engine.Errf(engine.CodeStaleElementToken, "the element is no longer in window %d", uint64(w.id))
}

// content is the element's text: its value when it has one, else its name
// (a label's text). mu held.
func (e *Element) content() string {
	if e.hasValue {
		return e.value
	}
	return e.name
}

// ReadText returns an element's whole text, cut to maxBytes on a character
// boundary (maxBytes <= 0: no limit). An element without the Text interface
// is not_actionable; a secure one is secure_field and nothing is read; an
// element no longer in the tree is stale_element_token.
func (d *Desktop) ReadText(ctx context.Context, ref engine.ElementRef, maxBytes int) (string, bool, error) {
	var text string
	var cut bool
	err := d.elementCall(ctx, "ReadText", ref, func(w *Window, e *Element) error {
		if !e.text {
			return engine.Errf(engine.CodeNotActionable, "the element has no text interface")
		}
		if e.secure {
			return engine.Errf(engine.CodeSecureField, "the element is a secure field")
		}
		text, cut = utf8cut.Cut(e.content(), maxBytes)
		return nil
	})
	return text, cut, err
}

// elementCall is appCall on the element ref names: fn gets its window and
// the element, and an element that is gone never reaches it.
func (d *Desktop) elementCall(ctx context.Context, method string, ref engine.ElementRef, fn func(w *Window, e *Element) error) error {
	return d.appCall(ctx, Call{Method: method, Window: ref.Window, Element: ref.ID}, func(w *Window) error {
		e, err := w.element(ref)
		if err != nil {
			return err
		}
		return fn(w, e)
	})
}

// ReadValue reads the element's value live, at most maxBytes of it,
// checking first whether it is secure at this moment; a secure element's
// value is never read.
func (d *Desktop) ReadValue(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Readback, error) {
	var rb engine.Readback
	err := d.elementCall(ctx, "ReadValue", ref, func(w *Window, e *Element) error {
		if e.secure {
			rb = engine.Readback{Secure: true}
			return nil
		}
		v, cut := utf8cut.Cut(e.value, maxBytes)
		rb = engine.Readback{Value: v, Truncated: cut}
		return nil
	})
	return rb, err
}

var _ engine.FieldReader = (*Desktop)(nil)

// ReadField reads an element's text and caret for the engine's credential
// check (engine.FieldReader): a secure element is Secure and nothing is
// read; an element without the Text interface reads as empty with no
// caret. It is
// recorded in Calls like every read.
func (d *Desktop) ReadField(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Field, error) {
	f := engine.Field{Caret: -1}
	err := d.elementCall(ctx, "ReadField", ref, func(w *Window, e *Element) error {
		if e.secure {
			f.Secure = true
			return nil
		}
		if !e.text {
			return nil
		}
		f.Text, f.Truncated = utf8cut.Cut(e.value, maxBytes)
		f.Caret = max(0, min(e.caret, utf8.RuneCountInString(e.value)))
		return nil
	})
	return f, err
}

// ReadTextAt reads the element's text from character start to end (cut to
// the text), checking first whether it is secure at this moment.
func (d *Desktop) ReadTextAt(ctx context.Context, ref engine.ElementRef, start, end int) (engine.Readback, error) {
	var rb engine.Readback
	err := d.elementCall(ctx, "ReadTextAt", ref, func(w *Window, e *Element) error {
		if e.secure {
			rb.Secure = true
			return nil
		}
		runes := []rune(e.value)
		start, end = max(0, min(start, len(runes))), max(0, min(end, len(runes)))
		if start < end {
			rb.Value = string(runes[start:end])
		}
		return nil
	})
	return rb, err
}

// ReadStructure is ReadTree without the per-element details (values,
// actions, frames), as an AT-SPI cache reply gives it: the mock is an
// engine.DetailReader, so the engine's structure-then-details path runs in
// every contract test.
func (d *Desktop) ReadStructure(ctx context.Context, window engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	var t *engine.Tree
	err := d.appCall(ctx, Call{Method: "ReadStructure", Window: window}, func(w *Window) error {
		t = w.read(budget)
		return nil
	})
	if t != nil {
		for i := range t.Nodes {
			n := &t.Nodes[i]
			n.Value, n.HasValue, n.Numeric, n.Actions, n.Frame, n.Detailed = "", false, nil, nil, engine.Rect{}, false
		}
	}
	return t, err
}

// ReadDetails fills nodes of an earlier read of window win with their
// current values, actions and frames (device pixels). A secure element's
// value is never filled (unless the LeakSecureValues fault is on). An
// element that is gone is stale_element_token.
func (d *Desktop) ReadDetails(ctx context.Context, win engine.WindowID, nodes []*engine.Node) error {
	return d.rereadNodes(ctx, "ReadDetails", win, nodes, func(n *engine.Node, full engine.Node) {
		n.Value, n.HasValue, n.Numeric, n.Actions, n.Frame = full.Value, full.HasValue, full.Numeric, full.Actions, full.Frame
		n.Detailed = true
	})
}

// ReadActions reads the action names of nodes of an earlier read again
// (engine.DetailReader); the mock keeps nothing of a read, so they are
// what ReadDetails would give.
func (d *Desktop) ReadActions(ctx context.Context, win engine.WindowID, nodes []*engine.Node) error {
	return d.rereadNodes(ctx, "ReadActions", win, nodes, func(n *engine.Node, full engine.Node) { n.Actions = full.Actions })
}

// ReadFrames reads the frames of nodes of an earlier read again
// (engine.FrameReader).
func (d *Desktop) ReadFrames(ctx context.Context, win engine.WindowID, nodes []*engine.Node) error {
	return d.rereadNodes(ctx, "ReadFrames", win, nodes, func(n *engine.Node, full engine.Node) { n.Frame = full.Frame })
}

// rereadNodes reads each of nodes, of an earlier read of window win, again
// and hands fill the node and what it reads now. An element that is gone
// is stale_element_token.
func (d *Desktop) rereadNodes(ctx context.Context, method string, win engine.WindowID, nodes []*engine.Node, fill func(n *engine.Node, full engine.Node)) error {
	if len(nodes) == 0 {
		return nil
	}
	return d.appCall(ctx, Call{Method: method, Window: win, Nodes: len(nodes)}, func(w *Window) error {
		lay := w.layout()
		for _, n := range nodes {
			e := w.byID[n.ID]
			if e == nil {
				return engine.Errf(engine.CodeStaleElementToken, "an element is no longer in window %d", uint64(w.id))
			}
			fill(n, w.node(e, n.Parent, n.IndexInParent, n.Depth, lay[e]))
		}
		return nil
	})
}

// windowOf finds the live window holding an element.
func (d *Desktop) windowOf(id engine.ElementID) engine.WindowID {
	d.mu.Lock()
	defer d.mu.Unlock()
	for wid, w := range d.windows {
		if w.byID[id] != nil && !w.closed {
			return wid
		}
	}
	return 0
}
