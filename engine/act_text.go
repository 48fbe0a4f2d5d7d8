package engine

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// type_text, set_value, press_key and hotkey.

const (
	maxTypeText = 20000
	maxSetValue = 100000
	// readBackBytes is the most a value set_value writes can take in
	// UTF-8, so the value read back after a write holds all of it: a read
	// cut shorter would tell a field that holds what was written from one
	// that does not.
	readBackBytes = maxSetValue * utf8.UTFMax
	// secureCheckBytes is what the live security check reads of a value:
	// only the answer's Secure is wanted.
	secureCheckBytes = 1
	maxKeyName       = 64
	maxHotkeys       = 6
)

func typeTextSpec(x *act) (func(context.Context) *Error, *Error) {
	text, ok, err := x.a.String("text", maxTypeText)
	if err != nil {
		return nil, err
	}
	if !ok || text == "" {
		return nil, Errf(CodeInvalidArguments, "text is required")
	}
	fg, err := parseDelivery(x.a)
	if err != nil {
		return nil, err
	}
	x.synth = fg
	if !fg && x.token == nil {
		return nil, Errf(CodeInvalidArguments, "type_text needs element_token (or delivery_mode foreground in a takeover session)")
	}
	if looksSensitive(text) {
		return nil, Errf(CodeSensitiveText, "the text looks like a credential")
	}
	return func(ctx context.Context) *Error {
		if x.node != nil && x.node.Secure {
			return Errf(CodeSecureField, "element %d is a secure field", x.token.Index)
		}
		if !fg {
			n, idx := x.node, x.token.Index
			keys := false // the window_keys path (windowkeys.go)
			if !n.Editable {
				var err *Error
				if keys, err = x.takesWindowKeys(ctx, n); err != nil {
					return err
				}
				if !keys {
					if n, idx, err = x.caretTarget(ctx); err != nil {
						return err
					}
				}
			}
			// Re-checks the field's security live, and the credential
			// check on the text the field will hold (field.go).
			told, err := x.checkInsertion(ctx, n, text)
			if err != nil {
				return err
			}
			// The read shows the text one more time than before.
			before := 0
			if p, ok := x.pre.pos[idx]; ok {
				before = strings.Count(x.pre.tree.Nodes[p].Value, text)
			}
			x.confirm = func(post *snapshot) bool {
				p, ok := post.pos[idx]
				return ok && strings.Count(post.tree.Nodes[p].Value, text) > before
			}
			if keys {
				return x.typeWindowKeys(ctx, n, text)
			}
			x.path = PathText
			ref := ElementRef{Window: x.win.ID, ID: n.ID}
			at := 0
			err = x.s.d.callElement(ctx, func(cctx context.Context) error {
				var e error
				at, e = x.s.d.backend.InsertText(cctx, ref, text)
				return e
			})
			if err == nil && told {
				x.landedAfter = func(ctx context.Context) bool { return x.textAt(ctx, ref, at, text) }
			}
			return err
		}
		record, err := x.guardKeys(ctx, keyEdit{kind: editInsert, ins: text})
		if err != nil {
			return err
		}
		err = x.typeKeys(ctx, text)
		if x.typed != nil {
			record(*x.typed)
		}
		if err == nil && x.keysAt != nil {
			at := *x.keysAt
			x.landedAfter = func(ctx context.Context) bool { return x.textAt(ctx, at.ref, at.at, text) }
		}
		return err
	}, nil
}

// caretTarget is where type_text puts text given an editable container
// without editable text of its own (Writer's document, whose paragraphs
// take the text): the child the backend finds holds the caret (the last
// one shown without a caret, CaretFinder), as a person typing into the
// document would. That child must be in the read, editable and not
// secure; its node and element index come back, so that the credential
// check, the confirmation and the diff are about the text it holds. Any
// other element is not editable text.
func (x *act) caretTarget(ctx context.Context) (*Node, int, *Error) {
	f, ok := x.s.d.backend.(CaretFinder)
	if !ok || !x.node.HasState("editable") {
		return nil, 0, notActionable(x, "the element is not editable text")
	}
	var id ElementID
	err := x.s.d.callElement(ctx, func(c context.Context) error {
		var e error
		id, e = f.CaretChild(c, ElementRef{Window: x.win.ID, ID: x.node.ID})
		return e
	})
	if err != nil && err.Code == CodeNotActionable {
		// As any element without editable text: a takeover types there.
		return nil, 0, notActionable(x, err.Message)
	}
	if err != nil {
		return nil, 0, err
	}
	nodes := x.pre.tree.Nodes
	for p := x.pos + 1; p < len(nodes) && nodes[p].Depth > x.node.Depth; p++ {
		if nodes[p].ID != id || nodes[p].Parent != x.pos {
			continue
		}
		if err := x.pre.fill(ctx, x.s.d, []int{p}); err != nil {
			return nil, 0, err
		}
		n := &x.pre.tree.Nodes[p]
		if n.Secure {
			return nil, 0, Errf(CodeSecureField, "the element holding the caret in element %d is a secure field", x.token.Index)
		}
		if !n.Editable {
			return nil, 0, notActionable(x, "the element holding the caret is not editable text")
		}
		return n, x.pre.rows[p], nil
	}
	return nil, 0, notActionable(x, "the element holding the caret is not in the read; read the window again")
}

