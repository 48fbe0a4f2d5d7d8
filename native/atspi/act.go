package atspi

import (
	"context"
	"strings"

	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// liveInfo is what a live check learns about one element just before an
// act or a value read.
type liveInfo struct {
	bus, path string
	tag       string // the bus generation's id tag
	conn      *wireConn
	role      string
	states    stateSet
	ifaces    ifaceSet
	secure    bool
}

// inspect reads an element's role, states, interfaces and attributes in one
// round of calls, and decides whether it is secure (see secure.go). A gone
// element is KindStale; a gone app is KindGone.
func (c *Client) inspect(ctx context.Context, id ID) (*liveInfo, error) {
	conn, bus, path, tag, err := c.reach(ctx, id, targetElement)
	if err != nil {
		return nil, err
	}
	info := &liveInfo{bus: bus, path: path, tag: tag, conn: conn}
	p := newPipe(ctx)
	defer p.close()
	p.add(conn, call{kind: kindRole}, bus, path, "org.a11y.atspi.Accessible", "GetRole")
	p.add(conn, call{kind: kindState}, bus, path, "org.a11y.atspi.Accessible", "GetState")
	p.add(conn, call{kind: kindIfaces}, bus, path, "org.a11y.atspi.Accessible", "GetInterfaces")
	p.add(conn, call{kind: kindAttrs}, bus, path, "org.a11y.atspi.Accessible", "GetAttributes")
	p.flush()
	for a, err := range p.answers() {
		if err != nil {
			return nil, mapErr(err, conn, ctx, targetElement)
		}
		if a.err != nil {
			return nil, mapErr(a.err, conn, ctx, targetElement)
		}
		d := a.decoder()
		switch a.kind {
		case kindRole:
			info.role = RoleName(d.uint32())
		case kindState:
			info.states = c.showingFor(bus, decodeStates(d))
		case kindIfaces:
			info.ifaces |= decodeIfaces(d)
		case kindAttrs:
			if secureAttrs(d) {
				info.secure = true
			}
		}
		if d.err != nil {
			return nil, mapErr(d.err, conn, ctx, targetElement)
		}
	}
	if secureRole(info.role) {
		info.secure = true
	}
	return info, nil
}

// call makes one call on the element and maps its failure for an act.
func (l *liveInfo) call(ctx context.Context, t target, iface, member string, args ...any) (*reply, error) {
	r, err := l.conn.call(ctx, l.bus, l.path, iface, member, args...)
	if err != nil {
		return nil, mapErr(err, l.conn, ctx, t)
	}
	return r, nil
}

// act makes one call of an act whose reply is a b, false meaning the app
// declined: KindRefused, saying what it declined.
func (l *liveInfo) act(ctx context.Context, declined, iface, member string, args ...any) error {
	r, err := l.call(ctx, targetAct, iface, member, args...)
	if err != nil {
		return err
	}
	if !boolResult(r) {
		return failure(KindRefused, "the app declined "+declined)
	}
	return nil
}

// boolResult reads a b reply; false means the app declined.
func boolResult(r *reply) bool {
	d := r.decoder()
	return d.uint32() != 0 && d.err == nil
}

// DoAction invokes the element's accessibility action with this name (the
// non-localized name a read reports, such as "click"; a case-insensitive
// match is accepted too). An element without it is KindRefused.
func (c *Client) DoAction(ctx context.Context, id ID, name string) error {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return err
	}
	if l.ifaces&ifAction == 0 {
		return failure(KindRefused, "the element has no accessibility actions")
	}
	names, err := c.actionNames(ctx, l)
	if err != nil {
		return err
	}
	idx := -1
	for i, n := range names {
		if n == name {
			idx = i
			break
		}
	}
	if idx < 0 {
		for i, n := range names {
			if strings.EqualFold(n, name) {
				idx = i
				break
			}
		}
	}
	if idx < 0 {
		// The element's actions are not what a read saw: read them
		// anew next time.
		c.forgetActions(id)
		return failure(KindRefused, "the element has no action of that name")
	}
	return l.act(ctx, "the action", "org.a11y.atspi.Action", "DoAction", int32(idx))
}

