package main

import (
	"context"
	"errors"
	"image"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// unavailableLinux is the Linux backend when the native one cannot start:
// the binary was built without it (no cgo), or it could not open the
// display (none, Wayland, a remote one, one that never answers). It is
// honest about it: the registry reports every part unavailable with the
// first real obstacle (not_built only for a binary without the backend)
// and the backend's own cause, and every desktop call fails with
// backend_unavailable naming that obstacle.
type unavailableLinux struct {
	display string
	// cause is why native.Open failed; it stays with every failure (for
	// logs and tests, never shown to a model) and in the doctor's probe.
	cause error
	// built: the binary holds the native backend (the cause is not
	// xlib.ErrNotBuilt).
	built bool
	// silent: the display accepted a connection but never completed it
	// (xlib.ErrNoAnswer), so it counts as not answering.
	silent bool
	reason string // the x11 entry's reason, named in every failure
}

var _ engine.Backend = (*unavailableLinux)(nil)

func newUnavailableLinux(display string, cause error) *unavailableLinux {
	b := &unavailableLinux{display: display, cause: cause, built: !errors.Is(cause, xlib.ErrNotBuilt),
		silent: errors.Is(cause, xlib.ErrNoAnswer), reason: doctor.ReasonNotBuilt}
	for _, e := range b.Registry(context.Background()).Backends {
		if e.ID == "x11" {
			b.reason = e.ReasonCode
		}
	}
	return b
}

func (b *unavailableLinux) err() error {
	return engine.Wrap(engine.CodeBackendUnavailable, b.cause, "the Linux desktop backend is unavailable (%s)", b.reason)
}

// Registry probes the environment afresh each time.
func (b *unavailableLinux) Registry(context.Context) engine.Registry {
	facts := doctor.GatherFacts(b.display, nil)
	if b.silent {
		facts.DisplayAnswers = false
	}
	facts.Built = b.built
	if b.built && b.cause != nil {
		facts.Cause = b.cause.Error()
	}
	return doctor.Unavailable(facts)
}

func (b *unavailableLinux) Windows(context.Context) ([]engine.Window, error) { return nil, b.err() }
func (b *unavailableLinux) Process(context.Context, int) (engine.ProcessIdentity, error) {
	return engine.ProcessIdentity{}, b.err()
}
func (b *unavailableLinux) ReadTree(context.Context, engine.WindowID, engine.Budget) (*engine.Tree, error) {
	return nil, b.err()
}
func (b *unavailableLinux) ReadText(context.Context, engine.ElementRef, int) (string, bool, error) {
	return "", false, b.err()
}
func (b *unavailableLinux) ReadValue(context.Context, engine.ElementRef) (engine.Readback, error) {
	return engine.Readback{}, b.err()
}
func (b *unavailableLinux) DoAction(context.Context, engine.ElementRef, string) error { return b.err() }
func (b *unavailableLinux) InsertText(context.Context, engine.ElementRef, string) error {
	return b.err()
}
func (b *unavailableLinux) SetText(context.Context, engine.ElementRef, string) error { return b.err() }
func (b *unavailableLinux) SetNumber(context.Context, engine.ElementRef, float64) error {
	return b.err()
}
func (b *unavailableLinux) Send(context.Context, engine.InputEvent) error { return b.err() }
func (b *unavailableLinux) Pointer(context.Context) (engine.Point, error) {
	return engine.Point{}, b.err()
}
func (b *unavailableLinux) FocusedWindow(context.Context) (engine.WindowID, error) { return 0, b.err() }
func (b *unavailableLinux) TopmostAt(context.Context, engine.Point) (engine.WindowID, error) {
	return 0, b.err()
}
func (b *unavailableLinux) Raise(context.Context, engine.WindowID) error { return b.err() }
func (b *unavailableLinux) HasKey(string) bool                           { return false }
func (b *unavailableLinux) Capture(context.Context, engine.WindowID) (*image.RGBA, error) {
	return nil, b.err()
}
func (b *unavailableLinux) ClipboardRead(context.Context) (string, error) { return "", b.err() }
func (b *unavailableLinux) ClipboardWrite(context.Context, string) (func(), error) {
	return nil, b.err()
}
func (b *unavailableLinux) AskConsent(context.Context, engine.ConsentRequest) (engine.ConsentAnswer, error) {
	return engine.ConsentAnswer{}, b.err()
}
func (b *unavailableLinux) ShowIndicator(context.Context, bool) (engine.Indicator, error) {
	return nil, b.err()
}
func (b *unavailableLinux) WatchInput(context.Context, func(engine.RawInput)) error { return b.err() }
