package engine

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine/credential"
)

// The credential check runs on what a field will hold, not only on what
// one call writes: set_value "AKIAQWERTY" then type_text "UIOPASDFGH" into
// the same entry leave a whole AWS key id, and neither call alone looks
// like one. type_text therefore reads the field's live text and caret
// right before inserting (FieldReader; the caret is at the end when the
// app reports none, as the backend inserts then) and refuses the
// insertion when the text with it applied holds a credential-looking span
// that the text before did not (credential.Introduced): sensitive_text,
// nothing sent. In a field longer than the read, the text read is the
// caret's surroundings (readField). set_value replaces the whole text, so
// the value itself is what the field will hold and is checked alone. The field's text is never logged or returned;
// a secure field's is never read.

// maxFieldText bounds the live text read for the check.
const maxFieldText = 64 << 10

// aroundCaret is how many characters on each side of the caret the check
// reads when the caret lies past (or near the end of) what maxFieldText
// holds: more than the longest credential-looking span (a PEM private
// key), so a secret split between the field's text there and the
// insertion is seen whole.
const aroundCaret = 8 << 10

// readField reads an element's live text and caret, re-checking its
// security first (a secure field is secure_field and nothing is read), and
// returns besides the caret's character offset in the whole field (-1 when
// the app reports none).
// Where the field holds more than maxFieldText and its caret is near or
// past the end of what that read holds, Text is instead the text around
// the caret (ReadTextAt), and Caret is counted from its start: the check
// is about what stands beside the insertion. A caret the app does not
// report in such a field (the insertion goes at its end) leaves the first
// read: the end's place is not known.
func (x *act) readField(ctx context.Context, n *Node) (Field, int, *Error) {
	ref := ElementRef{Window: x.win.ID, ID: n.ID}
	var f Field
	err := x.s.d.callElement(ctx, func(cctx context.Context) error {
		var e error
		f, e = x.s.d.backend.ReadField(cctx, ref, maxFieldText)
		return e
	})
	if err != nil {
		return Field{}, -1, err
	}
	if f.Secure {
		return Field{}, -1, Errf(CodeSecureField, "the element is a secure field")
	}
	if !f.Truncated || f.Caret < 0 || f.Caret+aroundCaret <= utf8.RuneCountInString(f.Text) {
		return f, f.Caret, nil
	}
	start := max(0, f.Caret-aroundCaret)
	var rb Readback
	err = x.s.d.callElement(ctx, func(cctx context.Context) error {
		var e error
		rb, e = x.s.d.backend.ReadTextAt(cctx, ref, start, f.Caret+aroundCaret)
		return e
	})
	if err != nil {
		return Field{}, -1, err
	}
	if rb.Secure {
		return Field{}, -1, Errf(CodeSecureField, "the element is a secure field")
	}
	return Field{Text: rb.Value, Caret: f.Caret - start}, f.Caret, nil
}

// insertionIntroduces reports whether inserting text into a field (at its
// caret, at the end when the caret is unknown or past what was read)
// leaves a credential-looking span that was not there.
func insertionIntroduces(f Field, text string) bool {
	at := len(f.Text)
	if f.Caret >= 0 && f.Caret < utf8.RuneCountInString(f.Text) {
		at = 0
		for i := 0; i < f.Caret; i++ {
			_, size := utf8.DecodeRuneInString(f.Text[at:])
			at += size
		}
	}
	_, found := credential.Introduced(f.Text, at, 0, text)
	return found
}

// checkInsertion is the headless type_text check: the field's live text
// with the insertion applied. told says whether the text found at the
// insertion point after it will tell that it landed (heldAtCaret).
func (x *act) checkInsertion(ctx context.Context, n *Node, text string) (told bool, err *Error) {
	f, _, err := x.readField(ctx, n)
	if err != nil {
		return false, err
	}
	if insertionIntroduces(f, text) {
		return false, Errf(CodeSensitiveText, "with the field's text, the text would make it look like a credential")
	}
	return !heldAtCaret(f, text), nil
}

// heldAtCaret reports whether the field may hold text at its caret
// already, before anything is typed: then finding it there afterwards
// tells nothing (a caret before "world" and "world" typed, keys lost). A
// read that ends before the text would counts as may. At the end (no
// caret reported) nothing follows.
func heldAtCaret(f Field, text string) bool {
	if f.Caret < 0 {
		return false
	}
	rs := []rune(f.Text)
	after := string(rs[min(f.Caret, len(rs)):])
	return strings.HasPrefix(after, text) || f.Truncated && strings.HasPrefix(text, after)
}

// checkFocusedField is the takeover's check of keys typed into the
// focused element when the app exposes its text: as checkInsertion, but a
// field that cannot be read leaves the check to the typing buffer
// (typing.go) instead of failing the act. A field read with its caret
// notes where the keys will type (x.keysAt), for the confirmation.
func (x *act) checkFocusedField(ctx context.Context, n *Node, text string) *Error {
	if n.Secure || !n.Editable {
		return nil
	}
	f, caret, err := x.readField(ctx, n)
	if err != nil {
		return nil
	}
	if insertionIntroduces(f, text) {
		return Errf(CodeSensitiveText, "with the focused field's text, the keys would type text that looks like a credential")
	}
	if caret >= 0 && !heldAtCaret(f, text) {
		x.keysAt = &textPlace{ref: ElementRef{Window: x.win.ID, ID: n.ID}, at: caret}
	}
	return nil
}

// textPlace is a character offset in an element's text.
type textPlace struct {
	ref ElementRef
	at  int
}

// looksSensitive reports text that looks like a credential
// (docs/contract.md#credential-looking-text): such text is never typed, set
// or moved through the clipboard.
func looksSensitive(s string) bool {
	_, found := credential.Detect(s)
	return found
}
