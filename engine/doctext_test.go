package engine_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// A document that lists only its paragraphs on screen (LibreOffice Writer)
// gives a drill-down rooted at it the text of those paragraphs, said to be
// cut when it scrolls; in a takeover, its whole text, paged through its
// scroll bar by the backend, cut at the contract's 64 KiB with
// text_truncated. Credential-looking spans are redacted either way. Only a
// takeover pages: paging scrolls the person's view.
func TestDocumentTextByDrillDown(t *testing.T) {
	line := func(i int) string {
		return fmt.Sprintf("Paragraph %d: the quick brown fox jumps over the lazy dog.", i)
	}
	lines := func(from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, line(i))
		}
		return out
	}
	tests := []struct {
		name      string
		below     []string
		scrollBar bool
		takeover  bool
		paused    bool // the person's input paused the takeover
		secret    bool // a listed paragraph holds a credential
		wantText  bool
		wantLine  string
		truncated bool
		pages     bool // the backend is asked to page
	}{
		{name: "whole text in a takeover", below: lines(46, 400), scrollBar: true, takeover: true, wantText: true, wantLine: line(350), pages: true},
		{name: "cut at the bound in a takeover", below: lines(46, 2000), scrollBar: true, takeover: true, wantText: true, wantLine: line(350), truncated: true, pages: true},
		{name: "secret below the fold redacted", below: []string{"password: hunter2-Xq9!zz"}, scrollBar: true, takeover: true, wantText: true, wantLine: "[redacted]", pages: true},
		{name: "no scroll bar to page with", below: lines(46, 400), takeover: true},
		{name: "headless: the listed paragraphs, cut", below: lines(46, 400), scrollBar: true, wantText: true, wantLine: line(45), truncated: true},
		{name: "paused takeover: the listed paragraphs, cut", below: lines(46, 400), scrollBar: true, takeover: true, paused: true, wantText: true, wantLine: line(45), truncated: true},
		{name: "headless: a listed secret redacted", below: lines(46, 400), scrollBar: true, secret: true, wantText: true, wantLine: "[redacted]", truncated: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			w := h.desk.AddApp("soffice", "/usr/lib/libreoffice/program/soffice.bin").
				AddWindow("Long - LibreOffice Writer", engine.Rect{X: 0, Y: 0, W: 1000, H: 800})
			pane := w.Root().Add("scroll_pane", "")
			doc := pane.Add("document_text", "Long").SetHasText(false).SetStates("focusable", "editable", "manages_descendants", "showing", "visible", "enabled")
			for i := 1; i <= 45; i++ {
				v := line(i)
				if tt.secret && i == 45 {
					v = "password: hunter2-Xq9!zz"
				}
				doc.Add("paragraph", "").SetValue(v)
			}
			doc.SetBelowFold(tt.below...)
			if tt.scrollBar {
				pane.Add("scroll_bar", "Vertical scroll bar").SetStates("vertical", "showing", "visible", "enabled")
			}
			input := "headless"
			if tt.takeover {
				input = "takeover"
			}
			h.start(map[string]any{"apps": []any{w.App().Pid()}, "input": input})
			if tt.paused {
				h.desk.PressKey("x")
				testkit.Eventually(t, 10*time.Second, "the takeover paused", func() bool {
					tk, _ := h.ok("get_session_state", nil)["takeover"].(map[string]any)
					return tk["paused"] == true
				})
			}
			read := h.ok("get_window_state", map[string]any{"window_id": uint64(w.ID()), "max_elements": 500})
			if strings.Contains(read["tree_text"].(string), line(350)) {
				t.Fatal("paragraph 350 is in the plain read")
			}
			tok := testkit.Token(t, read, "document_text", "Long")
			dd := h.ok("get_window_state", map[string]any{"root": tok})
			text, has := dd["text"].(string)
			if has != tt.wantText {
				t.Fatalf("text present %v, want %v: %v", has, tt.wantText, dd["text"])
			}
			if n := len(h.desk.CallsOf("ReadDocumentText")); (n > 0) != tt.pages {
				t.Fatalf("%d ReadDocumentText calls, want paging %v", n, tt.pages)
			}
			if !tt.wantText {
				return
			}
			if !strings.HasPrefix(text, line(1)+"\n") || !strings.Contains(text, tt.wantLine) {
				t.Fatalf("the text lacks the first paragraph or %q: %.200q", tt.wantLine, text)
			}
			if strings.Contains(text, "hunter2") {
				t.Fatal("a credential-looking span reached the text")
			}
			if got := dd["text_truncated"] == true; got != tt.truncated || len(text) > 64<<10 {
				t.Fatalf("text_truncated %v (%d bytes), want %v", got, len(text), tt.truncated)
			}
			if tt.pages && tt.below[0] == line(46) && !strings.Contains(text, line(46)) {
				t.Fatal("the paged text lacks the first paragraph below the fold")
			}
			if !tt.pages && strings.Contains(text, line(46)) {
				t.Fatal("a headless drill-down holds text from below the fold")
			}
			if !strings.Contains(h.call("get_window_state", map[string]any{"root": tok}).Text, "--- text ---\n"+line(1)) {
				t.Fatal("the text block does not carry the document's text")
			}
		})
	}
}
