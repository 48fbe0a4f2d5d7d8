package native

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// waylandWindows is the window source of a Wayland session. A Wayland
// compositor lets no ordinary client list its windows, learn where they
// are or which is on top; Xwayland's X server knows only the X11 apps. The
// accessibility bus knows every app that is on it, Wayland and Xwayland
// alike, and each app's top-level frames: those are the windows.
//
// A window's id is the driver's: given from a counter the first time its
// frame (its app's bus name and the frame's object path) is listed, kept
// while the frame is listed, forgotten when it is not, and never given
// again, so an id the model holds never comes to name another window. The
// window's pid is its app's bus connection's, its title the frame's name,
// its app the AT-SPI application name, and it is focused when its frame is
// active. Its frame is its size at 0,0 (engine.WindowSpace): frames are
// read in window coordinates (atspi.Options.WindowCoordinates).
type waylandWindows struct {
	b *Backend

	mu         sync.Mutex
	last       engine.WindowID // the last id given
	ids        map[frameKey]engine.WindowID
	known      map[engine.WindowID]*waylandWindow
	askedAgain map[string]time.Time // bus names askNewAppsAgain has asked, when first
	now        func() time.Time     // the clock of askedAgain (a test's own)
}

var _ windowSource = (*waylandWindows)(nil)

// frameKey is a frame's identity on the bus.
type frameKey struct{ bus, path string }

// waylandWindow is one window as last listed.
type waylandWindow struct {
	key   frameKey
	frame atspi.ID
	win   engine.Window
}

func newWaylandWindows(b *Backend) *waylandWindows {
	return &waylandWindows{b: b, ids: map[frameKey]engine.WindowID{}, known: map[engine.WindowID]*waylandWindow{},
		askedAgain: map[string]time.Time{}, now: time.Now}
}

// list lists the windows of every app on the bus, focused first. Naming
// costs nothing more here: the bus names the apps as it lists them.
func (s *waylandWindows) list(ctx context.Context, named bool) ([]engine.Window, error) {
	frames, apps, err := s.b.a.AllFrames(ctx)
	if err != nil {
		return nil, atspiErr(err)
	}
	frames = s.askNewAppsAgain(ctx, frames, apps)
	wins, gone := s.update(frames, apps, s.b.namesOf(apps))
	if len(gone) > 0 {
		s.b.mu.Lock()
		for _, id := range gone {
			delete(s.b.frameBus, id)
		}
		s.b.mu.Unlock()
	}
	return wins, nil
}

// newAppBound bounds the second ask of an app that did not answer a
// listing in time and of which no window is known yet
// (askNewAppsAgain): the call bound a read has.
const newAppBound = engine.DefaultCallTimeout

// askAgainFor is how long after its first second ask an app that never
// answered is still asked again, once per listing: long enough for a busy
// app's start on a loaded machine (LibreOffice's, several seconds with
// the cores taken), short enough that an app that hangs for good stops
// holding listings up. After it, the app is asked within the listing's
// own bound only, and listed as not answering until it answers.
const askAgainFor = 30 * time.Second

// askNewAppsAgain asks each app that did not answer within the listing's
// bound, and of which no window is known, again with newAppBound, all at
// once, and adds the frames of those that answer (apps is updated in
// place). An app is busy right after it starts (LibreOffice laying out its
// document, measured over 500 ms on the Wayland sandbox): a busy app keeps
// the windows it was listed with, but one never listed would have none,
// and a session asked for it would find no window. A bus name is asked
// again at most once per listing, and only for askAgainFor after its first
// second ask, so an app that hangs holds up listings for a while, not
// for ever; one that still did not answer is listed as not answering
// (update), never as an app without windows.
func (s *waylandWindows) askNewAppsAgain(ctx context.Context, frames []atspi.Frame, apps []atspi.App) []atspi.Frame {
	again := s.toAskAgain(apps)
	if len(again) == 0 {
		return frames
	}
	actx, cancel := context.WithTimeout(ctx, newAppBound)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, i := range again {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			app, fr, err := s.b.a.AskAgain(actx, apps[i])
			if err != nil {
				return
			}
			mu.Lock()
			apps[i] = app
			frames = append(frames, fr...)
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return frames
}

// toAskAgain picks the apps askNewAppsAgain asks again (by index): those
// that did not answer, of which no window is known and which were first
// asked again less than askAgainFor ago (or never); it marks the time of
// a first ask.
func (s *waylandWindows) toAskAgain(apps []atspi.App) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	listed := s.listedBuses()
	now := s.now()
	var again []int
	for i, a := range apps {
		if a.Err == nil || listed[a.Bus] {
			continue
		}
		first, asked := s.askedAgain[a.Bus]
		if asked && now.Sub(first) >= askAgainFor {
			continue
		}
		if !asked {
			if len(s.askedAgain) > 1000 {
				s.askedAgain = map[string]time.Time{}
			}
			s.askedAgain[a.Bus] = now
		}
		again = append(again, i)
	}
	return again
}

// isTopLevelShown: a frame counts as a window while it is showing or
// visible (GTK 4.8 reports showing on its windows only, which is enough).
func isTopLevelShown(states []string) bool {
	return slices.Contains(states, "showing") || slices.Contains(states, "visible")
}

// isPopupFrame: an untitled frame that is not active, of an app with a
// titled window, is one of that window's pop-ups (a suggestion list, a
// bubble, a menu), not a window of its own. X11's window list leaves
// pop-ups out (they are override-redirect windows, and unmapped when
// closed); the bus says less: Chromium keeps the frames of its address
// bar's suggestion lists "showing" and "visible" after they close, for
// the life of the browser window, so each Chromium window would be listed
// three times. An app whose every frame is untitled keeps them all.
func isPopupFrame(f atspi.Frame, titled map[string]bool) bool {
	return f.Name == "" && titled[f.Bus] && !slices.Contains(f.States, "active")
}

