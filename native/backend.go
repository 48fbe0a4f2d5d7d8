package native

import (
	"context"
	"errors"
	"image"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// Backend is the Linux/X11 desktop behind engine.Backend: X for windows,
// processes, captures, input and the consent dialog; AT-SPI for the trees
// and the semantic acts. It is the only place the two meet.
type Backend struct {
	x    *xlib.Display
	a    *atspi.Client
	src  windowSource // where windows come from: X11 or the accessibility bus (windows.go)
	opts Options

	// lastPress is the driver's last synthetic button press (Unix nanos):
	// the consent dialog and the indicator ignore a click that close to it.
	lastPress atomic.Int64

	mu       sync.Mutex
	frames   map[engine.WindowID]atspi.ID      // X window -> its AT-SPI frame, as last matched
	frameBus map[engine.WindowID]string        // X window -> its app's bus name
	scales   map[engine.WindowID]windowScale   // X window -> how its app's extents become device pixels (scale.go)
	names    map[engine.ProcessIdentity]string // an app's AT-SPI name, kept while it is busy or stopped
	watchers map[string]*appWatcher            // app bus name -> its change watcher
	watchSeq uint64                            // serial of the newest watcher
	tk       *takeoverParts                    // indicators, own-input echoes, kill switch (takeover.go)
	kits     map[engine.ProcessIdentity]string // a process's toolkit by its mapped files (accessibility.go)
	cast     *screenCast                       // a Wayland session's captures (capture_wayland.go)
}

var (
	_ engine.Backend      = (*Backend)(nil)
	_ engine.DetailReader = (*Backend)(nil)
)

// Options configure the backend.
type Options struct {
	// Display is the X display ("" = DISPLAY, as Getenv gives it).
	Display string
	// Getenv looks up the environment (default os.Getenv): DISPLAY's bus
	// addresses, so a caller can aim the backend at a sandbox.
	Getenv func(string) string
}

// Open connects to the X display; the accessibility bus is reached lazily.
// It fails when the display cannot be opened: the caller then reports the
// backend unavailable with the doctor's reason.
func Open(opts Options) (*Backend, error) {
	b := &Backend{opts: opts}
	display := opts.Display
	if display == "" {
		display = b.getenv("DISPLAY")
	}
	if display == "" {
		// Xlib would read the process's own DISPLAY, which may name
		// another desktop than the one the options describe.
		return nil, ErrNoDisplay
	}
	x, err := xlib.Open(display)
	if err != nil {
		return nil, err
	}
	*b = Backend{
		x:        x,
		opts:     opts,
		frames:   map[engine.WindowID]atspi.ID{},
		frameBus: map[engine.WindowID]string{},
		scales:   map[engine.WindowID]windowScale{},
		names:    map[engine.ProcessIdentity]string{},
		watchers: map[string]*appWatcher{},
		tk:       &takeoverParts{indicators: map[*indicator]bool{}},
	}
	// In a Wayland session the X display is Xwayland's, which holds only
	// some of the apps: the windows then come from the accessibility bus,
	// and their frames are relative to each window (windows_wayland.go).
	wayland := waylandSession(b.getenv)
	b.a = atspi.New(atspi.Options{Getenv: opts.Getenv, WindowCoordinates: wayland})
	b.src = x11Windows{b}
	b.cast = &screenCast{getenv: b.getenv}
	if wayland {
		b.src = newWaylandWindows(b)
	}
	return b, nil
}

// ErrNoDisplay is Open's answer when no X display is named: DISPLAY is
// unset (a Wayland session without Xwayland, a text console).
var ErrNoDisplay = errors.New("native: no X display is named (DISPLAY is unset)")

// getenv is the backend's view of the environment (Options.Getenv, else
// the process's).
func (b *Backend) getenv(key string) string {
	if b.opts.Getenv != nil {
		return b.opts.Getenv(key)
	}
	return os.Getenv(key)
}

// Close releases the display and the bus connections, and takes down any
// indicator still up.
func (b *Backend) Close() {
	b.tk.removeIndicators()
	b.closeWatchers()
	b.cast.close()
	b.a.Close()
	_ = b.x.Close()
}

// xErr maps an X failure to the engine's codes.
func xErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, xlib.ErrWindowGone):
		return engine.Wrap(engine.CodeWindowGone, err, "the window closed")
	case errors.Is(err, xlib.ErrDisplayLost), errors.Is(err, xlib.ErrClosed), errors.Is(err, xlib.ErrNotBuilt):
		return engine.Wrap(engine.CodeBackendUnavailable, err, "the X display cannot be reached")
	case errors.Is(err, xlib.ErrUnknownKey), errors.Is(err, xlib.ErrNoKeycode):
		return engine.Wrap(engine.CodeInvalidArguments, err, "the key cannot be sent")
	case errors.Is(err, xlib.ErrMiddleButton), errors.Is(err, xlib.ErrUnknownButton):
		return engine.Wrap(engine.CodeInvalidArguments, err, "the button cannot be sent")
	}
	var e *engine.Error
	if errors.As(err, &e) {
		return e
	}
	return engine.Wrap(engine.CodeInternal, err, "an X call failed")
}

