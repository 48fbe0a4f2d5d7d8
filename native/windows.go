package native

import (
	"context"
	"image"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// Where the backend's windows come from. Everything the driver reads or
// does headless goes through a window's AT-SPI frame; what differs between
// display servers is only how the windows are found and how a window id
// leads to its frame:
//
//   - on X11 (windows_x11.go) the windows are X's top-level windows, with
//     their X ids, places and stacking, each matched to its app's frame
//     (match.go);
//   - on Wayland (windows_wayland.go) no client may list the compositor's
//     windows, so the windows are the frames themselves, every app's on the
//     accessibility bus, with ids the driver gives them.
//
// The backend picks one source when it opens, from the session
// (waylandSession), and the engine never learns which: it sees windows,
// and each window's FrameSpace.
type windowSource interface {
	// list lists the visible top-level windows, topmost first; with named
	// false App may be left empty when naming costs calls into the apps.
	list(ctx context.Context, named bool) ([]engine.Window, error)
	// frame is what the source knows of window w when it is read: its
	// process, title and geometry, and its AT-SPI frame when it has one.
	frame(ctx context.Context, w engine.WindowID) (windowFrame, error)
	// matcher finds the frames of listed windows for a scan of many (the
	// doctor's list of empty windows): at most one call to the bus for all.
	matcher(ctx context.Context) (func(engine.Window) (windowFrame, bool), error)
	// focused is the window with the keyboard focus (0 when none).
	focused(ctx context.Context) (engine.WindowID, error)
	// The calls that need a window's place on screen and its server id:
	// the window on top at a root point, raising one, capturing one.
	topmostAt(ctx context.Context, p engine.Point) (engine.WindowID, error)
	raise(ctx context.Context, w engine.WindowID) error
	capture(ctx context.Context, w engine.WindowID) (*image.RGBA, error)
}

// windowFrame is what a source knows of one window when it is read.
type windowFrame struct {
	pid   int
	title string      // untrusted app text
	geom  engine.Rect // the window's geometry in its frame space
	// id is the window's AT-SPI frame, "" when it has none (an app that is
	// not on the accessibility bus); bus is that frame's app.
	id  atspi.ID
	bus string
}

// accessible says whether the window has an AT-SPI frame.
func (f windowFrame) accessible() bool { return f.id != "" }

// frameOf finds window w's frame through the backend's source, and notes
// the frame's app for the change watchers (changes.go).
func (b *Backend) frameOf(ctx context.Context, w engine.WindowID) (windowFrame, error) {
	f, err := b.src.frame(ctx, w)
	if err == nil && f.accessible() {
		b.mu.Lock()
		b.frameBus[w] = f.bus
		b.mu.Unlock()
	}
	return f, err
}

// forget drops what the backend remembers of window w's frame: the frame
// it matched, its app, its scale (a read found the frame gone).
func (b *Backend) forget(w engine.WindowID) {
	b.mu.Lock()
	delete(b.frames, w)
	delete(b.frameBus, w)
	delete(b.scales, w)
	b.mu.Unlock()
}
