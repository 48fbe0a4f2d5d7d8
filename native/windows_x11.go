package native

import (
	"context"
	"image"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// x11Windows is the window source of an X11 session: X's top-level
// windows, each matched to its app's AT-SPI frame (match.go). The matches
// and the windows' scales are kept on the backend (frames, scales).
type x11Windows struct{ b *Backend }

var _ windowSource = x11Windows{}

// list lists the mapped top-level windows, topmost first, named by their
// AT-SPI application name when the app is on the bus, else by their
// WM_CLASS.
func (s x11Windows) list(ctx context.Context, named bool) ([]engine.Window, error) {
	b := s.b
	tops, err := b.x.TopLevels()
	if err != nil {
		return nil, xErr(err)
	}
	focused, _ := b.x.FocusedTopLevel()
	names := map[int]string{}
	if named {
		names = b.appNames(ctx)
	}
	out := make([]engine.Window, 0, len(tops))
	for _, w := range tops {
		if !w.Mapped {
			continue
		}
		app := names[w.Pid]
		if named && app == "" {
			app = w.Class
		}
		if named && app == "" {
			app = w.Instance
		}
		out = append(out, engine.Window{
			ID: engine.WindowID(w.ID), Pid: w.Pid, App: app, Title: w.Title,
			Frame:   engine.Rect{X: w.Frame.X, Y: w.Frame.Y, W: w.Frame.W, H: w.Frame.H},
			Focused: w.ID == focused, OnScreen: onScreen(w.Frame), Stacking: w.Stacking,
		})
	}
	return out, nil
}

// frame finds the AT-SPI frame of an X window: the match remembered from
// the last read when it still stands, else a fresh match. It keeps the
// window's scale up to date: measured at the match, and again (one
// GetExtents of the frame) whenever the window's X geometry changed.
func (s x11Windows) frame(ctx context.Context, w engine.WindowID) (windowFrame, error) {
	b := s.b
	win, err := b.x.Describe(uint64(w))
	if err != nil {
		return windowFrame{}, xErr(err)
	}
	out := windowFrame{pid: win.Pid, title: win.Title, geom: rectOf(win.Frame)}
	b.mu.Lock()
	id, ok := b.frames[w]
	bus := b.frameBus[w]
	sc, measured := b.scales[w]
	b.mu.Unlock()
	if ok {
		if !measured || sc.Device != rectOf(win.Frame) {
			if ext, err := b.a.Extents(ctx, id); err == nil {
				b.mu.Lock()
				b.scales[w] = measureScale(win.Frame, rectFromAtspi(ext))
				b.mu.Unlock()
			}
		}
		out.id, out.bus = id, bus
		return out, nil
	}
	frames, _, err := b.a.AllFrames(ctx)
	if err != nil {
		return out, atspiErr(err)
	}
	f, ok := matchFrame(win, frames)
	if !ok {
		return out, nil
	}
	b.mu.Lock()
	b.frames[w] = f.ID
	b.frameBus[w] = f.Bus
	b.scales[w] = measureScale(win.Frame, rectFromAtspi(f.Extents))
	b.mu.Unlock()
	out.id, out.bus = f.ID, f.Bus
	return out, nil
}

// matcher matches listed windows against one list of every app's frames.
func (s x11Windows) matcher(ctx context.Context) (func(engine.Window) (windowFrame, bool), error) {
	frames, _, err := s.b.a.AllFrames(ctx)
	if err != nil {
		return nil, atspiErr(err)
	}
	return func(w engine.Window) (windowFrame, bool) {
		xw, err := s.b.x.Describe(uint64(w.ID))
		if err != nil {
			return windowFrame{}, false
		}
		out := windowFrame{pid: xw.Pid, title: xw.Title, geom: rectOf(xw.Frame)}
		if f, ok := matchFrame(xw, frames); ok {
			out.id, out.bus = f.ID, f.Bus
		}
		return out, true
	}, nil
}

func (s x11Windows) focused(ctx context.Context) (engine.WindowID, error) {
	id, err := s.b.x.FocusedTopLevel()
	return engine.WindowID(id), xErr(err)
}

func (s x11Windows) topmostAt(ctx context.Context, p engine.Point) (engine.WindowID, error) {
	id, err := s.b.x.TopmostAt(p.X, p.Y, nil)
	return engine.WindowID(id), xErr(err)
}

func (s x11Windows) raise(ctx context.Context, w engine.WindowID) error {
	return xErr(s.b.x.Raise(uint64(w)))
}

func (s x11Windows) capture(ctx context.Context, w engine.WindowID) (*image.RGBA, error) {
	img, err := s.b.x.Capture(uint64(w))
	return img, xErr(err)
}

// onScreen: any part of the window lies on the screen's first 32k pixels
// (Xvfb and real screens alike start at 0,0).
func onScreen(r xlib.Rect) bool { return r.X+r.W > 0 && r.Y+r.H > 0 && r.W > 0 && r.H > 0 }
