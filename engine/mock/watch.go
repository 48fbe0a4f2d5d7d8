package mock

import (
	"context"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// watcher is one WatchInput registration. Events queue in order and a
// goroutine per watcher hands them to the sink, so a slow sink never
// blocks the desktop and never sees events out of order.
type watcher struct {
	ctx       context.Context
	sink      func(engine.RawInput)
	queue     []engine.RawInput
	wake      chan struct{}
	queued    int
	delivered int
	done      bool
}

// WatchInput reports every raw input event, the driver's own (Send) and
// the person's (MovePointer, PressKey, PressButton, Input) alike, to sink
// until ctx ends. It returns at once; the sink is called from another
// goroutine, one event at a time, in the order the events happened, and
// never after ctx has ended.
func (d *Desktop) WatchInput(ctx context.Context, sink func(engine.RawInput)) error {
	return d.plainCall(Call{Method: "WatchInput"}, func() error {
		if ctx.Err() != nil {
			return nil
		}
		w := &watcher{ctx: ctx, sink: sink, wake: make(chan struct{}, 1)}
		d.watchers[w] = struct{}{}
		go d.runWatcher(w)
		return nil
	})
}

func (d *Desktop) runWatcher(w *watcher) {
	for {
		select {
		case <-w.ctx.Done():
			d.mu.Lock()
			delete(d.watchers, w)
			w.done, w.queue = true, nil
			d.changed.Broadcast()
			d.mu.Unlock()
			return
		case <-w.wake:
		}
		for w.ctx.Err() == nil {
			d.mu.Lock()
			if len(w.queue) == 0 {
				d.mu.Unlock()
				break
			}
			ev := w.queue[0]
			w.queue = w.queue[1:]
			d.mu.Unlock()
			w.sink(ev)
			d.mu.Lock()
			w.delivered++
			d.changed.Broadcast()
			d.mu.Unlock()
		}
	}
}

// broadcast queues a raw event for every watcher. mu held.
func (d *Desktop) broadcast(ev engine.RawInput) {
	for w := range d.watchers {
		w.queue = append(w.queue, ev)
		w.queued++
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// WaitInput blocks until every watcher has been handed every event sent so
// far (or has stopped), or until timeout; it reports whether they caught up.
func (d *Desktop) WaitInput(timeout time.Duration) bool {
	return d.waitUntil(timeout, func() bool {
		for w := range d.watchers {
			if !w.done && w.delivered < w.queued {
				return false
			}
		}
		return true
	})
}

// Watchers is the number of active WatchInput registrations.
func (d *Desktop) Watchers() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.watchers)
}

// The person's own input. It acts on the desktop as Send does (typing into
// the focused field, clicking what is under the pointer) and reaches the
// watchers, but it is not in Sent: the engine tells it apart by its absence
// from the engine's send log.

// MovePointer moves the pointer as the person's mouse would.
func (d *Desktop) MovePointer(p engine.Point) {
	d.Input(engine.RawInput{Kind: engine.InputMotion, At: p})
}

// PressKey presses and releases a key (a keysym name) as the person.
func (d *Desktop) PressKey(name string) {
	d.Input(engine.RawInput{Kind: engine.InputKeyPress, Key: name})
	d.Input(engine.RawInput{Kind: engine.InputKeyRelease, Key: name})
}

// PressButton presses and releases a mouse button where the pointer is, as
// the person.
func (d *Desktop) PressButton(button int) {
	d.Input(engine.RawInput{Kind: engine.InputButtonPress, Button: button})
	d.Input(engine.RawInput{Kind: engine.InputButtonRelease, Button: button})
}

// Input injects one raw event of the person's (Time is set to now).
func (d *Desktop) Input(ev engine.RawInput) {
	d.mu.Lock()
	ev.Time = time.Now()
	run := d.applyInput(&ev)
	d.person = append(d.person, ev)
	d.broadcast(ev)
	d.mu.Unlock()
	for _, f := range run {
		f()
	}
}

// PersonInput returns the person's events so far, oldest first.
func (d *Desktop) PersonInput() []engine.RawInput {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]engine.RawInput(nil), d.person...)
}
