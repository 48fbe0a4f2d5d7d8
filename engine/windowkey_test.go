package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestPressKeyThroughWindowKeys: press_key with the token of a field whose
// app takes keys sent to its window, and confirms its focus (Chromium),
// sends the key there once, headless, and ends the press; the person's
// window gets nothing. Without a token, with a modifier, into a field that
// takes text through accessibility, or into one whose app cannot confirm
// its focus (Firefox), nothing is sent.
func TestPressKeyThroughWindowKeys(t *testing.T) {
	const held = "Ada Lovelace"
	cases := []struct {
		name   string
		setup  func(field, plain *mock.Element, page *mock.Window)
		key    string
		token  string // "Name" (the window-keys field), "Plain" (an accessible one) or "" (none)
		code   engine.Code
		sent   int    // keys sent to the window
		into   string // what the field holds after
		escal8 bool   // the refusal recommends a takeover
	}{
		{"BackSpace removes the last character", nil, "BackSpace", "Name", "", 1, "Ada Lovelac", false},
		{"a character is typed", nil, "e", "Name", "", 1, held + "e", false},
		{"Return in a one-line field", nil, "Return", "Name", "", 1, held, false},
		{"without a token: a takeover", nil, "BackSpace", "", engine.CodeRequiresTakeover, 0, held, false},
		{"a modifier: a takeover", nil, "Control_L", "Name", engine.CodeRequiresTakeover, 0, held, false},
		{"a function key: a takeover", nil, "F5", "Name", engine.CodeRequiresTakeover, 0, held, false},
		{"a field taking text through accessibility: a takeover", nil, "BackSpace", "Plain", engine.CodeRequiresTakeover, 0, held, false},
		{"an app that cannot confirm the focus (Gecko)", func(f, _ *mock.Element, _ *mock.Window) {
			f.SetFocusUnconfirmed(true)
		}, "BackSpace", "Name", engine.CodeNotActionable, 0, held, true},
		{"the page's window holds the keyboard focus", func(_, _ *mock.Element, p *mock.Window) {
			p.Focus()
		}, "BackSpace", "Name", engine.CodeNotActionable, 0, held, true},
		{"a secure field", func(f, _ *mock.Element, _ *mock.Window) {
			f.SetSecure(true)
		}, "BackSpace", "Name", engine.CodeSecureField, 0, held, false},
		{"a character making the field's text a credential", func(f, _ *mock.Element, _ *mock.Window) {
			f.SetValue("AKIAQWERTYUIOPASDFG")
		}, "H", "Name", engine.CodeSensitiveText, 0, "AKIAQWERTYUIOPASDFG", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			sc := newKeysScene(h.desk, "chromium", "/usr/lib/chromium/chromium", "Chromium")
			page := sc.page
			field := sc.doc.Add("entry", "Name").SetWindowKeys(true).SetValue(held)
			plain := sc.doc.Add("entry", "Plain").SetValue(held)
			if c.setup != nil {
				c.setup(field, plain, page)
			}
			h.start(map[string]any{"apps": []any{page.App().Pid()}})
			read := h.ok("get_window_state", map[string]any{"window_id": uint64(page.ID())})
			args := map[string]any{"key": c.key}
			if c.token != "" {
				args["element_token"] = testkit.Token(t, read, "entry", c.token)
			} else {
				args["window_id"] = uint64(page.ID())
			}
			if c.code == "" {
				res := h.ok("press_key", args)
				if res["path"] != string(engine.PathWindowKeys) || res["took_cursor"] != false {
					t.Fatalf("press_key on the window_keys path: %v", res)
				}
				if acts := h.audit.Of("act"); len(acts) == 0 || acts[len(acts)-1].Path != string(engine.PathWindowKeys) {
					t.Fatalf("the act's audit records %v, want the path %s last", acts, engine.PathWindowKeys)
				}
			} else {
				e := h.fail(c.code, "press_key", args)
				if esc, _ := e["escalation"].(map[string]any); c.escal8 && esc["recommend"] != "takeover" {
					t.Fatalf("the refusal recommends a takeover: %v", e)
				}
			}
			if n := len(h.desk.CallsOf("WindowKeyPress")); n != c.sent {
				t.Fatalf("%d keys sent to the window, want %d", n, c.sent)
			}
			// A press that began is ended once; a refusal began none.
			if n := len(h.desk.CallsOf("WindowKeyEnd")); n != c.sent {
				t.Fatalf("the press was ended %d times, want %d", n, c.sent)
			}
			if got := field.Value(); got != c.into {
				t.Fatalf("the field holds %q, want %q", got, c.into)
			}
			if got := plain.Value(); got != held {
				t.Fatalf("the other field holds %q", got)
			}
			sc.untouched(t, h.desk)
		})
	}
}