// appsWithTitledFrames are the bus names of the apps that list a shown
// frame with a title.
func appsWithTitledFrames(frames []atspi.Frame) map[string]bool {
	titled := map[string]bool{}
	for _, f := range frames {
		if f.Name != "" && isTopLevelShown(f.States) {
			titled[f.Bus] = true
		}
	}
	return titled
}

// update takes one listing of the bus: frames of the apps that answered,
// every app on the bus (an app with Err did not answer in time), and the
// apps' names by pid. A window of an app still on the bus that did not
// answer stays listed as it was last seen (a busy app keeps its windows
// and their ids); a window not listed otherwise is forgotten, and
// returned in gone. An app that did not answer and has no window listed
// is listed itself as not answering (engine.Window.NotAnswering): it is
// there, and a target naming it is told so (engine/target.go).
func (s *waylandWindows) update(frames []atspi.Frame, apps []atspi.App, names map[int]string) (wins []engine.Window, gone []engine.WindowID) {
	busy := map[string]bool{}
	for _, a := range apps {
		if a.Err != nil {
			busy[a.Bus] = true
		}
	}
	titled := appsWithTitledFrames(frames)
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[engine.WindowID]bool{}
	for _, f := range frames {
		if f.Pid <= 0 || !isTopLevelShown(f.States) || isPopupFrame(f, titled) {
			continue
		}
		key := frameKey{f.Bus, f.Path}
		id, ok := s.ids[key]
		if !ok {
			s.last++
			id = s.last
			s.ids[key] = id
		}
		if seen[id] {
			continue // listed twice by the bus: once is enough
		}
		seen[id] = true
		app := names[f.Pid]
		if app == "" {
			app = f.AppName
		}
		s.known[id] = &waylandWindow{key: key, frame: f.ID, win: engine.Window{
			ID: id, Pid: f.Pid, App: app, Title: f.Name,
			Frame:   engine.Rect{W: max(f.Extents.W, 0), H: max(f.Extents.H, 0)},
			Focused: slices.Contains(f.States, "active"), OnScreen: true,
			FrameSpace: engine.WindowSpace,
		}}
	}
	for id, w := range s.known {
		if seen[id] || busy[w.key.bus] {
			continue
		}
		delete(s.known, id)
		delete(s.ids, w.key)
		gone = append(gone, id)
	}
	wins = make([]engine.Window, 0, len(s.known))
	for _, w := range s.known {
		wins = append(wins, w.win)
	}
	// No stacking order is known: the focused window comes first (a pid's
	// "topmost" window is then the one the person is using), the others
	// in the order they were first listed.
	slices.SortFunc(wins, func(a, b engine.Window) int {
		if a.Focused != b.Focused {
			if a.Focused {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.ID, b.ID)
	})
	for i := range wins {
		wins[i].Stacking = i
	}
	return append(wins, s.notAnswering(apps, names)...), gone
}

// listedBuses are the bus names of the apps with a window known; s.mu is
// held.
func (s *waylandWindows) listedBuses() map[string]bool {
	listed := map[string]bool{}
	for _, w := range s.known {
		listed[w.key.bus] = true
	}
	return listed
}

// notAnswering are the apps that did not answer the listing (Err) and
// have no window known, as engine.Window.NotAnswering entries; s.mu is
// held.
func (s *waylandWindows) notAnswering(apps []atspi.App, names map[int]string) []engine.Window {
	listed := s.listedBuses()
	var out []engine.Window
	for _, a := range apps {
		if a.Err != nil && a.Pid > 0 && !listed[a.Bus] {
			out = append(out, engine.Window{Pid: a.Pid, App: names[a.Pid], NotAnswering: true})
		}
	}
	return out
}

// frame is window w's frame as last listed; a window no longer listed is
// gone.
func (s *waylandWindows) frame(ctx context.Context, w engine.WindowID) (windowFrame, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.known[w]
	if !ok {
		return windowFrame{}, engine.Errf(engine.CodeWindowGone, "the window closed")
	}
	return windowFrame{pid: k.win.Pid, title: k.win.Title, geom: k.win.Frame, id: k.frame, bus: k.key.bus}, nil
}

// matcher looks listed windows up as last listed: every window here is
// its frame.
func (s *waylandWindows) matcher(ctx context.Context) (func(engine.Window) (windowFrame, bool), error) {
	return func(w engine.Window) (windowFrame, bool) {
		f, err := s.frame(ctx, w.ID)
		return f, err == nil
	}, nil
}

// focused is the window whose frame is active.
func (s *waylandWindows) focused(ctx context.Context) (engine.WindowID, error) {
	wins, err := s.list(ctx, false)
	if err != nil {
		return 0, err
	}
	for _, w := range wins {
		if w.Focused {
			return w.ID, nil
		}
	}
	return 0, nil
}

// errNoPlace: a Wayland compositor tells no client where its windows are
// or which is on top, and lets none raise or capture one.
func errNoPlace(what string) error {
	return engine.Errf(engine.CodeUnsupported, "on Wayland the driver cannot %s: the compositor does not say where windows are", what)
}

func (s *waylandWindows) topmostAt(ctx context.Context, p engine.Point) (engine.WindowID, error) {
	return 0, errNoPlace("tell which window is at a point")
}

func (s *waylandWindows) raise(ctx context.Context, w engine.WindowID) error {
	return errNoPlace("raise a window")
}
