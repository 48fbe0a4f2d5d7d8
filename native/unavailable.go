package native

import (
	"context"
	"errors"
	"image"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// OpenOrUnavailable is the Linux backend the driver runs on: the live one
// when the display opens, else the Unavailable one, which keeps why. It
// never fails, so the driver always starts and can say what is wrong. The
// returned func releases the backend.
func OpenOrUnavailable(opts Options) (engine.Backend, func()) {
	b, err := Open(opts)
	if err != nil {
		u := NewUnavailable(opts, err)
		return u, u.Close
	}
	return b, b.Close
}

// Unavailable is the Linux backend when the live one cannot start: the
// binary was built without it (no cgo), or it could not open the display
// (none, Wayland, a remote one, one that accepts the connection and never
// answers). It is honest about it: its registry reports every part
// unavailable with the first real obstacle (unavailable_registry.go) and
// the cause, and every desktop call fails with backend_unavailable naming
// that obstacle.
type Unavailable struct {
	opts Options
	// cause is why the live backend did not start; it stays with every
	// failure (for logs and tests, never shown to a model) and in the
	// doctor's probe.
	cause error
	// built: the binary holds the live backend (the cause is not
	// xlib.ErrNotBuilt).
	built bool
	// silent: the display accepted a connection but never completed it
	// (xlib.ErrNoAnswer), so it counts as not answering.
	silent bool
	reason string // the x11 entry's reason, named in every failure
}

var _ engine.Backend = (*Unavailable)(nil)

// NewUnavailable is the backend for opts whose live backend failed to open
// with cause.
func NewUnavailable(opts Options, cause error) *Unavailable {
	b := &Unavailable{opts: opts, cause: cause, built: !errors.Is(cause, xlib.ErrNotBuilt),
		silent: errors.Is(cause, xlib.ErrNoAnswer)}
	for _, e := range b.Registry(context.Background()).Backends {
		if e.ID == engine.PartX11 {
			b.reason = e.ReasonCode
		}
	}
	return b
}

// Close releases nothing: the backend holds no connection.
func (b *Unavailable) Close() {}

func (b *Unavailable) err() error {
	return engine.Wrap(engine.CodeBackendUnavailable, b.cause, "the Linux desktop backend is unavailable (%s)", b.reason)
}

// Registry looks at the environment afresh each time: the display or the
// bus may have come up since, and the doctor should say so.
func (b *Unavailable) Registry(context.Context) engine.Registry {
	facts := gatherFacts(b.opts.Display, b.opts.Getenv)
	if b.silent {
		facts.DisplayAnswers = false
	}
	facts.Built = b.built
	if b.built && b.cause != nil {
		facts.Cause = b.cause.Error()
	}
	return unavailableRegistry(facts)
}

func (b *Unavailable) Windows(context.Context) ([]engine.Window, error) { return nil, b.err() }
func (b *Unavailable) WindowsWithoutNames(context.Context) ([]engine.Window, error) {
	return nil, b.err()
}
func (b *Unavailable) Process(context.Context, int) (engine.ProcessIdentity, error) {
	return engine.ProcessIdentity{}, b.err()
}
func (b *Unavailable) ReadTree(context.Context, engine.WindowID, engine.Budget) (*engine.Tree, error) {
	return nil, b.err()
}
func (b *Unavailable) ReadText(context.Context, engine.ElementRef, int) (string, bool, error) {
	return "", false, b.err()
}
func (b *Unavailable) ReadValue(context.Context, engine.ElementRef, int) (engine.Readback, error) {
	return engine.Readback{}, b.err()
}
func (b *Unavailable) ReadStructure(context.Context, engine.WindowID, engine.Budget) (*engine.Tree, error) {
	return nil, b.err()
}
func (b *Unavailable) ReadDetails(context.Context, engine.WindowID, []*engine.Node) error {
	return b.err()
}
func (b *Unavailable) ReadActions(context.Context, engine.WindowID, []*engine.Node) error {
	return b.err()
}
func (b *Unavailable) ReadFrames(context.Context, engine.WindowID, []*engine.Node) error {
	return b.err()
}
func (b *Unavailable) ReadField(context.Context, engine.ElementRef, int) (engine.Field, error) {
	return engine.Field{}, b.err()
}
func (b *Unavailable) ReadTextAt(context.Context, engine.ElementRef, int, int) (engine.Readback, error) {
	return engine.Readback{}, b.err()
}
func (b *Unavailable) ReadDocumentText(context.Context, engine.ElementRef, engine.ElementID, int) (string, bool, error) {
	return "", false, b.err()
}
func (b *Unavailable) MarkChanges(context.Context, engine.WindowID) (engine.ChangeMark, error) {
	return 0, b.err()
}
func (b *Unavailable) WaitQuiet(context.Context, engine.WindowID, engine.ChangeMark, time.Duration, time.Duration) (bool, bool, time.Time, error) {
	return false, false, time.Time{}, b.err()
}

// CurrentMark and ChangesSince say the backend hears no app, as they do
// for an app the live backend is not listening to.
func (b *Unavailable) CurrentMark(engine.WindowID) (engine.ChangeMark, bool) { return 0, false }
func (b *Unavailable) ChangesSince(engine.WindowID, engine.ChangeMark) ([]engine.Change, bool) {
	return nil, false
}
func (b *Unavailable) Refresh(context.Context, []*engine.Node) error { return b.err() }
func (b *Unavailable) WaitChange(context.Context, engine.WindowID, engine.ChangeMark, time.Duration) (bool, error) {
	return false, b.err()
}
func (b *Unavailable) ReadSubtree(context.Context, engine.WindowID, engine.ElementID, engine.Budget) (*engine.Tree, error) {
	return nil, b.err()
}
func (b *Unavailable) EnableAccessibility(context.Context) (bool, error) { return false, b.err() }
func (b *Unavailable) WindowAccessibility(context.Context, engine.WindowID) (engine.WindowAccessibility, error) {
	return engine.WindowAccessibility{}, b.err()
}
func (b *Unavailable) DoAction(context.Context, engine.ElementRef, string) error { return b.err() }
func (b *Unavailable) InsertText(context.Context, engine.ElementRef, string) (int, error) {
	return 0, b.err()
}
func (b *Unavailable) SetText(context.Context, engine.ElementRef, string) error { return b.err() }
func (b *Unavailable) SetNumber(context.Context, engine.ElementRef, float64) error {
	return b.err()
}
func (b *Unavailable) ScrollIntoView(context.Context, engine.ElementRef, engine.ScrollHint) error {
	return b.err()
}
func (b *Unavailable) Send(context.Context, engine.InputEvent) error { return b.err() }
func (b *Unavailable) Pointer(context.Context) (engine.Point, error) {
	return engine.Point{}, b.err()
}
func (b *Unavailable) FocusedWindow(context.Context) (engine.WindowID, error) { return 0, b.err() }
func (b *Unavailable) TopmostAt(context.Context, engine.Point) (engine.WindowID, error) {
	return 0, b.err()
}
func (b *Unavailable) Raise(context.Context, engine.WindowID) error { return b.err() }
func (b *Unavailable) HasKey(string) bool                           { return false }
func (b *Unavailable) Capture(context.Context, engine.WindowID) (*image.RGBA, error) {
	return nil, b.err()
}
func (b *Unavailable) ClipboardRead(context.Context) (string, error) { return "", b.err() }
func (b *Unavailable) ClipboardWrite(context.Context, string) (func(), error) {
	return nil, b.err()
}
func (b *Unavailable) AskConsent(context.Context, engine.ConsentRequest) (engine.ConsentAnswer, error) {
	return engine.ConsentAnswer{}, b.err()
}
func (b *Unavailable) ShowIndicator(context.Context, bool) (engine.Indicator, error) {
	return nil, b.err()
}
func (b *Unavailable) WatchInput(context.Context, func(engine.RawInput)) error { return b.err() }
