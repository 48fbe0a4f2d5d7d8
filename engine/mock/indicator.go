package mock

import (
	"context"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// IndicatorState is what the person sees of the takeover indicator.
type IndicatorState string

const (
	IndicatorNone   IndicatorState = "none"   // no indicator on screen
	IndicatorActive IndicatorState = "active" // the red frame and "AI takeover active"
	IndicatorPaused IndicatorState = "paused" // dimmed, with its Continue button
)

// indicatorEventBuffer bounds the events an indicator holds for the engine;
// the person cannot click faster than the engine reads.
const indicatorEventBuffer = 64

// indicator is one shown takeover indicator. Its fields are guarded by the
// desktop's mutex, and events are sent and the channel closed under it, so
// a send never meets a closed channel.
type indicator struct {
	d       *Desktop
	paused  bool
	lost    bool // destroyed by someone else (DestroyIndicator)
	removed bool // Remove called
	events  chan engine.IndicatorEvent
	placed  []engine.Rect // every Place target, in order
}

// ShowIndicator puts a takeover indicator on screen, active or already
// paused. With FailIndicator(true) it fails (backend_unavailable) and
// nothing is shown, so the engine must not grant the takeover.
func (d *Desktop) ShowIndicator(ctx context.Context, paused bool) (engine.Indicator, error) {
	var ind *indicator
	err := d.plainCall(Call{Method: "ShowIndicator"}, func() error {
		if d.failIndicator {
			return engine.Errf(engine.CodeBackendUnavailable, "the takeover indicator could not be shown")
		}
		ind = &indicator{d: d, paused: paused, events: make(chan engine.IndicatorEvent, indicatorEventBuffer)}
		d.indicators = append(d.indicators, ind)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ind, nil
}

// SetPaused switches between the active and the paused look. On a removed
// indicator it does nothing; on one destroyed from outside it fails with
// window_gone.
func (i *indicator) SetPaused(paused bool) error {
	i.d.mu.Lock()
	defer i.d.mu.Unlock()
	switch {
	case i.removed:
		return nil
	case i.lost:
		return engine.Errf(engine.CodeWindowGone, "the takeover indicator is gone")
	}
	i.paused = paused
	return nil
}

// Place records where the engine asked the label and Continue to go (the
// mock has one monitor, so nothing moves). On a removed or lost indicator
// it does nothing.
func (i *indicator) Place(target engine.Rect) error {
	i.d.mu.Lock()
	defer i.d.mu.Unlock()
	if i.onScreen() {
		i.placed = append(i.placed, target)
	}
	return nil
}

// IndicatorPlacements lists the Place targets of the newest indicator on
// screen, oldest first.
func (d *Desktop) IndicatorPlacements() []engine.Rect {
	d.mu.Lock()
	defer d.mu.Unlock()
	if i := d.current(); i != nil {
		return append([]engine.Rect(nil), i.placed...)
	}
	return nil
}

// Events reports Continue clicks and the indicator's loss; it is closed by
// Remove.
func (i *indicator) Events() <-chan engine.IndicatorEvent { return i.events }

// Remove takes the indicator off screen and closes Events; a second call
// does nothing.
func (i *indicator) Remove() {
	i.d.mu.Lock()
	defer i.d.mu.Unlock()
	if !i.removed {
		i.removed = true
		close(i.events)
	}
}

// emit sends an event without blocking. mu held.
func (i *indicator) emit(kind engine.IndicatorEventKind) {
	if i.removed {
		return
	}
	select {
	case i.events <- engine.IndicatorEvent{Kind: kind, At: time.Now()}:
	default:
	}
}

func (i *indicator) onScreen() bool { return !i.removed && !i.lost }

// current is the newest indicator on screen, or nil. mu held.
func (d *Desktop) current() *indicator {
	for k := len(d.indicators) - 1; k >= 0; k-- {
		if d.indicators[k].onScreen() {
			return d.indicators[k]
		}
	}
	return nil
}

// IndicatorState is the look of the newest indicator on screen.
func (d *Desktop) IndicatorState() IndicatorState {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch i := d.current(); {
	case i == nil:
		return IndicatorNone
	case i.paused:
		return IndicatorPaused
	default:
		return IndicatorActive
	}
}

// IndicatorsShown counts every indicator ShowIndicator ever put up.
func (d *Desktop) IndicatorsShown() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.indicators)
}

// ClickContinue is the person's real click on the paused indicator's
// Continue button: the newest indicator on screen reports
// IndicatorContinue if it is paused. It reports whether the click landed
// on a Continue button. The indicator stays paused until the engine calls
// SetPaused(false).
func (d *Desktop) ClickContinue() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := d.current()
	if i == nil || !i.paused {
		return false
	}
	i.emit(engine.IndicatorContinue)
	return true
}

// ClickContinueSynthetic models a click on Continue that does not count:
// the driver's own XTEST click (a button press the driver sent within the
// last 1.5 s) or a SendEvent. It never reports anything and returns false.
func (d *Desktop) ClickContinueSynthetic() bool { return false }

// DestroyIndicator models another X client unmapping or destroying the
// indicator: every indicator on screen reports IndicatorLost and leaves the
// screen. It reports whether there was one.
func (d *Desktop) DestroyIndicator() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	any := false
	for _, i := range d.indicators {
		if i.onScreen() {
			i.emit(engine.IndicatorLost)
			i.lost = true
			any = true
		}
	}
	return any
}

// FailIndicator makes ShowIndicator fail (true) or work again (false).
func (d *Desktop) FailIndicator(fail bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failIndicator = fail
}
