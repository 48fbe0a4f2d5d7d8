package native_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// LibreOffice (issue 14): Writer's paragraphs carry their text and take
// typing at the caret; Calc's sheet reads as its visible block of cells.

// TestWriterParagraphsCarryTheirText reads the 400-paragraph document:
// the visible paragraphs are rows whose value is their text, editable
// (not disabled) as the document is; type_text into a paragraph inserts
// at the caret, the next one goes on after it, and the diff reads each
// back.
func TestWriterParagraphsCarryTheirText(t *testing.T) {
	a := startOffice(t, sandbox.Writer, longDocument)
	defer a.alive(t)
	h := newHarness(t, 20*time.Second)
	grant(t, h, a.pid)
	waitRead(t, h, a, "the document's paragraphs", func(r map[string]any) bool { return rolesOf(r)["paragraph"] > 0 })
	read := settledRead(t, h, a)
	paragraphs := 0
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] != "paragraph" {
			continue
		}
		paragraphs++
		want := fmt.Sprintf("Paragraph %d: the quick brown fox", paragraphs)
		if !strings.HasPrefix(asString(row["value"]), want) {
			t.Fatalf("paragraph row %d has value %q, want it to start %q", paragraphs, row["value"], want)
		}
		if !hasState(row, "editable") || hasState(row, "disabled") {
			t.Fatalf("a paragraph of an editable document is not editable: %v", row)
		}
	}
	if paragraphs < 10 {
		t.Fatalf("%d paragraph rows, want the visible ones", paragraphs)
	}
	_, doc := rowWith(t, read, "Long", "document_text")
	if hasState(doc, "disabled") {
		t.Fatalf("the editable document reads as disabled: %v", doc)
	}

	p1, _ := rowWith(t, read, "Paragraph 1:", "paragraph")
	res := h.ok("type_text", map[string]any{"element_token": p1, "text": "Hello "})
	if !strings.Contains(asJSON(t, res["diff"]), "Hello Paragraph 1: the quick") {
		t.Fatalf("typing into the first paragraph at its caret: %v", res)
	}
	read = h.ok("get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000})
	p1, _ = rowWith(t, read, "Hello Paragraph 1:", "paragraph")
	res = h.ok("type_text", map[string]any{"element_token": p1, "text": "again "})
	if !strings.Contains(asJSON(t, res["diff"]), "Hello again Paragraph 1:") {
		t.Fatalf("typing again goes on at the caret: %v", res)
	}
}

// settledRead reads the app's window until two reads in a row hold the
// same rows (a document is still laying out for a moment after its
// window shows), and returns the last.
func settledRead(t testing.TB, h *harness, a *desktopApp) map[string]any {
	t.Helper()
	prev := ""
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := readOnce(t, h, a.pid)
		if r.read == nil {
			t.Fatalf("reading %s: %s", a.what, r.text)
		}
		var b strings.Builder
		for _, e := range r.read["elements"].([]any) {
			row := e.(map[string]any)
			fmt.Fprintf(&b, "%v %v %v|", row["parent_index"], row["role"], row["label"])
		}
		rows := b.String()
		if rows == prev {
			return r.read
		}
		prev = rows
		a.alive(t)
		if time.Now().After(deadline) {
			t.Fatalf("%s's window never settled: %s", a.what, r.summary())
		}
	}
}
