package engine

import (
	"context"
	"sync"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine/credential"
)

// In a takeover the model can type a secret one key at a time (press_key
// "p", "a", ..., "=", "h", ...), and no single call looks like one. So each
// session keeps what the driver itself typed by keys (press_key, hotkey,
// type_text with delivery_mode foreground) into the focused element since
// that element got focus, and refuses a key act whose characters would
// make that text look like a credential (sensitive_text, nothing sent).
//
// The buffer models the field as a line editor: characters go in at its
// caret, BackSpace and Delete remove one, Left, Right, Home and End move
// the caret. It starts empty whenever the read before a key act shows
// another element (or another window) focused than the last one, and it
// is kept across clicks that leave focus where it was, so a click cannot
// split a secret in two. What the buffer cannot see (the caret moved by a
// click or by Up and Down, text the person typed) the check of the
// focused field's live text covers when the app exposes it (field.go).
// The buffer's text is never logged or returned.

// maxTyped bounds the buffer; the oldest characters go first.
const maxTyped = 4096

// typingBuffer is what the driver typed into the focused element.
type typingBuffer struct {
	mu      sync.Mutex
	window  WindowID
	element ElementID
	text    []rune
	caret   int
}

// keyEdit is what one key act does to the focused field's text.
type keyEdit struct {
	kind editKind
	ins  string // editInsert: the characters typed
}

type editKind int

const (
	editNone editKind = iota
	editInsert
	editBackSpace
	editDelete
	editLeft
	editRight
	editHome
	editEnd
)

var editKeys = map[string]editKind{
	"BackSpace": editBackSpace, "Delete": editDelete, "KP_Delete": editDelete,
	"Left": editLeft, "KP_Left": editLeft, "Right": editRight, "KP_Right": editRight,
	"Home": editHome, "KP_Home": editHome, "End": editEnd, "KP_End": editEnd,
}

// pressEdit is what pressing one key does.
func pressEdit(name string, shift bool) keyEdit {
	if k, ok := editKeys[name]; ok {
		return keyEdit{kind: k}
	}
	if r, ok := KeyChar(name, shift); ok {
		return keyEdit{kind: editInsert, ins: string(r)}
	}
	return keyEdit{}
}

// hotkeyEdit is what a chord does: with Shift alone (or no modifier) and
// one other key, that key's (shifted) character or edit; with any other
// modifier, a shortcut that types nothing the buffer can follow.
func hotkeyEdit(keys []string) keyEdit {
	shift, other := false, ""
	for _, k := range keys {
		switch {
		case shiftKeys[k]:
			shift = true
		case IsModifierKey(k):
			return keyEdit{}
		case other != "":
			return keyEdit{} // two non-modifier keys: no single character
		default:
			other = k
		}
	}
	if other == "" {
		return keyEdit{}
	}
	e := pressEdit(other, shift)
	if shift && e.kind != editInsert {
		return keyEdit{} // Shift with a movement key selects
	}
	return e
}

// edited is a key edit applied to the buffer: the text change as byte
// offsets into before (for credential.Introduced) and the buffer after.
type edited struct {
	before  string
	at, del int
	ins     string
	text    []rune
	caret   int
}

// apply computes an edit without changing the buffer. mu held.
func (b *typingBuffer) apply(e keyEdit) edited {
	out := edited{before: string(b.text), text: b.text, caret: b.caret}
	byteAt := func(runeAt int) int { return len(string(b.text[:runeAt])) }
	switch e.kind {
	case editInsert:
		ins := []rune(e.ins)
		out.at, out.ins = byteAt(b.caret), e.ins
		out.text = make([]rune, 0, len(b.text)+len(ins))
		out.text = append(append(append(out.text, b.text[:b.caret]...), ins...), b.text[b.caret:]...)
		out.caret = b.caret + len(ins)
	case editBackSpace:
		if b.caret > 0 {
			out.at, out.del = byteAt(b.caret-1), utf8.RuneLen(b.text[b.caret-1])
			out.text = append(append([]rune{}, b.text[:b.caret-1]...), b.text[b.caret:]...)
			out.caret = b.caret - 1
		}
	case editDelete:
		if b.caret < len(b.text) {
			out.at, out.del = byteAt(b.caret), utf8.RuneLen(b.text[b.caret])
			out.text = append(append([]rune{}, b.text[:b.caret]...), b.text[b.caret+1:]...)
		}
	case editLeft:
		out.caret = max(0, b.caret-1)
	case editRight:
		out.caret = min(len(b.text), b.caret+1)
	case editHome:
		out.caret = 0
	case editEnd:
		out.caret = len(b.text)
	}
	return out
}

// introduces reports whether the edit makes the buffer's text look like a
// credential that it did not before.
func (e edited) introduces() bool {
	if e.ins == "" && e.del == 0 {
		return false
	}
	_, found := credential.Introduced(e.before, e.at, e.del, e.ins)
	return found
}

// commit stores an edit's result, keeping at most maxTyped characters.
// mu held.
func (b *typingBuffer) commit(e edited) {
	b.text, b.caret = e.text, e.caret
	if over := len(b.text) - maxTyped; over > 0 {
		b.text = append([]rune{}, b.text[over:]...)
		b.caret = max(0, b.caret-over)
	}
}

// focusOn starts the buffer afresh when focus is on another element than
// the one it holds the typing of. mu held.
func (b *typingBuffer) focusOn(w WindowID, el ElementID) {
	if b.window == w && b.element == el {
		return
	}
	b.window, b.element, b.text, b.caret = w, el, nil, 0
}

// focusedNode is the position of the focused element in a read, or -1.
func focusedNode(sn *snapshot) int {
	for i := range sn.tree.Nodes {
		if sn.tree.Nodes[i].HasState("focused") {
			return i
		}
	}
	return -1
}

// guardKeys checks a key act's edit of the focused field before anything
// is sent: against the buffer of what the driver typed there, and, for
// typed characters, against the field's live text when the app exposes
// it. It returns the function that records what was sent: the first n
// characters of an insertion, the whole edit when n is negative, nothing
// when n is 0.
func (x *act) guardKeys(ctx context.Context, e keyEdit) (func(n int), *Error) {
	win, el := x.win.ID, ElementID("")
	fp := focusedNode(x.pre)
	if fp >= 0 {
		el = x.pre.tree.Nodes[fp].ID
	}
	if e.kind == editInsert && fp >= 0 {
		if err := x.checkFocusedField(ctx, &x.pre.tree.Nodes[fp], e.ins); err != nil {
			return nil, err
		}
	}
	b := &x.s.typing
	b.mu.Lock()
	defer b.mu.Unlock()
	b.focusOn(win, el)
	if b.apply(e).introduces() {
		return nil, Errf(CodeSensitiveText, "with what was typed into the focused field, the keys would type text that looks like a credential")
	}
	return func(n int) {
		if n == 0 {
			return
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.window != win || b.element != el {
			return
		}
		if e.kind == editInsert && n > 0 {
			if r := []rune(e.ins); n < len(r) {
				e.ins = string(r[:n])
			}
		}
		b.commit(b.apply(e))
	}, nil
}
