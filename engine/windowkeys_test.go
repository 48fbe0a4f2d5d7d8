package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestTypeTextThroughWindowKeys: a field whose app takes text only as keys
// sent to its window (Firefox's page fields) is typed into on the
// window_keys path while the person's window keeps the keyboard focus:
// one character first, then batches, each after a check that the person's
// focus has not moved and the field holds what was sent. A failed check
// stops the act with focus_changed and how many characters were sent; a
// refusal sends nothing. The person's window never gets a key.
func TestTypeTextThroughWindowKeys(t *testing.T) {
	const text = "Ada Lovelace, 10 December 1815" // 30 characters: batches of 1, 16, 13
	type desk struct {
		keysScene
		field, other *mock.Element // the page's fields
	}
	cases := []struct {
		name  string
		setup func(d *mock.Desktop, k desk)
		text  string
		code  engine.Code // "" types the text
		typed int         // characters sent before the stop
		sends int         // batches sent
		into  string      // what the field holds after
		other string      // what the page's other field holds after
	}{
		{"typed in batches, the person's window untouched", nil, text, "", 30, 3, text, ""},
		{"the person's focus moves after the first batch", func(d *mock.Desktop, k desk) {
			d.OnWindowKeys(func(sent string) {
				if len(sent) == 1 {
					d.SetFocus(nil)
				}
			})
		}, text, engine.CodeFocusChanged, 1, 1, "A", ""},
		{"the person focuses the page's window", func(d *mock.Desktop, k desk) {
			d.OnWindowKeys(func(string) { k.page.Focus() })
		}, text, engine.CodeFocusChanged, 1, 1, "A", ""},
		{"the field loses its window's focus after the second batch", func(d *mock.Desktop, k desk) {
			d.OnWindowKeys(func(sent string) {
				if len(sent) > 1 {
					k.other.Focus()
				}
			})
		}, text, engine.CodeFocusChanged, 17, 2, "Ada Lovelace, 10 ", ""},
		{"the field does not hold what was sent", func(d *mock.Desktop, k desk) {
			d.OnWindowKeys(func(sent string) {
				if len(sent) == 1 {
					k.field.SetValue("") // the page's script cleared it
				}
			})
		}, text, engine.CodeFocusChanged, 1, 1, "", ""},
		{"the page's window holds the keyboard focus", func(d *mock.Desktop, k desk) {
			k.page.Focus()
		}, text, engine.CodeNotActionable, 0, 0, "", ""},
		{"a secure field", func(d *mock.Desktop, k desk) {
			k.field.SetSecure(true)
		}, text, engine.CodeSecureField, 0, 0, "", ""},
		{"credential-looking text", nil, "AKIAQWERTYUIOPASDFGH", engine.CodeSensitiveText, 0, 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			k := desk{keysScene: newKeysScene(h.desk, "firefox-esr", "/usr/lib/firefox-esr/firefox-esr", "Firefox")}
			k.field = k.doc.Add("entry", "Name").SetWindowKeys(true)
			k.other = k.doc.Add("entry", "Notes").SetWindowKeys(true)
			if c.setup != nil {
				c.setup(h.desk, k)
			}
			h.start(map[string]any{"apps": []any{k.page.App().Pid()}})
			read := h.ok("get_window_state", map[string]any{"window_id": uint64(k.page.ID())})
			args := map[string]any{"element_token": testkit.Token(t, read, "entry", "Name"), "text": c.text}
			if c.code == "" {
				res := h.ok("type_text", args)
				if res["path"] != string(engine.PathWindowKeys) || res["effect"] != "confirmed" || res["typed_characters"] != float64(c.typed) {
					t.Fatalf("type_text on the window_keys path: %v", res)
				}
			} else {
				e := h.fail(c.code, "type_text", args)
				if c.typed > 0 && e["typed_characters"] != float64(c.typed) {
					t.Fatalf("the stop says %v characters were sent, want %d: %v", e["typed_characters"], c.typed, e)
				}
				if esc, _ := e["escalation"].(map[string]any); c.code == engine.CodeNotActionable && esc["recommend"] != "takeover" {
					t.Fatalf("a refusal recommends a takeover: %v", e)
				}
			}
			// The audit record names the path once keys were sent, and
			// never when none were.
			acts := h.audit.Of("act")
			if c.sends > 0 && (len(acts) == 0 || acts[len(acts)-1].Path != string(engine.PathWindowKeys)) {
				t.Fatalf("the act's audit records %v, want the path %s last", acts, engine.PathWindowKeys)
			}
			for _, r := range acts {
				if c.sends == 0 && r.Path == string(engine.PathWindowKeys) {
					t.Fatalf("a refusal is audited with the path %s", r.Path)
				}
			}
			if n := len(h.desk.CallsOf("WindowKeysSend")); n != c.sends {
				t.Fatalf("%d batches sent, want %d", n, c.sends)
			}
			// A typing that began is ended once, whatever stopped it; a
			// refusal began none.
			if n, want := len(h.desk.CallsOf("WindowKeysEnd")), min(c.sends, 1); n != want {
				t.Fatalf("the typing was ended %d times, want %d", n, want)
			}
			if got := k.field.Value(); got != c.into {
				t.Fatalf("the field holds %q, want %q", got, c.into)
			}
			if got := k.other.Value(); got != c.other {
				t.Fatalf("the other field holds %q, want %q", got, c.other)
			}
			k.untouched(t, h.desk)
		})
	}
}

// keysScene is a window_keys test's desktop: a browser showing the fixture
// page (its window and document) and, beside it, the person's own window,
// which holds the keyboard focus and a field with the person's text.
type keysScene struct {
	page        *mock.Window
	doc         *mock.Element
	person      *mock.Window
	personField *mock.Element
}

// personsText is what the person's field holds, and must still hold.
const personsText = "the person's text"

// newKeysScene makes the scene on d, the page in the app of that name and
// executable, its window titled as that browser titles the page.
func newKeysScene(d *mock.Desktop, app, exe, browser string) keysScene {
	page := d.AddApp(app, exe).AddWindow("Form Fixture - "+browser, engine.Rect{X: 0, Y: 0, W: 800, H: 600})
	s := keysScene{page: page, doc: page.Root().Add("document_web", "Form Fixture")}
	s.person = d.AddApp("gedit", "/usr/bin/gedit").AddWindow("Notes - gedit", engine.Rect{X: 100, Y: 100, W: 400, H: 300})
	s.personField = s.person.Root().Add("text", "").SetValue(personsText).Focus()
	s.person.Focus()
	return s
}

// untouched fails the test when anything went to the desktop as synthetic
// input or an accessibility insertion, or the person's field changed: the
// window_keys path sends keys to the page's window alone.
func (s keysScene) untouched(t *testing.T, d *mock.Desktop) {
	t.Helper()
	if n := len(d.CallsOf("InsertText")) + len(d.CallsOf("Send")); n != 0 {
		t.Fatalf("%d accessibility insertions or synthetic events", n)
	}
	if got := s.personField.Value(); got != personsText {
		t.Fatalf("the person's field changed: %q", got)
	}
}
