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
// readValueMax bytes.
func (c *Client) HeldText(ctx context.Context, id ID) (Readback, error) {
	s, secure, err := c.heldText(ctx, id, heldTextDepth)
	if err != nil || secure {
		return Readback{Secure: secure}, err
	}
	out, _ := utf8cut.Cut(s, readValueMax)
	return Readback{Value: out}, nil
}

func (c *Client) heldText(ctx context.Context, id ID, depth int) (string, bool, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return "", false, err
	}
	if l.secure {
		return "", true, nil
	}
	if l.ifaces&ifText == 0 || l.ifaces&ifValue != 0 {
		rb, err := c.ReadValue(ctx, id)
		return rb.Value, rb.Secure, err
	}
	raw, _, err := l.rawText(ctx, readValueMax)
	if err != nil || !strings.Contains(raw, embedChar) {
		return raw, false, err
	}
	var kids []childRef
	if depth > 0 {
		if kids, err = c.docChildren(ctx, l); err != nil {
			return "", false, err
		}
	}
	parts := strings.Split(raw, embedChar)
	if len(kids) != len(parts)-1 || len(kids) > heldTextKids {
		return dropEmbeds(raw), false, nil
	}
	var b strings.Builder
	for i, kid := range kids {
		b.WriteString(parts[i])
		s, secure, err := c.heldText(ctx, c.mintID(l.tag, kid.bus, kid.path), depth-1)
		if err != nil || secure {
			return "", secure, err
		}
		b.WriteString(s)
	}
	b.WriteString(parts[len(kids)])
	return b.String(), false, nil
}
