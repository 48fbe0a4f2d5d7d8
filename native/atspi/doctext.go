package atspi

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// A document's whole text when the app exposes only what is on screen.
// LibreOffice Writer's document element has no Text interface, manages its
// descendants and lists only the paragraphs in view (45 of 400 in the test
// window); the paragraphs past the last one, reached by its flows-to
// relation, have no text (CharacterCount 0) until they are shown, and its
// scroll bar ignores a set CurrentValue. What works is the scroll bar's own
// block actions ("incrementBlock", "decrementBlock"): each pages the view
// by a screen, and the document then lists the paragraphs of that page.
// So the text is read page by page, each paragraph once (by its object,
// which stays the same while it remains in view), and the view is paged
// back as many times afterwards. The person sees the document page through
// and return while this runs.

// Bounds of one document text read: how many children the document may
// claim (it is asked for them only under this), how many pages, and how
// long to wait for the document to list a new page's paragraphs.
const (
	docChildrenMax = 1000
	docPagesMax    = 2000
	docPageWait    = 2 * time.Second
	docPagePoll    = 20 * time.Millisecond
)

// Block actions of a scroll bar that page its view (LibreOffice's names).
const (
	actionPageDown = "incrementBlock"
	actionPageUp   = "decrementBlock"
)

// DocumentText returns the text of document doc, one line per paragraph,
// at most maxBytes of it, paging the view with scrollBar's block actions
// and paging it back after. truncated says the text was cut at maxBytes or
// the pages ran out before the document's end. A document with a Text
// interface of its own is read by it instead (ReadText); a secure
// document is KindSecure; a scroll bar without block actions, or of
// another app, is KindRefused.
func (c *Client) DocumentText(ctx context.Context, doc, scrollBar ID, maxBytes int) (string, bool, error) {
	l, err := c.inspect(ctx, doc)
	if err != nil {
		return "", false, err
	}
	if l.secure {
		return "", false, failure(KindSecure, "the element is a secure field")
	}
	if l.ifaces&ifText != 0 {
		return l.text(ctx, maxBytes)
	}
	sb, err := c.inspect(ctx, scrollBar)
	if err != nil {
		return "", false, err
	}
	if sb.bus != l.bus {
		return "", false, failure(KindRefused, "the scroll bar belongs to another app")
	}
	if !hasBlockActions(ctx, c, sb) {
		return "", false, failure(KindRefused, "the document's scroll bar cannot page its view")
	}
	var pr docPages
	pr.seen = map[string]bool{}
	defer c.pageBack(ctx, scrollBar, &pr)
	kids, err := c.docChildren(ctx, l)
	if err != nil {
		return "", false, err
	}
	for page := 0; ; page++ {
		if err := c.readParagraphs(ctx, l, kids, &pr); err != nil {
			return "", false, err
		}
		if pr.size >= maxBytes && maxBytes > 0 {
			out, _ := utf8cut.Cut(pr.text(), maxBytes)
			return out, true, nil
		}
		if page >= docPagesMax || ctx.Err() != nil {
			return pr.text(), true, nil
		}
		before, err := c.scrollValue(ctx, sb)
		if err != nil {
			return "", false, err
		}
		if err := c.DoAction(ctx, scrollBar, actionPageDown); err != nil {
			return "", false, err
		}
		pr.paged++
		after, err := c.scrollValue(ctx, sb)
		if err != nil {
			return "", false, err
		}
		if after == before {
			return pr.text(), false, nil // the view is at the document's end
		}
		next, ok := c.nextPage(ctx, l, kids)
		if !ok {
			return pr.text(), true, nil
		}
		kids = next
	}
}

// docPages is what a document text read has gathered.
type docPages struct {
	seen  map[string]bool // paragraph objects read (bus+path)
	parts []string
	size  int // bytes of parts with their line breaks
	paged int // pages the view was moved down
}

func (p *docPages) text() string { return strings.Join(p.parts, "\n") }

// hasBlockActions reports whether a scroll bar pages by block actions.
func hasBlockActions(ctx context.Context, c *Client, sb *liveInfo) bool {
	if sb.ifaces&ifAction == 0 {
		return false
	}
	names, err := c.actionNames(ctx, sb)
	if err != nil {
		return false
	}
	down, up := false, false
	for _, n := range names {
		down = down || n == actionPageDown
		up = up || n == actionPageUp
	}
	return down && up
}

// pageBack pages the view up as many times as the read paged it down, with
// a bound of its own so a read cut by its deadline still puts the view
// back.
func (c *Client) pageBack(ctx context.Context, scrollBar ID, pr *docPages) {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), docPageWait)
	defer cancel()
	for i := 0; i < pr.paged; i++ {
		if c.DoAction(bctx, scrollBar, actionPageUp) != nil {
			return
		}
	}
}

// childRef is one child of a document: its bus and object path.
type childRef struct{ bus, path string }