// actionNames reads an element's action names live.
func (c *Client) actionNames(ctx context.Context, l *liveInfo) ([]string, error) {
	r, err := l.call(ctx, targetAct, "org.a11y.atspi.Action", "GetActions")
	if err != nil {
		return nil, err
	}
	localized := decodeActionNames(r.decoder())
	if len(localized) == 0 {
		return nil, nil
	}
	p := newPipe(ctx)
	defer p.close()
	for i := range localized {
		p.add(l.conn, call{kind: kindActionName, sub: i}, l.bus, l.path, "org.a11y.atspi.Action", "GetName", int32(i))
	}
	p.flush()
	names := make([]string, len(localized))
	for a, err := range p.answers() {
		if err != nil {
			return nil, mapErr(err, l.conn, ctx, targetAct)
		}
		if a.err != nil {
			return nil, mapErr(a.err, l.conn, ctx, targetAct)
		}
		names[a.sub] = a.decoder().str()
	}
	return names, nil
}

// editable checks an element before typing into it: not secure, with the
// EditableText interface, and in the editable state.
func (c *Client) editable(ctx context.Context, id ID) (*liveInfo, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return nil, err
	}
	if l.secure {
		return nil, failure(KindSecure, "the element is a secure field")
	}
	if !editableText(l.ifaces, l.states) {
		return nil, failure(KindRefused, "the element has no editable text")
	}
	if !c.WritesText(ctx, l.bus) {
		return nil, failure(KindRefused, "the app ignores text written through accessibility")
	}
	return l, nil
}

// insertAt decides where typed text goes in a field, as a person would
// expect it to: at the caret when the field has the focus (the person, or
// a click of the model's, put the caret there) or when the caret is past
// the start (someone placed it and moved on), else at the end (-1). A
// field nobody clicked into has its caret at the start, and text typed
// there would go in front of what the field holds.
func insertAt(states stateSet, caret int32) int32 {
	if caret >= 0 && (states.has(stateFocused) || caret > 0) {
		return caret
	}
	return -1
}

// InsertText inserts text where a person would expect it (insertAt: at the
// caret, or at the end of a field nobody clicked into), through
// EditableText.InsertText, and returns that character offset. A secure
// field is refused with KindSecure before anything is sent.
func (c *Client) InsertText(ctx context.Context, id ID, text string) (int, error) {
	l, err := c.editable(ctx, id)
	if err != nil {
		return 0, err
	}
	pos := int32(-1)
	if l.ifaces&ifText != 0 {
		if r, err := l.call(ctx, targetAct, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Text", "CaretOffset"); err == nil {
			d := r.decoder()
			if d.sig() == "i" {
				if v := d.int32(); d.err == nil {
					pos = insertAt(l.states, v)
				}
			}
		} else if ctx.Err() != nil {
			return 0, err
		}
		if pos < 0 {
			if r, err := l.call(ctx, targetAct, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Text", "CharacterCount"); err == nil {
				d := r.decoder()
				if d.sig() == "i" {
					if v := d.int32(); d.err == nil && v >= 0 {
						pos = v
					}
				}
			} else {
				return 0, err
			}
		}
	}
	if pos < 0 {
		pos = 0
	}
	// The length is in bytes (ATK and GTK take the text's byte length).
	return int(pos), l.act(ctx, "the text insertion", "org.a11y.atspi.EditableText", "InsertText", pos, text, int32(len(text)))
}

// ReadTextAt reads the element's text from character start to end live
// (Text.GetText), after re-checking its security: a secure element's text
// is never read (Secure true). Child marks are dropped, as ReadValue drops
// them.
func (c *Client) ReadTextAt(ctx context.Context, id ID, start, end int) (Readback, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return Readback{}, err
	}
	if l.secure {
		return Readback{Secure: true}, nil
	}
	if l.ifaces&ifText == 0 || start >= end {
		return Readback{}, nil
	}
	s, err := l.getText(ctx, int32(start), int32(end))
	return Readback{Value: dropEmbeds(s)}, err
}

// getText asks for the text from character start to end (-1: its end).
func (l *liveInfo) getText(ctx context.Context, start, end int32) (string, error) {
	r, err := l.call(ctx, targetElement, "org.a11y.atspi.Text", "GetText", start, end)
	if err != nil {
		return "", err
	}
	d := r.decoder()
	s := d.str()
	if d.err != nil {
		return "", mapErr(d.err, l.conn, ctx, targetElement)
	}
	return s, nil
}

// SetText replaces the element's whole text (EditableText.SetTextContents).
func (c *Client) SetText(ctx context.Context, id ID, text string) error {
	l, err := c.editable(ctx, id)
	if err != nil {
		return err
	}
	return l.act(ctx, "the new text", "org.a11y.atspi.EditableText", "SetTextContents", text)
}