// Windows lists the visible top-level windows, topmost first, named by
// their AT-SPI application name when the app is on the bus, else (X11) by
// their WM_CLASS.
func (b *Backend) Windows(ctx context.Context) ([]engine.Window, error) {
	return b.windows(ctx, true)
}

var (
	_ engine.WindowsByID      = (*Backend)(nil)
	_ engine.ScrollIntoViewer = (*Backend)(nil)
)

// WindowsWithoutNames lists the windows as Windows does, with App empty:
// naming them costs a call into every app on the accessibility bus.
func (b *Backend) WindowsWithoutNames(ctx context.Context) ([]engine.Window, error) {
	return b.windows(ctx, false)
}

// windows lists the windows through the backend's source (windows.go).
func (b *Backend) windows(ctx context.Context, named bool) ([]engine.Window, error) {
	return b.src.list(ctx, named)
}

// appNames maps pids to their apps' AT-SPI names. A name is remembered per
// process identity, so an app that is busy or stopped keeps the name it was
// listed and approved under instead of falling back to its WM_CLASS.
func (b *Backend) appNames(ctx context.Context) map[int]string {
	apps, _ := b.a.Apps(ctx)
	return b.namesOf(apps)
}

// namesOf is appNames of a list of the apps on the bus.
func (b *Backend) namesOf(apps []atspi.App) map[int]string {
	names := map[int]string{}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range apps {
		id, err := processIdentity(a.Pid)
		if err != nil {
			continue
		}
		if a.Err == nil && a.Name != "" {
			b.names[id] = a.Name
		}
		if n, ok := b.names[id]; ok {
			names[a.Pid] = n
		}
	}
	return names
}

// Process reads a process's identity from /proc.
func (b *Backend) Process(ctx context.Context, pid int) (engine.ProcessIdentity, error) {
	return processIdentity(pid)
}

// scaleOf is window w's scale as last measured (1 when never).
func (b *Backend) scaleOf(w engine.WindowID) windowScale {
	b.mu.Lock()
	defer b.mu.Unlock()
	if sc, ok := b.scales[w]; ok {
		return sc
	}
	return windowScale{Scale: 1}
}

func rectOf(r xlib.Rect) engine.Rect { return engine.Rect{X: r.X, Y: r.Y, W: r.W, H: r.H} }

// ReadTree reads a window's whole accessible tree with every detail.
func (b *Backend) ReadTree(ctx context.Context, w engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	return b.read(ctx, w, budget, atspi.DetailsAll)
}

// ReadStructure reads a window's whole tree without per-element details:
// one cache reply plus fill-ins, no call per element. The engine then reads
// the details of the rows it shows (ReadDetails).
func (b *Backend) ReadStructure(ctx context.Context, w engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	return b.read(ctx, w, budget, atspi.DetailsNone)
}