// docChildren lists the document's children after checking how many it
// claims: a container that manages its descendants is never asked for
// more than docChildrenMax (LibreOffice Calc's sheet claims 2^31 - 1).
func (c *Client) docChildren(ctx context.Context, l *liveInfo) ([]childRef, error) {
	r, err := l.call(ctx, targetElement, propertiesIface, "Get", "org.a11y.atspi.Accessible", "ChildCount")
	if err != nil {
		return nil, err
	}
	d := r.decoder()
	if d.sig() != "i" {
		return nil, failure(KindRefused, "the document did not say how many children it has")
	}
	if n := d.int32(); d.err != nil || n < 0 || n > docChildrenMax {
		return nil, failure(KindRefused, "the document claims too many children to list")
	}
	r, err = l.call(ctx, targetElement, "org.a11y.atspi.Accessible", "GetChildren")
	if err != nil {
		return nil, err
	}
	d = r.decoder()
	end := d.array(8)
	var kids []childRef
	for d.more(end) {
		if bus, path := d.ref(); bus != "" && path != nullPath {
			kids = append(kids, childRef{bus, path})
		}
	}
	if d.err != nil {
		return nil, mapErr(d.err, l.conn, ctx, targetElement)
	}
	return kids, nil
}

// nextPage waits until the document lists another set of children than
// before (it does so once the paged view is laid out) and the same set twice
// in a row, so a page half laid out is not read. ok is false when that does
// not happen within docPageWait.
func (c *Client) nextPage(ctx context.Context, l *liveInfo, before []childRef) ([]childRef, bool) {
	wctx, cancel := context.WithTimeout(ctx, docPageWait)
	defer cancel()
	var last []childRef
	for {
		kids, err := c.docChildren(wctx, l)
		if err != nil {
			return nil, false
		}
		if !slices.Equal(kids, before) && slices.Equal(kids, last) {
			return kids, true
		}
		last = kids
		select {
		case <-wctx.Done():
			return nil, false
		case <-time.After(docPagePoll):
		}
	}
}

// readParagraphs reads the text of the children not read before, in two
// rounds: each child's role and attributes, then the text of those that
// are not secure (by role or attributes, or because either could not be
// read: a secure child's text is never asked for). A child without a Text
// interface answers with an error and adds nothing.
func (c *Client) readParagraphs(ctx context.Context, l *liveInfo, kids []childRef, pr *docPages) error {
	var fresh []childRef
	for _, k := range kids {
		if k.bus == l.bus && !pr.seen[k.bus+k.path] {
			fresh = append(fresh, k)
			pr.seen[k.bus+k.path] = true
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	plain := make([]bool, len(fresh))   // its role is not a secure one
	attrsOK := make([]bool, len(fresh)) // its attributes were read and are not a password's
	err := c.docRound(ctx, l, func(p *pipe) {
		for i, k := range fresh {
			p.add(l.conn, call{target: i, kind: kindRole}, k.bus, k.path, "org.a11y.atspi.Accessible", "GetRole")
			p.add(l.conn, call{target: i, kind: kindAttrs}, k.bus, k.path, "org.a11y.atspi.Accessible", "GetAttributes")
		}
	}, func(a *answer, d *decoder) {
		switch a.kind {
		case kindRole:
			role := RoleName(d.uint32())
			plain[a.target] = d.err == nil && role != "" && !secureRole(role)
		case kindAttrs:
			attrsOK[a.target] = !secureAttrs(d) && d.err == nil
		}
	})
	if err != nil {
		return err
	}
	texts := make([]string, len(fresh))
	has := make([]bool, len(fresh))
	err = c.docRound(ctx, l, func(p *pipe) {
		for i, k := range fresh {
			if plain[i] && attrsOK[i] {
				p.add(l.conn, call{target: i, kind: kindText}, k.bus, k.path, "org.a11y.atspi.Text", "GetText", int32(0), int32(-1))
			}
		}
	}, func(a *answer, d *decoder) {
		texts[a.target] = dropEmbeds(d.str())
		has[a.target] = d.err == nil
	})
	if err != nil {
		return err
	}
	for i := range fresh {
		if !has[i] {
			continue
		}
		if len(pr.parts) > 0 {
			pr.size++
		}
		pr.parts = append(pr.parts, texts[i])
		pr.size += len(texts[i])
	}
	return nil
}

// docRound sends one round of calls (add) and hands each answer without an
// error to use; answers with one are skipped.
func (c *Client) docRound(ctx context.Context, l *liveInfo, add func(*pipe), use func(*answer, *decoder)) error {
	p := newPipe(ctx)
	defer p.close()
	add(p)
	p.flush()
	for {
		a, ok, err := p.next()
		if err != nil {
			return mapErr(err, l.conn, ctx, targetElement)
		}
		if !ok {
			return nil
		}
		if a.err != nil {
			continue
		}
		d := a.decoder()
		use(&a, d)
	}
}

// scrollValue reads a scroll bar's CurrentValue.
func (c *Client) scrollValue(ctx context.Context, sb *liveInfo) (float64, error) {
	r, err := sb.call(ctx, targetElement, propertiesIface, "Get", "org.a11y.atspi.Value", "CurrentValue")
	if err != nil {
		return 0, err
	}
	d := r.decoder()
	if d.sig() != "d" {
		return 0, failure(KindRefused, "the scroll bar has no numeric value")
	}
	v := d.float64()
	if d.err != nil {
		return 0, mapErr(d.err, sb.conn, ctx, targetElement)
	}
	return v, nil
}
