//go:build !cgo

package xlib

import (
	"context"
	"image"
)

// This file keeps the package's API in a binary built without cgo: Open
// fails with ErrNotBuilt, and so does every method.

// Display is the X display connection; without cgo it cannot be opened.
type Display struct{}

// Open reports that the X11 backend was not built.
func Open(display string) (*Display, error) { return nil, ErrNotBuilt }

func (d *Display) Close() error                       { return nil }
func (d *Display) Name() string                       { return "" }
func (d *Display) Lost() bool                         { return true }
func (d *Display) Extensions() Extensions             { return Extensions{} }
func (d *Display) Sync() error                        { return ErrNotBuilt }
func (d *Display) TopLevels() ([]Window, error)       { return nil, ErrNotBuilt }
func (d *Display) Describe(id uint64) (Window, error) { return Window{}, ErrNotBuilt }
func (d *Display) FocusedTopLevel() (uint64, error)   { return 0, ErrNotBuilt }
func (d *Display) Pointer() (x, y int, err error)     { return 0, 0, ErrNotBuilt }
func (d *Display) TopmostAt(x, y int, skip func(uint64) bool) (uint64, error) {
	return 0, ErrNotBuilt
}
func (d *Display) Raise(id uint64) error                   { return ErrNotBuilt }
func (d *Display) Capture(id uint64) (*image.RGBA, error)  { return nil, ErrNotBuilt }
func (d *Display) FakeMotion(x, y int) error               { return ErrNotBuilt }
func (d *Display) FakeButton(button int, press bool) error { return ErrNotBuilt }
func (d *Display) FakeKey(keysym string, press bool) error { return ErrNotBuilt }
func (d *Display) FakeChar(r rune, press bool) error       { return ErrNotBuilt }
func (d *Display) HasKeysym(name string) bool              { return false }
func (d *Display) SendChar(window uint64, r rune, press bool) error {
	return ErrNotBuilt
}
func (d *Display) CanSendChar(r rune) bool { return false }
func (d *Display) SendKey(window uint64, name string, press bool) error {
	return ErrNotBuilt
}
func (d *Display) CanSendKey(name string) bool { return false }
func (d *Display) SendFocusChange(window uint64, in bool) error {
	return ErrNotBuilt
}
func (d *Display) RootTextProperty(name string) (string, bool, error) {
	return "", false, ErrNotBuilt
}
func (d *Display) ShowConsent(ctx context.Context, dlg ConsentDialog) (ConsentResult, error) {
	return ConsentResult{}, ErrNotBuilt
}

// Indicator is the takeover indicator; without cgo it cannot be shown.
type Indicator struct{}

// ShowIndicator reports that the X11 backend was not built.
func ShowIndicator(display string, opts IndicatorOptions) (*Indicator, error) {
	return nil, ErrNotBuilt
}

func (ind *Indicator) Events() <-chan IndicatorEvent { return nil }
func (ind *Indicator) SetPaused(paused bool) error   { return ErrNotBuilt }
func (ind *Indicator) Place(target Rect) error       { return ErrNotBuilt }
func (ind *Indicator) Remove()                       {}

// InputWatcher is the hand-back input watcher; without cgo it cannot run.
type InputWatcher struct{}

// WatchInput reports that the X11 backend was not built.
func WatchInput(display string, sink func(RawEvent)) (*InputWatcher, error) {
	return nil, ErrNotBuilt
}

func (w *InputWatcher) Close() {}

// Monitors reports that the X11 backend was not built.
func (d *Display) Monitors() ([]Monitor, error) { return nil, ErrNotBuilt }