// recheckSecure reads the element's security live right before writing.
func (x *act) recheckSecure(ctx context.Context) *Error {
	var rb Readback
	err := x.s.d.callElement(ctx, func(cctx context.Context) error {
		var e error
		rb, e = x.s.d.backend.ReadValue(cctx, ElementRef{Window: x.win.ID, ID: x.node.ID}, secureCheckBytes)
		return e
	})
	if err != nil {
		return err
	}
	if rb.Secure {
		return Errf(CodeSecureField, "element %d is a secure field", x.token.Index)
	}
	return nil
}

// typeKeys types text with real key events, checking before each character
// that focus is still in the target window and that the focused element is
// not a secure field.
func (x *act) typeKeys(ctx context.Context, text string) *Error {
	x.path = PathXTest
	for i := range x.pre.tree.Nodes {
		n := &x.pre.tree.Nodes[i]
		if n.Secure && n.HasState("focused") {
			return Errf(CodeSecureField, "the focused element is a secure field")
		}
	}
	typed := 0
	x.typed = &typed
	for i, r := range text {
		if i > 0 {
			if err := sleepCtx(ctx, x.s.d.opts.KeyInterval); err != nil {
				return err
			}
		}
		if err := x.checkFocus(ctx); err != nil {
			return err
		}
		key, char := keyFor(r, x.s.d.backend.HasKey)
		if err := x.s.synth(ctx, InputEvent{Kind: InputKeyPress, Key: key, Char: char}); err != nil {
			return err
		}
		// The press types the character: counted before its release, which
		// a pause in between (the person took over) sends itself when it
		// lets go of every key held.
		typed++
		if err := x.s.synth(ctx, InputEvent{Kind: InputKeyRelease, Key: key, Char: char}); err != nil {
			return err
		}
	}
	return nil
}

// checkFocus: keys go only to the target window.
func (x *act) checkFocus(ctx context.Context) *Error {
	f, err := x.s.d.backend.FocusedWindow(ctx)
	if err != nil {
		return AsError(err)
	}
	if f != x.win.ID {
		e := Errf(CodeFocusChanged, "keyboard focus is not in window %d", x.win.ID)
		if x.typed != nil {
			n := *x.typed
			e.TypedCharacters = &n
		}
		return e
	}
	return nil
}

// keyFor names the key for a character: its keysym name when the backend
// has one, else the character itself (sent through a temporary keymap
// entry by the backend).
func keyFor(r rune, has func(string) bool) (string, rune) {
	switch r {
	case ' ':
		return "space", 0
	case '\n':
		return "Return", 0
	case '\t':
		return "Tab", 0
	}
	if r < utf8.RuneSelf && has(string(r)) {
		return string(r), 0
	}
	return "", r
}

func setValueSpec(x *act) (func(context.Context) *Error, *Error) {
	if x.token == nil {
		return nil, Errf(CodeInvalidArguments, "set_value needs element_token")
	}
	if !x.a.Has("value") {
		return nil, Errf(CodeInvalidArguments, "value is required")
	}
	var str string
	num, isNum, err := x.a.Number("value")
	if err != nil {
		return nil, err
	}
	if isNum {
		str = strconv.FormatFloat(num, 'f', -1, 64)
	} else {
		s, ok, err := x.a.String("value", maxSetValue)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Errf(CodeInvalidArguments, "value must be a string or a number")
		}
		str = s
	}
	if !isNum && looksSensitive(str) {
		return nil, Errf(CodeSensitiveText, "the value looks like a credential")
	}
	return func(ctx context.Context) *Error {
		n := x.node
		if n.Secure {
			return Errf(CodeSecureField, "element %d is a secure field", x.token.Index)
		}
		ref := ElementRef{Window: x.win.ID, ID: n.ID}
		if !isNum && n.Numeric != nil {
			if f, err := strconv.ParseFloat(strings.TrimSpace(str), 64); err == nil {
				num, isNum = f, true
			}
		}
		switch {
		case isNum && n.Numeric != nil:
			x.path = PathValue
			if err := x.s.d.callElement(ctx, func(c context.Context) error { return x.s.d.backend.SetNumber(c, ref, num) }); err != nil {
				return err
			}
		case n.Editable:
			if err := x.recheckSecure(ctx); err != nil {
				return err
			}
			x.path = PathText
			if err := x.s.d.callElement(ctx, func(c context.Context) error { return x.s.d.backend.SetText(c, ref, str) }); err != nil {
				return err
			}
		default:
			return notActionable(x, "the element takes neither text nor a numeric value")
		}
		numeric := isNum && n.Numeric != nil
		x.readBackAfter = func(ctx context.Context) string { return x.readBack(ctx, ref, str, num, numeric) }
		return nil
	}, nil
}

