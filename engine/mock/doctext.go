package mock

import (
	"context"
	"strings"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// Documents that list only the paragraphs on screen, as LibreOffice Writer
// does: a document element without a Text interface whose children are the
// visible paragraphs, and more paragraphs below the fold that only paging
// its view through the scroll bar reaches (engine.DocumentTextReader).

var _ engine.DocumentTextReader = (*Desktop)(nil)

// SetBelowFold gives a document paragraphs below the fold: in no read, and
// in its text only when read page by page (ReadDocumentText).
func (e *Element) SetBelowFold(paragraphs ...string) *Element {
	return e.set(func() { e.belowFold = append([]string(nil), paragraphs...) })
}

// ReadDocumentText returns a document's paragraphs, those listed as its
// children that have text and then those below the fold, one a line, cut
// to maxBytes. The document must be a document element that is not secure
// and scrollBar a scroll bar of the same window, else not_actionable.
func (d *Desktop) ReadDocumentText(ctx context.Context, doc engine.ElementRef, scrollBar engine.ElementID, maxBytes int) (string, bool, error) {
	var text string
	var cut bool
	err := d.elementCall(ctx, "ReadDocumentText", doc, func(w *Window, e *Element) error {
		if e.secure {
			return engine.Errf(engine.CodeSecureField, "the element is a secure field")
		}
		bar, err := w.element(engine.ElementRef{Window: doc.Window, ID: scrollBar})
		if err != nil || !strings.HasPrefix(e.role, "document") || bar.role != "scroll_bar" {
			return engine.Errf(engine.CodeNotActionable, "the document cannot be paged through")
		}
		var lines []string
		for _, c := range e.children {
			if c.text && !c.secure && !c.removed {
				lines = append(lines, c.content())
			}
		}
		lines = append(lines, e.belowFold...)
		text, cut = utf8cut.Cut(strings.Join(lines, "\n"), maxBytes)
		return nil
	})
	return text, cut, err
}
