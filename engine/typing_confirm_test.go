package engine_test

import (
	"context"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// dropsInsertions stands between the engine and the mock desktop for an
// app that answers an insertion at its caret, at, and applies none of it.
type dropsInsertions struct {
	*mock.Desktop
	at int
}

func (d dropsInsertions) InsertText(context.Context, engine.ElementRef, string) (int, error) {
	return d.at, nil
}

// TestTypingIsNotConfirmedByTextThatWasThere: a field that already held
// the text typed, where it was typed, does not confirm a typing the app
// dropped: neither the read (the text shows as often as before) nor the
// live read at the insertion point (it held the text before). Before, a
// read that merely contained the text confirmed it.
func TestTypingIsNotConfirmedByTextThatWasThere(t *testing.T) {
	cases := []struct {
		name, value string
		caret       int
	}{
		{"the caret before the same text", "hello world", 5},
		{"the text elsewhere in the field", "world, hello", 12},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, withBackend(func(d *mock.Desktop) engine.Backend { return dropsInsertions{d, c.caret} }))
			name := h.demo.Form.Name
			name.SetValue(c.value).SetCaret(c.caret)
			h.start(nil)
			read := h.readForm(nil)
			res := h.ok("type_text", map[string]any{"element_token": testkit.Token(t, read, "entry", name.Name()), "text": " world"})
			if res["effect"] != string(engine.EffectNoChange) {
				t.Fatalf("a dropped typing says %v: %v", res["effect"], res)
			}
		})
	}
}
