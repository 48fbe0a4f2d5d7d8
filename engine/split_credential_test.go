package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// A credential split over several writes into one field is refused at the
// write that completes it: the check runs on what the field will hold.

// inserts counts the text writes the mock received.
func inserts(h *harness) int { return len(h.desk.Texts()) }

func TestACredentialSplitOverHeadlessWritesIsRefused(t *testing.T) {
	cases := []struct {
		name        string
		first       string // set_value
		caret       int    // where the caret is put before type_text (-1: left at the end)
		second      string // type_text
		wantRefused bool
	}{
		{"an aws key id in two halves", "AKIAQWERTY", -1, "UIOPASDFGH", true},
		{"a password after its key", "password=", -1, "hunter2", true},
		{"a key typed in front of its value", "hunter2", 0, "password=", true},
		{"an aws key id prefix typed at the caret", "QWERTYUIOPASDFGH", 0, "AKIA", true},
		{"the same prefix at the end makes no key", "QWERTYUIOPASDFGH", -1, "AKIA", false},
		{"prose after prose", "meeting at", -1, " noon", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.start(map[string]any{"apps": []any{"Form Demo"}})
			entry := testkit.Token(t, h.readForm(nil), "entry", "Phone")
			h.ok("set_value", map[string]any{"element_token": entry, "value": c.first})
			field := h.demo.Form.Window.Root().Find("entry", "Phone")
			if c.caret >= 0 {
				field.SetCaret(c.caret)
			}
			before := inserts(h)
			args := map[string]any{"element_token": testkit.Token(t, h.readForm(nil), "entry", "Phone"), "text": c.second}
			if !c.wantRefused {
				h.ok("type_text", args)
				return
			}
			h.fail(engine.CodeSensitiveText, "type_text", args)
			if inserts(h) != before || field.Value() != c.first {
				t.Fatalf("the refused text reached the field")
			}
		})
	}
}

// A document that already holds a credential-looking line still takes
// ordinary typing: only spans the write creates count.
func TestTypingNextToACredentialADocumentHoldsIsAllowed(t *testing.T) {
	h := newHarness(t, nil)
	h.start(map[string]any{"apps": []any{"Editor"}})
	doc := testkit.Token(t, h.readEditor(), "document_text", "")
	h.ok("type_text", map[string]any{"element_token": doc, "text": "Hello. "})
}

// In a takeover, keys typed one at a time are checked with what the driver
// typed into the focused field since it got focus.
func TestACredentialTypedKeyByKeyIsRefusedAtTheCompletingKey(t *testing.T) {
	keys := []string{"p", "a", "s", "s", "w", "o", "r", "d", "equal", "h", "u", "n", "t", "e", "r", "2"}
	cases := []struct {
		name     string
		readable bool // the field exposes its text (else only the typing buffer sees it)
	}{
		{"a field whose text the app exposes", true},
		{"a field whose text the app hides", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.start(map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
			win := uint64(h.demo.Form.Window.ID())
			field := h.demo.Form.Window.Root().Find("entry", "Phone")
			field.SetValue("")
			if !c.readable {
				field.SetHasText(false)
			}
			field.Focus()
			h.demo.Form.Window.Focus()
			refusedAt := -1
			for i, k := range keys {
				sent := len(h.desk.Sent())
				res := h.raw("press_key", map[string]any{"window_id": win, "key": k})
				if res.Err == nil {
					continue
				}
				if res.Err.Code != engine.CodeSensitiveText {
					t.Fatalf("key %d: %s", i, res.Text)
				}
				if len(h.desk.Sent()) != sent {
					t.Fatalf("the refused key was sent")
				}
				refusedAt = i
				break
			}
			if want := 9; refusedAt != want { // "h", the first character of the value
				t.Fatalf("refused at key %d, want %d", refusedAt, want)
			}
			if got := field.Value(); got != "password=" {
				t.Fatalf("the field holds %d characters, want the 9 of the key", len(got))
			}
		})
	}
}

