//go:build !cgo

package xlib

import "context"

// The clipboard's API in a binary built without cgo: every call says the
// X11 backend was not built.

// ReadClipboard reports that the X11 backend was not built.
func (d *Display) ReadClipboard(ctx context.Context) (string, error) { return "", ErrNotBuilt }

// OwnClipboard reports that the X11 backend was not built.
func (d *Display) OwnClipboard(ctx context.Context, text string) (*ClipboardOwner, error) {
	return nil, ErrNotBuilt
}

// ClipboardOwner holds the clipboard; without cgo there never is one.
type ClipboardOwner struct{}

func (o *ClipboardOwner) Release() {}
