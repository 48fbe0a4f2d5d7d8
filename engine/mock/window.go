package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// Window is one top-level window with its accessibility tree.
type Window struct {
	d   *Desktop
	app *App
	id  engine.WindowID

	frame engine.Rect // root coordinates, device pixels
	// scale is how many device pixels the app draws for each of its
	// logical pixels (0 or 1: the same). The app lays its elements out in
	// logical pixels, as GTK 3 with GDK_SCALE=2 or Qt with
	// QT_SCALE_FACTOR=1.5 do; the mock reports them in device pixels, as
	// the native backend does once it has converted them.
	scale    float64
	onScreen bool
	closed   bool

	root  *Element
	byID  map[engine.ElementID]*Element
	focus *Element // the element with keyboard focus inside the window

	// stamp is the window's state as last stamped, for its change reports
	// and waits (changes.go).
	stamp *markState
}

// AddWindow opens a window for the app: it goes on top of the stacking
// order and takes the keyboard focus, as a window manager would give it.
// Its tree starts as one element, the "frame", named after the title.
// Window ids are X-like: the instance's client base plus 1, 2, ...
func (a *App) AddWindow(title string, frame engine.Rect) *Window {
	d := a.d
	d.mu.Lock()
	defer d.mu.Unlock()
	a.nextWin++
	w := &Window{
		d:        d,
		app:      a,
		id:       engine.WindowID(a.xbase + a.nextWin),
		frame:    frame,
		onScreen: true,
		byID:     map[engine.ElementID]*Element{},
	}
	w.root = w.newElement(nil, "frame", title)
	a.windows = append(a.windows, w)
	d.windows[w.id] = w
	if a.alive {
		d.stack = append([]*Window{w}, d.stack...)
		d.focus = w
	} else {
		w.closed = true
	}
	d.touch()
	return w
}

// Window returns an open window by id, or nil.
func (d *Desktop) Window(id engine.WindowID) *Window {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.liveWindow(id)
}

// ID is the window's id.
func (w *Window) ID() engine.WindowID { return w.id }

// App is the app that owns the window.
func (w *Window) App() *App { return w.app }

// Root is the window's frame element, the root of its tree.
func (w *Window) Root() *Element { return w.root }

// Title is the window's title (its frame element's name).
func (w *Window) Title() string {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return w.root.name
}

// SetTitle changes the title and the frame element's name.
func (w *Window) SetTitle(title string) {
	w.d.change(func() { w.root.name = title })
}

// Frame is the window's rectangle in root coordinates.
func (w *Window) Frame() engine.Rect {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return w.frame
}

// SetFrame moves or resizes the window; its elements move with it.
func (w *Window) SetFrame(r engine.Rect) {
	w.d.change(func() { w.frame = r })
}

// SetScale makes the app draw each logical pixel as s device pixels
// (1.25, 1.5, 2, ...). The window's frame stays as it is in device pixels;
// its elements are laid out again in the smaller logical size.
func (w *Window) SetScale(s float64) {
	w.d.change(func() { w.scale = s })
}

// SetOnScreen maps or unmaps (minimizes) the window. An unmapped window is
// still listed, with OnScreen false, but is never under the pointer.
func (w *Window) SetOnScreen(on bool) {
	w.d.change(func() { w.onScreen = on })
}

// Closed reports whether the window is gone (closed, or its app exited).
func (w *Window) Closed() bool {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	return w.closed || !w.app.alive
}

// Raise puts the window on top of the stacking order (without focusing it;
// SetFocus does that).
func (w *Window) Raise() {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	w.d.raise(w)
}

// Close closes the window: it vanishes, and calls on it fail with
// window_gone.
func (w *Window) Close() {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	w.d.closeWindow(w)
}

// Focus gives the window the keyboard focus (Desktop.SetFocus).
func (w *Window) Focus() { w.d.SetFocus(w) }

