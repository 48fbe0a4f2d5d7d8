package native

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// ShowIndicator and WatchInput say takeover is not wired until the
// indicator and the input watcher of native/xlib are connected here.

func (b *Backend) ShowIndicator(ctx context.Context, paused bool) (engine.Indicator, error) {
	return nil, engine.Errf(engine.CodeBackendUnavailable, "the takeover indicator is not built yet")
}

func (b *Backend) WatchInput(ctx context.Context, sink func(engine.RawInput)) error {
	return engine.Errf(engine.CodeBackendUnavailable, "the input watcher is not built yet")
}
