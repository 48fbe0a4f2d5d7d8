package atspi

import (
	"context"
	"strings"

	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// The text a field holds as a person sees it. Gecko's editable documents
// (a mail body, a web page's contenteditable region) keep their text in
// child paragraphs: the document's own text holds a child mark (embedChar)
// where each child stands, and no child is a text leaf. Checking what keys
// sent to such a field did (the window_keys path) needs each child's text
// in its place.

// Bounds of one held-text read: how deep child marks are followed, and how
// many children one level may have before its marks are dropped instead.
const (
	heldTextDepth = 4
	heldTextKids  = 256
)

// HeldText reads id's value as ReadValue does, with each child mark
// replaced by the held text of the child it stands for: the n-th mark for
// the n-th child, as Gecko lists them. Where the marks cannot be matched
// to children (another count, a level deeper than heldTextDepth, more than
// heldTextKids children) they are dropped, as ReadValue drops them: the
// caller then sees less than the field holds, never text that is not
// there. A secure element at any level makes the whole Secure. At most
// maxBytes bytes; Truncated when any level held more.
func (c *Client) HeldText(ctx context.Context, id ID, maxBytes int) (Readback, error) {
	h, err := c.heldText(ctx, id, heldTextDepth, maxBytes)
	if err != nil || h.Secure {
		return Readback{Secure: h.Secure}, err
	}
	out, cut := utf8cut.Cut(h.Value, maxBytes)
	return Readback{Value: out, Truncated: h.Truncated || cut}, nil
}

func (c *Client) heldText(ctx context.Context, id ID, depth, maxBytes int) (Readback, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return Readback{}, err
	}
	if l.secure {
		return Readback{Secure: true}, nil
	}
	if l.ifaces&ifText == 0 || l.ifaces&ifValue != 0 {
		return c.ReadValue(ctx, id, maxBytes)
	}
	raw, cut, err := l.rawText(ctx, maxBytes)
	if err != nil || !strings.Contains(raw, embedChar) {
		return Readback{Value: raw, Truncated: cut}, err
	}
	var kids []childRef
	if depth > 0 {
		if kids, err = c.docChildren(ctx, l); err != nil {
			return Readback{}, err
		}
	}
	parts := strings.Split(raw, embedChar)
	if len(kids) != len(parts)-1 || len(kids) > heldTextKids {
		return Readback{Value: dropEmbeds(raw), Truncated: cut}, nil
	}
	var b strings.Builder
	for i, kid := range kids {
		b.WriteString(parts[i])
		h, err := c.heldText(ctx, c.mintID(l.tag, kid.bus, kid.path), depth-1, maxBytes)
		if err != nil || h.Secure {
			return Readback{Secure: h.Secure}, err
		}
		cut = cut || h.Truncated
		b.WriteString(h.Value)
	}
	b.WriteString(parts[len(kids)])
	return Readback{Value: b.String(), Truncated: cut}, nil
}
