package native

import (
	"context"
	"errors"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The clipboard is the X CLIPBOARD selection (package xlib): reads ask its
// owner for text on a connection of their own, and a write makes the
// driver the owner from a goroutine of its own until the engine releases
// it (a newer write, the session's end) or another client takes it.

// ClipboardRead returns the clipboard's text; empty text is none.
func (b *Backend) ClipboardRead(ctx context.Context) (string, error) {
	text, err := b.x.ReadClipboard(ctx)
	if err != nil {
		return "", clipboardErr(err)
	}
	if text == "" {
		// An owner offering empty text has nothing to give, as the engine
		// (and the mock) count it.
		return "", engine.Errf(engine.CodeClipboardUnavailable, "the clipboard holds no text")
	}
	return text, nil
}

// ClipboardWrite makes the driver the clipboard's owner with text; the
// returned func gives the clipboard up (and is safe to call twice).
func (b *Backend) ClipboardWrite(ctx context.Context, text string) (func(), error) {
	o, err := b.x.OwnClipboard(ctx, text)
	if err != nil {
		return nil, clipboardErr(err)
	}
	return o.Release, nil
}

// clipboardErr maps the clipboard's failures to the engine's codes, in the
// driver's own words: never with clipboard text.
func clipboardErr(err error) error {
	var msg string
	switch {
	case errors.Is(err, xlib.ErrClipboardEmpty):
		msg = "nothing is on the clipboard"
	case errors.Is(err, xlib.ErrClipboardNoText):
		msg = "the clipboard holds no text"
	case errors.Is(err, xlib.ErrClipboardIncremental):
		msg = "the clipboard's owner sends its text in pieces (INCR), which the driver does not read"
	case errors.Is(err, xlib.ErrClipboardTooLarge):
		msg = "the clipboard text is larger than the driver takes"
	case errors.Is(err, xlib.ErrClipboardTimeout), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		msg = "the clipboard's owner did not answer in time"
	case errors.Is(err, xlib.ErrClipboardNotOwned), errors.Is(err, xlib.ErrClipboardTaken):
		msg = "another program took the clipboard at the same moment"
	default:
		return xErr(err)
	}
	return engine.Wrap(engine.CodeClipboardUnavailable, err, "%s", msg)
}
