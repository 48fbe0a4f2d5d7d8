package native

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// ClipboardRead and ClipboardWrite say the clipboard is not built until
// native/xlib owns the CLIPBOARD selection.

func (b *Backend) ClipboardRead(ctx context.Context) (string, error) {
	return "", engine.Errf(engine.CodeBackendUnavailable, "clipboard support is not built yet")
}

func (b *Backend) ClipboardWrite(ctx context.Context, text string) (func(), error) {
	return nil, engine.Errf(engine.CodeBackendUnavailable, "clipboard support is not built yet")
}
