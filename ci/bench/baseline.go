package main

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
)

// walkBound ends a pyatspi walk that hangs (an app that stops answering
// the bus): far above the slowest subject's walks.
const walkBound = 90 * time.Second

// walk runs walk.py (the pyatspi baseline) on the app's window whose title
// starts with title, b.walks times in one interpreter, and returns each
// walk's milliseconds and the elements it visited. Some apps (the widget
// factory, zenity) leave their accessible frame unnamed while X shows a
// fallback title; then the walk takes the app's first top-level window,
// which for these one-window apps is the one the driver read (the table's
// "walked" column beside "elements" shows whether the two agree).
func (b *bench) walk(pid int, title string) ([]float64, int, error) {
	ms, elements, err := b.timedWalks(pid, title)
	if errors.Is(err, pyref.ErrNoWindow) && title != "" {
		return b.timedWalks(pid, "")
	}
	return ms, elements, err
}

// timedWalks runs walk.py's b.walks walks on the desktop, within walkBound.
func (b *bench) timedWalks(pid int, title string) ([]float64, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), walkBound)
	defer cancel()
	return pyref.TimedWalks(ctx, b.desk.Env(), filepath.Join(b.testdata, "walk.py"), pid, title, b.walks)
}
