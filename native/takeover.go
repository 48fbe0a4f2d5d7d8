package native

import (
	"context"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The takeover on the real desktop: the indicator (native/xlib's red frame
// and label, on a connection of its own) and the hand-back watcher
// (XInput 2 raw events, on another). The engine holds the rules; this file
// connects the two X parts to it and translates the watcher's events into
// the engine's terms (takeover_echo.go).

var (
	_ engine.OwnInputNoter   = (*Backend)(nil)
	_ engine.IndicatorPlacer = (*indicator)(nil)
)

// takeoverParts is a backend's takeover state.
type takeoverParts struct {
	echoes echoLog

	mu         sync.Mutex
	indicators map[*indicator]bool // shown and not yet removed
	kill       killSwitchState
}

func (b *Backend) takeover() *takeoverParts { return b.tk }

// ShowIndicator shows the takeover indicator on a connection of its own.
// Without it (no Shape extension, no font, no display) there is no
// takeover.
func (b *Backend) ShowIndicator(ctx context.Context, paused bool) (engine.Indicator, error) {
	x, err := xlib.ShowIndicator(b.x.Name(), xlib.IndicatorOptions{Paused: paused, DriverPressRecent: b.driverPressRecent})
	if err != nil {
		return nil, engine.Wrap(engine.CodeBackendUnavailable, err, "the takeover indicator could not be shown")
	}
	parts := b.takeover()
	ind := &indicator{x: x, parts: parts, events: make(chan engine.IndicatorEvent, 16), lost: make(chan struct{})}
	parts.mu.Lock()
	parts.indicators[ind] = true
	parts.mu.Unlock()
	go ind.forward()
	return ind, nil
}

// WatchInput reports raw input (the person's and the driver's own) in the
// engine's terms until ctx ends. A watcher whose connection breaks can no
// longer see the person take over, so it ends every takeover the way a lost
// indicator does.
func (b *Backend) WatchInput(ctx context.Context, sink func(engine.RawInput)) error {
	parts := b.takeover()
	w, err := xlib.WatchInput(b.x.Name(), func(raw xlib.RawEvent) {
		if raw.Kind == xlib.RawLost {
			parts.loseIndicators()
			return
		}
		if in, ok := parts.echoes.translate(raw, time.Now()); ok {
			sink(in)
		}
	})
	if err != nil {
		return engine.Wrap(engine.CodeBackendUnavailable, err, "the input watcher could not start")
	}
	go func() {
		<-ctx.Done()
		w.Close()
	}()
	return nil
}

// NoteOwnInput is told each press and pointer target right before the
// engine sends it, so their raw echoes can be told for the driver's own.
func (b *Backend) NoteOwnInput(ev engine.InputEvent) {
	parts := b.takeover()
	now := time.Now()
	switch ev.Kind {
	case engine.InputMotion:
		parts.echoes.noteMotion(ev.At, now)
	case engine.InputKeyPress:
		echo, err := b.x.KeyEcho(ev.Key, ev.Char)
		if err != nil {
			return // the press itself will fail the same way
		}
		parts.echoes.noteKey(ev, echo, now)
	}
}

// removeIndicators takes down every indicator still up (Backend.Close: the
// person must never be left with a frame nothing stands behind).
func (p *takeoverParts) removeIndicators() {
	for _, ind := range p.shown() {
		ind.Remove()
	}
}

// loseIndicators reports every shown indicator lost.
func (p *takeoverParts) loseIndicators() {
	for _, ind := range p.shown() {
		ind.lose()
	}
}

// shown lists the indicators shown and not yet removed.
func (p *takeoverParts) shown() []*indicator {
	p.mu.Lock()
	defer p.mu.Unlock()
	inds := make([]*indicator, 0, len(p.indicators))
	for ind := range p.indicators {
		inds = append(inds, ind)
	}
	return inds
}

// indicator is the engine's view of an xlib.Indicator: its events with
// their time, and a loss the backend can report for it.
type indicator struct {
	x      *xlib.Indicator
	parts  *takeoverParts
	events chan engine.IndicatorEvent
	lost   chan struct{}
	once   sync.Once
}

func (ind *indicator) SetPaused(paused bool) error {
	return xErr(ind.x.SetPaused(paused))
}

func (ind *indicator) Events() <-chan engine.IndicatorEvent { return ind.events }

// Place puts the label and Continue on the monitor holding most of target.
func (ind *indicator) Place(target engine.Rect) error {
	return xErr(ind.x.Place(xlib.Rect{X: target.X, Y: target.Y, W: target.W, H: target.H}))
}

// Remove takes the indicator off screen (its windows are gone when it
// returns) and closes Events.
func (ind *indicator) Remove() {
	ind.x.Remove()
	ind.parts.mu.Lock()
	delete(ind.parts.indicators, ind)
	ind.parts.mu.Unlock()
}

func (ind *indicator) lose() { ind.once.Do(func() { close(ind.lost) }) }

// forward passes the xlib indicator's events on until Remove closes them,
// adding a loss the backend reports.
func (ind *indicator) forward() {
	defer close(ind.events)
	src := ind.x.Events()
	lost := ind.lost
	for {
		select {
		case ev, ok := <-src:
			if !ok {
				return
			}
			kind := engine.IndicatorContinue
			if ev.Kind == xlib.IndicatorLost {
				kind = engine.IndicatorLost
			}
			ind.events <- engine.IndicatorEvent{Kind: kind, At: time.Now()}
		case <-lost:
			lost = nil
			ind.events <- engine.IndicatorEvent{Kind: engine.IndicatorLost, At: time.Now()}
		}
	}
}