// SetNumber sets the element's value through the Value interface's
// CurrentValue property.
func (c *Client) SetNumber(ctx context.Context, id ID, v float64) error {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return err
	}
	if l.secure {
		return failure(KindSecure, "the element is a secure field")
	}
	if l.ifaces&ifValue == 0 {
		return failure(KindRefused, "the element has no numeric value")
	}
	_, err = l.call(ctx, targetAct, "org.freedesktop.DBus.Properties", "Set", "org.a11y.atspi.Value", "CurrentValue", variantDouble(v))
	return err
}

// ReadText returns the element's text, at most maxBytes of it (cut on a
// character boundary; maxBytes <= 0 means no limit) and whether it was cut.
// A secure element is KindSecure and its text is never requested; an
// element without the Text interface is KindRefused.
func (c *Client) ReadText(ctx context.Context, id ID, maxBytes int) (string, bool, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return "", false, err
	}
	if l.secure {
		return "", false, failure(KindSecure, "the element is a secure field")
	}
	if l.ifaces&ifText == 0 {
		return "", false, failure(KindRefused, "the element has no text interface")
	}
	return l.text(ctx, maxBytes)
}

// text reads the whole text, or enough characters to fill maxBytes.
func (l *liveInfo) text(ctx context.Context, maxBytes int) (string, bool, error) {
	s, cut, err := l.rawText(ctx, maxBytes)
	if err != nil {
		return "", false, err
	}
	out, shorter := utf8cut.Cut(dropEmbeds(s), maxBytes)
	return out, shorter || cut, nil
}

// rawText is the element's text as its app gives it, child marks
// (embedChar) included, asked for no more than maxBytes characters; cut
// says it was asked for less than the whole.
func (l *liveInfo) rawText(ctx context.Context, maxBytes int) (string, bool, error) {
	count := int32(-1)
	if r, err := l.call(ctx, targetElement, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Text", "CharacterCount"); err == nil {
		d := r.decoder()
		if d.sig() == "i" {
			if v := d.int32(); d.err == nil {
				count = v
			}
		}
	} else {
		return "", false, err
	}
	end := int32(-1)
	if maxBytes > 0 && count >= 0 && int64(count) > int64(maxBytes) {
		// A character is at least one byte: maxBytes characters always
		// hold maxBytes bytes or more.
		end = int32(maxBytes)
	}
	s, err := l.getText(ctx, 0, end)
	if err != nil {
		return "", false, err
	}
	return s, end >= 0, nil
}

// ReadField reads an element's text (at most maxBytes) and caret offset
// for the engine's credential check of type_text (FieldReader).
// The element's security is re-checked first from its live role and
// attributes; a secure element's text and caret are never read. An element
// without the Text interface reads as empty with no caret (-1). Calls:
// Properties.Get of Text.CaretOffset, then what ReadText sends.
func (c *Client) ReadField(ctx context.Context, id ID, maxBytes int) (Field, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return Field{}, err
	}
	if l.secure {
		return Field{Secure: true, Caret: -1}, nil
	}
	f := Field{Caret: -1}
	if l.ifaces&ifText == 0 {
		return f, nil
	}
	r, err := l.call(ctx, targetElement, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Text", "CaretOffset")
	if err != nil {
		return Field{}, err
	}
	d := r.decoder()
	if d.sig() == "i" {
		if v := d.int32(); d.err == nil {
			f.Caret = int(insertAt(l.states, v))
		}
	}
	if f.Text, f.Truncated, err = l.text(ctx, maxBytes); err != nil {
		return Field{}, err
	}
	return f, nil
}

// ReadValue reads the element's current value live: its number (Value
// interface) or at most maxBytes of its text. The element's security is re-checked first from
// its live role and attributes; a secure element's value is never read
// (Secure true, Value empty).
func (c *Client) ReadValue(ctx context.Context, id ID, maxBytes int) (Readback, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return Readback{}, err
	}
	if l.secure {
		return Readback{Secure: true}, nil
	}
	if l.ifaces&ifValue != 0 {
		r, err := l.call(ctx, targetElement, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Value", "CurrentValue")
		if err != nil {
			return Readback{}, err
		}
		d := r.decoder()
		if d.sig() == "d" {
			if v := d.float64(); d.err == nil {
				return Readback{Value: formatNumber(v)}, nil
			}
		}
		return Readback{}, failure(KindInternal, "the app sent a malformed value")
	}
	if l.ifaces&ifText != 0 {
		s, cut, err := l.text(ctx, maxBytes)
		if err != nil {
			return Readback{}, err
		}
		return Readback{Value: s, Truncated: cut}, nil
	}
	return Readback{}, nil
}
