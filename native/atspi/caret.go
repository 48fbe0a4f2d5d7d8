package atspi

import "context"

// Where text typed into a document goes when the document has no editable
// text of its own. LibreOffice Writer's document (role document text,
// editable) has no Text or EditableText interface: its paragraphs, its
// children, have them, and the one holding the caret answers a
// CaretOffset of 0 or more while every other answers -1. A person typing
// into the document types at the caret, so the driver does the same:
// it finds that paragraph among the children the document lists (those
// on screen, under docChildrenMax) and inserts there (InsertText).

// CaretChild returns the child of container id that holds the caret: the
// first listed child whose Text.CaretOffset is 0 or more, preferring a
// focused one; with none, the last child listed (text then goes at the end
// of what shows, as InsertText puts it in a field nobody clicked into).
// The container must be editable and not secure (KindSecure); one with
// editable text of its own takes the text itself and is returned as it is.
// One that lists no children, or claims more than docChildrenMax, is
// KindRefused. Calls: Properties.Get of ChildCount, GetChildren, and per
// child GetState and Properties.Get of Text.CaretOffset (a child without
// Text answers an error, and does not hold the caret).
func (c *Client) CaretChild(ctx context.Context, id ID) (ID, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return "", err
	}
	if l.secure {
		return "", failure(KindSecure, "the element is a secure field")
	}
	if editableText(l.ifaces, l.states) {
		return id, nil
	}
	if !l.states.has(stateEditable) {
		return "", failure(KindRefused, "the element has no editable text")
	}
	kids, err := c.docChildren(ctx, l)
	if err != nil {
		return "", err
	}
	if len(kids) == 0 {
		return "", failure(KindRefused, "the element holds nothing that takes text")
	}
	carets := make([]int32, len(kids))
	focused := make([]bool, len(kids))
	for i := range carets {
		carets[i] = -1
	}
	err = c.docRound(ctx, l, func(p *pipe) {
		for i, k := range kids {
			p.add(l.conn, call{target: i, kind: kindState}, k.bus, k.path, "org.a11y.atspi.Accessible", "GetState")
			p.add(l.conn, call{target: i, kind: kindCaret}, k.bus, k.path, propertiesIface, "Get", "org.a11y.atspi.Text", "CaretOffset")
		}
	}, func(a *answer, d *decoder) {
		switch a.kind {
		case kindState:
			focused[a.target] = decodeStates(d).has(stateFocused)
		case kindCaret:
			if d.sig() == "i" {
				if v := d.int32(); d.err == nil {
					carets[a.target] = v
				}
			}
		}
	})
	if err != nil {
		return "", err
	}
	at := caretHolder(carets, focused)
	return c.mintID(l.tag, kids[at].bus, kids[at].path), nil
}

// caretHolder picks the child that holds the caret from the children's
// caret offsets and focused states (CaretChild): a focused child with a
// caret, else the first with a caret, else the last child.
func caretHolder(carets []int32, focused []bool) int {
	first := -1
	for i, v := range carets {
		if v < 0 {
			continue
		}
		if focused[i] {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	if first >= 0 {
		return first
	}
	return len(carets) - 1
}