// ReadDetails reads values, actions and frames of nodes of an earlier read
// of window w; frames come in device pixels (scale.go).
func (b *Backend) ReadDetails(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	real, ax, err := b.details(ctx, nodes, atspi.DetailsAll, nil)
	if err != nil {
		return err
	}
	sc := b.scaleOf(w)
	for i, n := range real {
		copyDetails(n, &ax[i])
		n.Detailed = true
		n.Frame = sc.toDevice(saneFrame(n.Frame))
	}
	return nil
}

// ReadActions reads the action names of nodes of an earlier read again,
// in place, asking the app whatever the client learnt of them before
// (engine.DetailReader; native/atspi/actionlists.go).
func (b *Backend) ReadActions(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	for _, n := range nodes {
		b.a.ForgetActions(atspiID(n.ID))
	}
	real, ax, err := b.details(ctx, nodes, atspi.DetailActions, nil)
	if err != nil {
		return err
	}
	for i, n := range real {
		n.Actions = ax[i].Actions
	}
	return nil
}

// ReadFrames reads the frames of nodes of an earlier read again, in place
// (engine.FrameReader): extents, for the elements showing (the others have
// no frame, as in any read), and the action names of elements whose names
// the client has not learnt (Firefox lists none for a page element the
// first time it is asked; a kept read would keep that).
func (b *Backend) ReadFrames(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	real, ax, err := b.details(ctx, nodes, atspi.DetailExtents|atspi.DetailActions, func(n *atspi.Node) {
		n.Frame = atspi.Rect{} // read anew, never scaled twice
	})
	if err != nil {
		return err
	}
	sc := b.scaleOf(w)
	for i, n := range real {
		n.Frame = sc.toDevice(saneFrame(rectFromAtspi(ax[i].Frame)))
		if len(n.Actions) == 0 && len(ax[i].Actions) > 0 {
			n.Actions = ax[i].Actions
		}
	}
	return nil
}

// details reads which details of the nodes that came from AT-SPI, into
// atspi copies of them (prepared by prep, when given); it returns those
// nodes and their copies, in the same order. The bare window's node is
// left out: its frame came from X, so it counts as read.
func (b *Backend) details(ctx context.Context, nodes []*engine.Node, which atspi.Details, prep func(*atspi.Node)) ([]*engine.Node, []atspi.Node, error) {
	ctx = answering(ctx)
	var real []*engine.Node
	for _, n := range nodes {
		if n.ID == bareWindowID {
			n.Detailed = true
			continue
		}
		real = append(real, n)
	}
	if len(real) == 0 {
		return nil, nil, nil
	}
	ax := make([]atspi.Node, len(real))
	ptrs := make([]*atspi.Node, len(real))
	for i, n := range real {
		ax[i] = nodeToAtspi(n)
		if prep != nil {
			prep(&ax[i])
		}
		ptrs[i] = &ax[i]
	}
	if err := b.a.Details(ctx, ptrs, which); err != nil {
		return nil, nil, atspiErr(err)
	}
	return real, ax, nil
}

// saneFrame drops extents a toolkit reports for an element with no area
// (GTK says -1 by -1 for some): such an element has no frame.
func saneFrame(r engine.Rect) engine.Rect {
	if r.W <= 0 || r.H <= 0 {
		return engine.Rect{}
	}
	return r
}

// read reads a window's tree with the given details. A window with no
// accessible frame (an app that is not on the accessibility bus) reads as
// the window alone, so it can still be captured and acted on in a takeover.
func (b *Backend) read(ctx context.Context, w engine.WindowID, budget engine.Budget, details atspi.Details) (*engine.Tree, error) {
	ctx = answering(ctx)
	win, err := b.frameOf(ctx, w)
	if err != nil {
		return nil, err
	}
	if !win.accessible() {
		return bareWindow(w, win), nil
	}
	frame := win.id
	opts := atspi.ReadOptions{Budget: atspi.Budget{MaxElements: budget.MaxElements, MaxDepth: budget.MaxDepth}, Details: details}
	t, err := b.a.ReadTree(ctx, frame, opts)
	if err != nil {
		// The remembered frame may belong to a window that was replaced;
		// match afresh once.
		b.forget(w)
		if k := atspi.KindOf(err); k != atspi.KindGone && k != atspi.KindStale {
			return nil, atspiErr(err)
		}
		win2, err2 := b.frameOf(ctx, w)
		frame2 := win2.id
		if err2 != nil || !win2.accessible() || frame2 == frame {
			return nil, atspiErr(err)
		}
		if t, err = b.a.ReadTree(ctx, frame2, opts); err != nil {
			return nil, atspiErr(err)
		}
	}
	return treeFromAtspi(t, w, b.scaleOf(w), details == atspi.DetailsAll), nil
}