// SetFocus gives a window the keyboard focus; nil leaves no window focused.
func (d *Desktop) SetFocus(w *Window) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if w != nil && d.liveWindow(w.id) == nil {
		return
	}
	d.focus = w
	d.touch()
}

// raise moves a live window to the top. mu held.
func (d *Desktop) raise(w *Window) {
	d.touch()
	for i, x := range d.stack {
		if x == w {
			copy(d.stack[1:i+1], d.stack[:i])
			d.stack[0] = w
			return
		}
	}
}

// closeWindow removes a window from the screen. No window takes the focus
// it had (there is no window manager to hand it on). mu held.
func (d *Desktop) closeWindow(w *Window) {
	if w.closed {
		return
	}
	w.closed = true
	w.stamp = nil // nothing marks a closed window
	d.touch()
	for i, x := range d.stack {
		if x == w {
			d.stack = append(d.stack[:i:i], d.stack[i+1:]...)
			break
		}
	}
	if d.focus == w {
		d.focus = nil
	}
	if d.pressed != nil && d.pressed.win == w {
		d.pressed = nil
	}
}

// Windows lists the open windows, topmost first.
func (d *Desktop) Windows(ctx context.Context) ([]engine.Window, error) {
	var out []engine.Window
	err := d.plainCall(Call{Method: "Windows"}, func() error {
		out = make([]engine.Window, 0, len(d.stack))
		silent := map[*App]bool{}
		for i, w := range d.stack {
			if w.app.silent {
				silent[w.app] = true
				continue
			}
			out = append(out, engine.Window{
				ID:       w.id,
				Pid:      w.app.pid,
				App:      w.app.name,
				Title:    w.root.name,
				Frame:    w.frame,
				Focused:  d.focus == w,
				OnScreen: w.onScreen,
				Stacking: i,
			})
		}
		for _, a := range d.apps {
			if silent[a] {
				out = append(out, engine.Window{Pid: a.pid, App: a.name, NotAnswering: true})
			}
		}
		return nil
	})
	return out, err
}

// WindowsWithoutNames is Windows with App left empty, as a backend whose
// app names cost a call into each app lists them for a target by id or
// pid (engine.WindowsByID). It is logged as a Windows call.
func (d *Desktop) WindowsWithoutNames(ctx context.Context) ([]engine.Window, error) {
	out, err := d.Windows(ctx)
	for i := range out {
		out[i].App = ""
	}
	return out, err
}

var _ engine.WindowsByID = (*Desktop)(nil)

// FocusedWindow returns the window holding keyboard focus, 0 for none.
func (d *Desktop) FocusedWindow(ctx context.Context) (engine.WindowID, error) {
	var id engine.WindowID
	err := d.plainCall(Call{Method: "FocusedWindow"}, func() error {
		if d.focus != nil {
			id = d.focus.id
		}
		return nil
	})
	return id, err
}

// TopmostAt returns the topmost mapped window containing p, 0 for none
// (the root window). The takeover indicator is never a window here, so
// there is nothing to skip.
func (d *Desktop) TopmostAt(ctx context.Context, p engine.Point) (engine.WindowID, error) {
	var id engine.WindowID
	err := d.plainCall(Call{Method: "TopmostAt"}, func() error {
		if w := d.windowAt(p); w != nil {
			id = w.id
		}
		return nil
	})
	return id, err
}

// windowAt is the topmost mapped window containing p. mu held.
func (d *Desktop) windowAt(p engine.Point) *Window {
	for _, w := range d.stack {
		if w.onScreen && w.frame.Contains(p) {
			return w
		}
	}
	return nil
}

// Raise raises and focuses a window (takeover only; the engine decides).
func (d *Desktop) Raise(ctx context.Context, id engine.WindowID) error {
	return d.plainCall(Call{Method: "Raise", Window: id}, func() error {
		w := d.liveWindow(id)
		if w == nil {
			return errGone(id)
		}
		w.onScreen = true
		d.raise(w)
		d.focus = w
		d.touch()
		return nil
	})
}