// textAt reads, live, whether the field holds text at character at, where
// it was inserted. A read cuts a value (valueMax, the backend's own bound),
// so an insertion past the cut, in a long document, changes nothing a read
// shows: this is what confirms it. A secure field is not read.
func (x *act) textAt(ctx context.Context, ref ElementRef, at int, text string) bool {
	var rb Readback
	err := x.s.d.callElement(ctx, func(c context.Context) error {
		var e error
		rb, e = x.s.d.backend.ReadTextAt(c, ref, at, at+utf8.RuneCountInString(text))
		return e
	})
	return err == nil && !rb.Secure && rb.Value == text
}

// readBack reads the value after a write (docs/contract.md#readback),
// re-checking the field's security live first: a secure field is never read
// back.
func (x *act) readBack(ctx context.Context, ref ElementRef, str string, num float64, numeric bool) string {
	var rb Readback
	err := x.s.d.callElement(ctx, func(c context.Context) error {
		var e error
		rb, e = x.s.d.backend.ReadValue(c, ref, readBackBytes)
		return e
	})
	if err != nil || rb.Secure {
		return ReadbackUnverified
	}
	if rb.Truncated {
		// The field holds more than any value written: not what was written.
		return ReadbackMismatch
	}
	if numeric {
		got, perr := strconv.ParseFloat(strings.TrimSpace(rb.Value), 64)
		tol := 1e-9
		if x.node.Numeric != nil && x.node.Numeric.Step > 0 {
			tol = x.node.Numeric.Step / 2
		}
		if perr == nil && math.Abs(got-num) <= tol {
			return ReadbackMatch
		}
		return ReadbackMismatch
	}
	if rb.Value == str {
		return ReadbackMatch
	}
	return ReadbackMismatch
}

func pressKeySpec(x *act) (func(context.Context) *Error, *Error) {
	key, ok, err := x.a.String("key", maxKeyName)
	if err != nil {
		return nil, err
	}
	if !ok || key == "" {
		return nil, Errf(CodeInvalidArguments, "key is required")
	}
	if !x.s.d.backend.HasKey(key) {
		return nil, Errf(CodeInvalidArguments, "key is not a known key name")
	}
	if x.token != nil && !x.s.inTakeover() && isWindowKey(key) {
		// Headless into one field, on the window_keys path (windowkey.go).
		return func(ctx context.Context) *Error { return x.pressWindowKey(ctx, key) }, nil
	}
	x.synth = true
	return func(ctx context.Context) *Error { return x.guardedPress(ctx, []string{key}, pressEdit(key, false)) }, nil
}

func hotkeySpec(x *act) (func(context.Context) *Error, *Error) {
	x.synth = true
	items, ok := x.a.Array("keys")
	if !ok || len(items) == 0 || len(items) > maxHotkeys {
		return nil, Errf(CodeInvalidArguments, "keys must list 1 to %d key names", maxHotkeys)
	}
	keys := make([]string, 0, len(items))
	for _, it := range items {
		var k string
		if json.Unmarshal(it, &k) != nil || k == "" || len(k) > maxKeyName || !x.s.d.backend.HasKey(k) {
			return nil, Errf(CodeInvalidArguments, "keys must be known key names")
		}
		keys = append(keys, k)
	}
	return func(ctx context.Context) *Error { return x.guardedPress(ctx, keys, hotkeyEdit(keys)) }, nil
}

// guardedPress is press_key and hotkey: the credential check of what the
// keys type into the focused field (typing.go), then the keys.
func (x *act) guardedPress(ctx context.Context, keys []string, e keyEdit) *Error {
	record, err := x.guardKeys(ctx, e)
	if err != nil {
		return err
	}
	pressed, err := x.pressKeys(ctx, keys)
	if pressed {
		record(-1)
	}
	return err
}

// pressKeys presses keys in order and releases them in reverse, into the
// focused target window only. pressed says whether any key went down.
func (x *act) pressKeys(ctx context.Context, keys []string) (pressed bool, err *Error) {
	x.path = PathXTest
	if err := x.checkFocus(ctx); err != nil {
		return false, err
	}
	for _, k := range keys {
		if err := x.s.synth(ctx, InputEvent{Kind: InputKeyPress, Key: k}); err != nil {
			return pressed, err
		}
		pressed = true
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if err := x.s.synth(ctx, InputEvent{Kind: InputKeyRelease, Key: keys[i]}); err != nil {
			return pressed, err
		}
	}
	return pressed, nil
}
