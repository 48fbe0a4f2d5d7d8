package engine

import (
	"context"
	"strings"
	"time"
)

// DocumentTextReader reads the text of documents whose app exposes only
// the part on screen: LibreOffice Writer's document
// element has no Text interface and lists only the paragraphs in view, and
// the paragraphs below the fold have no text until they show. The backend
// pages the view through the document's scroll bar (by the bar's own
// accessibility actions), reads each page's paragraphs once, and pages the
// view back; the person sees the document page through and return.
type DocumentTextReader interface {
	// ReadDocumentText returns the document's text, one line per
	// paragraph, at most maxBytes of it; truncated when it was cut at
	// maxBytes or the document's end was not reached. scrollBar is the
	// document's vertical scroll bar in the engine's read. A scroll bar
	// that cannot page the view is not_actionable.
	ReadDocumentText(ctx context.Context, doc ElementRef, scrollBar ElementID, maxBytes int) (text string, truncated bool, err error)
}

// documentTextBound bounds a document text read: paging a 400-paragraph
// document takes about ten pages.
const documentTextBound = 20 * time.Second

// documentText reads the whole text of a document without a Text
// interface of its own, for a drill-down rooted at it: through the
// backend's DocumentTextReader and the document's scroll bar in the read.
// ok is false when the element is no document, the read holds no scroll
// bar, or the backend fails.
//
// Paging scrolls the person's view, which a read must not do unasked: it
// happens only in a takeover that is running, where the person sees the
// driver at work (a paused one is the person's: the driver acts on
// nothing until they continue).
// Outside one, the text is that of the paragraphs the document lists (the
// ones on screen, whose details the read holds), and it says it was cut
// when the document scrolls.
func (s *Session) documentText(ctx context.Context, sn *snapshot, pos int) (text string, truncated, ok bool) {
	n := &sn.tree.Nodes[pos]
	if !strings.HasPrefix(n.Role, "document") {
		return "", false, false
	}
	bar := scrollBarOf(sn.tree, pos)
	if paused, _ := s.isPaused(); !s.inTakeover() || paused {
		return listedText(sn.tree, pos), bar != "", true
	}
	if bar == "" {
		return "", false, false
	}
	cctx, cancel := context.WithTimeout(ctx, documentTextBound)
	defer cancel()
	text, truncated, err := s.d.backend.ReadDocumentText(cctx, ElementRef{Window: sn.window, ID: n.ID}, bar, rootTextMax)
	if err != nil {
		return "", false, false
	}
	return text, truncated, true
}

// listedText is the text of the paragraphs a document lists, one line
// each, secure ones left out, up to rootTextMax.
func listedText(t *Tree, doc int) string {
	var b strings.Builder
	for i := doc + 1; i < len(t.Nodes); i++ {
		c := &t.Nodes[i]
		if c.Parent != doc || c.Secure || !c.HasValue {
			continue
		}
		if b.Len()+len(c.Value)+1 > rootTextMax {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.Value)
	}
	return b.String()
}
