package engine_test

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestTypeIntoDocumentAtItsCaret: type_text on an editable document
// without editable text of its own (LibreOffice Writer's, whose paragraphs
// take the text) types into the paragraph that holds the caret, else the
// last one, with every check of a paragraph given by its token: its
// security, the credential check on the text it will hold, the
// confirmation and the diff. Nothing reaches the app when a check refuses.
func TestTypeIntoDocumentAtItsCaret(t *testing.T) {
	const (
		p1 = "Paragraph 1: the quick brown fox."
		p2 = "Paragraph 2: the lazy dog."
		p3 = "Paragraph 3: the end."
	)
	cases := []struct {
		name string
		// setup changes the document and its paragraphs before the read.
		setup func(doc *mock.Element, ps []*mock.Element)
		text  string
		want  []string // the paragraphs after; nil: refused with code
		code  engine.Code
	}{
		{"at the caret of the focused paragraph", func(_ *mock.Element, ps []*mock.Element) {
			ps[1].SetCaret(13).Focus()
		}, "big ", []string{p1, "Paragraph 2: big the lazy dog.", p3}, ""},
		{"no caret: at the end of the last paragraph shown", nil,
			" More.", []string{p1, p2, p3 + " More."}, ""},
		{"the caret's paragraph is secure", func(_ *mock.Element, ps []*mock.Element) {
			ps[1].SetSecure(true).Focus()
		}, "x", nil, engine.CodeSecureField},
		{"with the paragraph's text, a credential", func(_ *mock.Element, ps []*mock.Element) {
			ps[1].SetValue("AKIAQWERTY").Focus()
		}, "UIOPASDFGH", nil, engine.CodeSensitiveText},
		{"a document that is not editable", func(doc *mock.Element, _ []*mock.Element) {
			doc.SetStates("focusable", "showing", "visible", "enabled", "sensitive")
		}, "x", nil, engine.CodeNotActionable},
		{"a document that lists no paragraph", func(_ *mock.Element, ps []*mock.Element) {
			for _, p := range ps {
				p.Remove()
			}
		}, "x", nil, engine.CodeNotActionable},
		{"the caret's child takes no text", func(_ *mock.Element, ps []*mock.Element) {
			ps[2].SetEditable(false)
		}, "x", nil, engine.CodeNotActionable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			w := h.desk.AddApp("soffice", "/usr/lib/libreoffice/program/soffice.bin").
				AddWindow("Long - LibreOffice Writer", engine.Rect{X: 0, Y: 0, W: 1000, H: 800})
			doc := w.Root().Add("scroll_pane", "").Add("document_text", "Long").
				SetHasText(false).SetEditable(false).
				SetStates("focusable", "editable", "manages_descendants", "showing", "visible", "enabled", "sensitive")
			var ps []*mock.Element
			for _, v := range []string{p1, p2, p3} {
				ps = append(ps, doc.Add("paragraph", "").SetEditable(true).SetValue(v).
					SetStates("focusable", "editable", "multi_line", "showing", "visible", "enabled", "sensitive"))
			}
			if c.setup != nil {
				c.setup(doc, ps)
			}
			h.start(map[string]any{"apps": []any{w.App().Pid()}})
			read := h.ok("get_window_state", map[string]any{"window_id": uint64(w.ID())})
			args := map[string]any{"element_token": testkit.Token(t, read, "document_text", "Long"), "text": c.text}
			if c.want == nil {
				e := h.fail(c.code, "type_text", args)
				if esc, _ := e["escalation"].(map[string]any); c.code == engine.CodeNotActionable && esc["recommend"] != "takeover" {
					t.Fatalf("a refusal to type recommends a takeover: %v", e)
				}
				if n := len(h.desk.CallsOf("InsertText")); n != 0 {
					t.Fatalf("%d InsertText calls after a refusal", n)
				}
				return
			}
			res := h.ok("type_text", args)
			for i, p := range ps {
				if got := p.Value(); got != c.want[i] {
					t.Fatalf("paragraph %d holds %q, want %q", i+1, got, c.want[i])
				}
			}
			if res["effect"] != "confirmed" || !strings.Contains(testkit.JSON(t, res["diff"]), c.text) {
				t.Fatalf("type_text on the document: %v", res)
			}
		})
	}
}