// bareWindowID names the one row of a window without accessibility.
const bareWindowID = engine.ElementID("x11:window")

// bareWindow is the tree of a window without accessibility: one frame row.
func bareWindow(w engine.WindowID, win windowFrame) *engine.Tree {
	return &engine.Tree{Window: w, Nodes: []engine.Node{{
		ID: bareWindowID, Parent: -1, Role: "frame", Name: win.title, Detailed: true,
		States: []string{"enabled", "sensitive", "showing", "visible"},
		Frame:  win.geom,
	}}}
}

func (b *Backend) ReadText(ctx context.Context, ref engine.ElementRef, maxBytes int) (string, bool, error) {
	s, cut, err := b.a.ReadText(ctx, atspiID(ref.ID), maxBytes)
	return s, cut, atspiErr(err)
}

func (b *Backend) ReadValue(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Readback, error) {
	v, err := b.a.ReadValue(ctx, atspiID(ref.ID), maxBytes)
	return engine.Readback{Value: v.Value, Truncated: v.Truncated, Secure: v.Secure}, atspiErr(err)
}

var _ engine.FieldReader = (*Backend)(nil)

func (b *Backend) ReadTextAt(ctx context.Context, ref engine.ElementRef, start, end int) (engine.Readback, error) {
	v, err := b.a.ReadTextAt(ctx, atspiID(ref.ID), start, end)
	return engine.Readback{Value: v.Value, Secure: v.Secure}, atspiErr(err)
}

func (b *Backend) ReadField(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Field, error) {
	f, err := b.a.ReadField(ctx, atspiID(ref.ID), maxBytes)
	return engine.Field{Text: f.Text, Truncated: f.Truncated, Caret: f.Caret, Secure: f.Secure}, atspiErr(err)
}

func (b *Backend) DoAction(ctx context.Context, ref engine.ElementRef, action string) error {
	return atspiErr(b.a.DoAction(ctx, atspiID(ref.ID), action))
}

func (b *Backend) InsertText(ctx context.Context, ref engine.ElementRef, text string) (int, error) {
	at, err := b.a.InsertText(ctx, atspiID(ref.ID), text)
	return at, atspiErr(err)
}

var _ engine.CaretFinder = (*Backend)(nil)

// CaretChild finds the child of an editable document that holds the caret
// (engine.CaretFinder).
func (b *Backend) CaretChild(ctx context.Context, ref engine.ElementRef) (engine.ElementID, error) {
	id, err := b.a.CaretChild(ctx, atspiID(ref.ID))
	return engine.ElementID(id), atspiErr(err)
}

func (b *Backend) SetText(ctx context.Context, ref engine.ElementRef, text string) error {
	return atspiErr(b.a.SetText(ctx, atspiID(ref.ID), text))
}

func (b *Backend) SetNumber(ctx context.Context, ref engine.ElementRef, v float64) error {
	return atspiErr(b.a.SetNumber(ctx, atspiID(ref.ID), v))
}

// ScrollIntoView scrolls an element a view clips into view, by
// accessibility calls alone (engine.ScrollIntoViewer).
func (b *Backend) ScrollIntoView(ctx context.Context, ref engine.ElementRef, hint engine.ScrollHint) error {
	hint.Delta = b.scaleOf(ref.Window).lengthToApp(hint.Delta)
	return atspiErr(b.a.ScrollIntoView(ctx, atspiID(ref.ID), scrollHintToAtspi(hint)))
}

var _ engine.HitTester = (*Backend)(nil)

