package main

import (
	"context"
	"image"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// notBuilt is the Linux backend of a binary built without the native code.
// It is honest about it: the registry reports every part unavailable with
// the first real obstacle (no display, a Wayland session, no session bus,
// else not_built), and every desktop call fails with backend_unavailable.
type notBuilt struct {
	display string
	// silent: the display accepted a connection but never completed it
	// (xlib.ErrNoAnswer), so it counts as not answering.
	silent bool
	reason string // the x11 entry's reason, named in every failure
}

var _ engine.Backend = (*notBuilt)(nil)

func newNotBuilt(display string, silent bool) *notBuilt {
	b := &notBuilt{display: display, silent: silent, reason: doctor.ReasonNotBuilt}
	for _, e := range b.Registry(context.Background()).Backends {
		if e.ID == "x11" {
			b.reason = e.ReasonCode
		}
	}
	return b
}

func (b *notBuilt) err() error {
	return engine.Errf(engine.CodeBackendUnavailable, "the Linux desktop backend is unavailable (%s)", b.reason)
}

// Registry probes the environment afresh each time.
func (b *notBuilt) Registry(context.Context) engine.Registry {
	facts := doctor.GatherFacts(b.display, nil)
	if b.silent {
		facts.DisplayAnswers = false
	}
	return doctor.NotBuilt(facts)
}

func (b *notBuilt) Windows(context.Context) ([]engine.Window, error) { return nil, b.err() }
func (b *notBuilt) Process(context.Context, int) (engine.ProcessIdentity, error) {
	return engine.ProcessIdentity{}, b.err()
}
func (b *notBuilt) ReadTree(context.Context, engine.WindowID, engine.Budget) (*engine.Tree, error) {
	return nil, b.err()
}
func (b *notBuilt) ReadText(context.Context, engine.ElementRef, int) (string, bool, error) {
	return "", false, b.err()
}
func (b *notBuilt) ReadValue(context.Context, engine.ElementRef) (engine.Readback, error) {
	return engine.Readback{}, b.err()
}
func (b *notBuilt) DoAction(context.Context, engine.ElementRef, string) error   { return b.err() }
func (b *notBuilt) InsertText(context.Context, engine.ElementRef, string) error { return b.err() }
func (b *notBuilt) SetText(context.Context, engine.ElementRef, string) error    { return b.err() }
func (b *notBuilt) SetNumber(context.Context, engine.ElementRef, float64) error { return b.err() }
func (b *notBuilt) Send(context.Context, engine.InputEvent) error               { return b.err() }
func (b *notBuilt) Pointer(context.Context) (engine.Point, error)               { return engine.Point{}, b.err() }
func (b *notBuilt) FocusedWindow(context.Context) (engine.WindowID, error)      { return 0, b.err() }
func (b *notBuilt) TopmostAt(context.Context, engine.Point) (engine.WindowID, error) {
	return 0, b.err()
}
func (b *notBuilt) Raise(context.Context, engine.WindowID) error { return b.err() }
func (b *notBuilt) HasKey(string) bool                           { return false }
func (b *notBuilt) Capture(context.Context, engine.WindowID) (*image.RGBA, error) {
	return nil, b.err()
}
func (b *notBuilt) ClipboardRead(context.Context) (string, error) { return "", b.err() }
func (b *notBuilt) ClipboardWrite(context.Context, string) (func(), error) {
	return nil, b.err()
}
func (b *notBuilt) AskConsent(context.Context, engine.ConsentRequest) (engine.ConsentAnswer, error) {
	return engine.ConsentAnswer{}, b.err()
}
func (b *notBuilt) ShowIndicator(context.Context, bool) (engine.Indicator, error) {
	return nil, b.err()
}
func (b *notBuilt) WatchInput(context.Context, func(engine.RawInput)) error { return b.err() }