// The buffer follows BackSpace and the arrows, a chord with Shift, and
// foreground type_text; it starts afresh when focus moves to another field.
func TestTheTypingBufferFollowsEditsAndFocus(t *testing.T) {
	type step struct {
		tool string
		args map[string]any
		want engine.Code // "" for success
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"backspace joins key and value", []step{
			{"type_text", map[string]any{"text": "passwordd", "delivery_mode": "foreground"}, ""},
			{"press_key", map[string]any{"key": "BackSpace"}, ""},
			{"press_key", map[string]any{"key": "equal"}, ""},
			{"press_key", map[string]any{"key": "x"}, engine.CodeSensitiveText},
		}},
		{"a key typed in front after Home", []step{
			{"type_text", map[string]any{"text": "hunter2", "delivery_mode": "foreground"}, ""},
			{"press_key", map[string]any{"key": "Home"}, ""},
			{"type_text", map[string]any{"text": "password", "delivery_mode": "foreground"}, ""},
			{"hotkey", map[string]any{"keys": []any{"Shift_L", "semicolon"}}, engine.CodeSensitiveText},
		}},
		{"an aws key id in two foreground halves", []step{
			{"type_text", map[string]any{"text": "AKIAQWERTY", "delivery_mode": "foreground"}, ""},
			{"type_text", map[string]any{"text": "UIOPASDFGH", "delivery_mode": "foreground"}, engine.CodeSensitiveText},
		}},
		{"a shortcut types nothing", []step{
			{"type_text", map[string]any{"text": "password", "delivery_mode": "foreground"}, ""},
			{"hotkey", map[string]any{"keys": []any{"Control_L", "a"}}, ""},
			{"type_text", map[string]any{"text": "=hunter2", "delivery_mode": "foreground"}, engine.CodeSensitiveText},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil).on(t)
			h.start(map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
			win := uint64(h.demo.Form.Window.ID())
			field := h.demo.Form.Window.Root().Find("entry", "Phone")
			field.SetValue("")
			field.SetHasText(false) // the buffer alone
			field.Focus()
			h.demo.Form.Window.Focus()
			for i, s := range c.steps {
				s.args["window_id"] = win
				sent := len(h.desk.Sent())
				if s.want == "" {
					h.ok(s.tool, s.args)
					continue
				}
				h.fail(s.want, s.tool, s.args)
				if len(h.desk.Sent()) != sent {
					t.Fatalf("step %d: the refused keys were sent", i)
				}
			}
		})
	}

	// Focus on another field: what was typed before does not count there.
	h := newHarness(t, nil)
	h.start(map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
	win := uint64(h.demo.Form.Window.ID())
	phone := h.demo.Form.Window.Root().Find("entry", "Phone")
	city := h.demo.Form.Window.Root().Find("entry", "City")
	phone.SetValue("")
	city.SetValue("")
	phone.Focus()
	h.demo.Form.Window.Focus()
	h.ok("type_text", map[string]any{"window_id": win, "text": "password=", "delivery_mode": "foreground"})
	city.Focus()
	h.ok("press_key", map[string]any{"window_id": win, "key": "x"})
}

// Text the driver did not type (the person's, or set before the takeover)
// counts too when the app exposes the focused field's text.
func TestKeysCompletingACredentialInTheFocusedFieldAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	h.start(map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
	win := uint64(h.demo.Form.Window.ID())
	field := h.demo.Form.Window.Root().Find("entry", "Phone")
	field.SetValue("token: ")
	field.Focus()
	h.demo.Form.Window.Focus()
	sent := len(h.desk.Sent())
	h.fail(engine.CodeSensitiveText, "press_key", map[string]any{"window_id": win, "key": "x"})
	h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"window_id": win, "text": "abc", "delivery_mode": "foreground"})
	if len(h.desk.Sent()) != sent || field.Value() != "token: " {
		t.Fatal("the refused keys were sent")
	}
	h.ok("press_key", map[string]any{"window_id": win, "key": "Home"})
}
