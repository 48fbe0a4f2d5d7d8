package native_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// writerWholeText: the 400-paragraph document lists only
// the paragraphs on screen, and those below have no text until shown. A
// headless drill-down rooted at the document returns the text on screen,
// cut; in a takeover, the whole text, paragraph 350 included, read page by
// page through the document's scroll bar, and the view is paged back
// after. With a smaller bound the text is cut and says so.
func writerWholeText(t *testing.T, a *desktopApp, h *harness, read map[string]any) {
	const far = "Paragraph 350: the quick brown fox jumps over the lazy dog."
	if strings.Contains(testkit.JSON(t, read), "Paragraph 350:") {
		t.Fatalf("paragraph 350 is in the plain read; the test needs it below the fold")
	}
	doc, _ := rowWith(t, read, "Long", "document_text")

	// Headless, the drill-down never scrolls the person's view: it gives
	// the paragraphs on screen and says the text was cut.
	head := h.ok("get_window_state", map[string]any{"pid": a.pid, "root": doc})
	if text := asString(head["text"]); !strings.HasPrefix(text, "Paragraph 1:") || strings.Contains(text, "Paragraph 350:") || head["text_truncated"] != true {
		t.Fatalf("a headless drill-down on the document: text_truncated %v, %.120q", head["text_truncated"], text)
	}

	// In a takeover, where the person sees the driver at work, it pages.
	w := newTakeover(t)
	w.grantTakeover(a.pid)
	read = settledRead(t, w.harness, a)
	doc, _ = rowWith(t, read, "Long", "document_text")
	start := time.Now()
	dd := w.ok("get_window_state", map[string]any{"pid": a.pid, "root": doc})
	took := time.Since(start)
	text := asString(dd["text"])
	t.Logf("drill-down on the document: %d bytes of text in %v, text_truncated %v", len(text), took.Round(time.Millisecond), dd["text_truncated"])
	if !strings.Contains(text, "\n"+far+"\n") {
		t.Fatalf("the document's text lacks paragraph 350 on a line of its own: %.300q ... %.300q", text, text[max(0, len(text)-300):])
	}
	lines := strings.Split(text, "\n")
	if len(lines) != 400 || !strings.HasPrefix(lines[0], "Paragraph 1:") || !strings.HasPrefix(lines[399], "Paragraph 400:") {
		t.Fatalf("%d lines, want the 400 paragraphs in order (first %q, last %q)", len(lines), lines[0], lines[len(lines)-1])
	}
	if dd["text_truncated"] == true {
		t.Fatalf("the whole 400-paragraph text is under the bound, yet text_truncated")
	}

	// The view is paged back: the first paragraph shows again.
	after := settledRead(t, h, a)
	if _, p1 := rowWith(t, after, "", "paragraph"); !strings.HasPrefix(asString(p1["value"]), "Paragraph 1:") {
		t.Fatalf("after the drill-down the first paragraph row is %v, want paragraph 1 back in view", p1["value"])
	}

	// Cut at a bound of 4 KiB.
	win := engine.WindowID(windowOf(t, dd))
	tree, err := h.b.ReadTree(context.Background(), win, engine.Budget{MaxElements: 5000, MaxDepth: 200})
	if err != nil {
		t.Fatal(err)
	}
	var docID, bar engine.ElementID
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		switch {
		case n.Role == "document_text":
			docID = n.ID
		case n.Role == "scroll_bar" && n.HasState("vertical") && docID != "" && bar == "":
			bar = n.ID
		}
	}
	if docID == "" || bar == "" {
		t.Fatalf("no document (%q) or no scroll bar after it (%q) in the backend's read", docID, bar)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cut, truncated, err := h.b.ReadDocumentText(ctx, engine.ElementRef{Window: win, ID: docID}, bar, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if !truncated || len(cut) > 4096 || !strings.HasPrefix(cut, "Paragraph 1:") || strings.Contains(cut, "Paragraph 350:") {
		t.Fatalf("a 4 KiB read: truncated %v, %d bytes, %.80q", truncated, len(cut), cut)
	}
}