// ElementsAt asks window w's app what lies under a root device point (the
// point in the app's own pixels, scale.go), one level at a time. A window
// without an accessible frame names no element.
func (b *Backend) ElementsAt(ctx context.Context, w engine.WindowID, p engine.Point) ([]engine.ElementID, error) {
	win, err := b.frameOf(ctx, w)
	if err != nil || !win.accessible() {
		return nil, err
	}
	at := b.scaleOf(w).toApp(p)
	ids, err := b.a.ElementsAt(ctx, win.id, at.X, at.Y)
	return elementIDs(ids), atspiErr(err)
}

// Send sends one synthetic event through XTEST.
func (b *Backend) Send(ctx context.Context, ev engine.InputEvent) error {
	var err error
	switch ev.Kind {
	case engine.InputMotion:
		err = b.x.FakeMotion(ev.At.X, ev.At.Y)
	case engine.InputButtonPress, engine.InputButtonRelease:
		press := ev.Kind == engine.InputButtonPress
		if press {
			b.lastPress.Store(time.Now().UnixNano())
		}
		err = b.x.FakeButton(ev.Button, press)
	case engine.InputKeyPress, engine.InputKeyRelease:
		press := ev.Kind == engine.InputKeyPress
		if ev.Key != "" {
			err = b.x.FakeKey(ev.Key, press)
		} else {
			err = b.x.FakeChar(ev.Char, press)
		}
	default:
		return engine.Errf(engine.CodeInvalidArguments, "unknown input event")
	}
	return xErr(err)
}

// driverPressRecent reports whether a press at the time given could be the
// driver's own (engine.DriverPressedRecently after its last press): the
// consent dialog and the indicator do not count it.
func (b *Backend) driverPressRecent(at time.Time) bool {
	var last time.Time
	if n := b.lastPress.Load(); n != 0 {
		last = time.Unix(0, n)
	}
	return engine.DriverPressedRecently(last, at)
}

func (b *Backend) Pointer(ctx context.Context) (engine.Point, error) {
	x, y, err := b.x.Pointer()
	return engine.Point{X: x, Y: y}, xErr(err)
}

func (b *Backend) FocusedWindow(ctx context.Context) (engine.WindowID, error) {
	return b.src.focused(ctx)
}

func (b *Backend) TopmostAt(ctx context.Context, p engine.Point) (engine.WindowID, error) {
	return b.src.topmostAt(ctx, p)
}

func (b *Backend) Raise(ctx context.Context, w engine.WindowID) error {
	return b.src.raise(ctx, w)
}

func (b *Backend) HasKey(name string) bool { return b.x.HasKeysym(name) }

func (b *Backend) Capture(ctx context.Context, w engine.WindowID) (*image.RGBA, error) {
	return b.src.capture(ctx, w)
}

// AskConsent shows the consent dialog and waits for the person's click.
func (b *Backend) AskConsent(ctx context.Context, req engine.ConsentRequest) (engine.ConsentAnswer, error) {
	dlg := xlib.ConsentDialog{Host: req.Host, Purpose: req.Purpose, Takeover: req.Takeover,
		ClipboardRead: req.ClipboardRead, DriverPressRecent: b.driverPressRecent}
	for _, a := range req.Apps {
		dlg.Apps = append(dlg.Apps, xlib.ConsentApp{Pid: a.Pid, Name: a.Name})
	}
	res, err := b.x.ShowConsent(ctx, dlg)
	if err != nil {
		return engine.ConsentAnswer{}, xErr(err)
	}
	return engine.ConsentAnswer{Allowed: res.Allowed, Pids: res.Pids, Takeover: res.Takeover, ClipboardRead: res.ClipboardRead}, nil
}

var _ engine.DocumentTextReader = (*Backend)(nil)

// ReadDocumentText reads a document's paragraphs page by page through its
// scroll bar (atspi/doctext.go).
func (b *Backend) ReadDocumentText(ctx context.Context, doc engine.ElementRef, scrollBar engine.ElementID, maxBytes int) (string, bool, error) {
	s, cut, err := b.a.DocumentText(ctx, atspiID(doc.ID), atspiID(scrollBar), maxBytes)
	return s, cut, atspiErr(err)
}
