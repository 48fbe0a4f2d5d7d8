//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include "nx_input.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// The hand-back input watcher reports the person's input during a takeover
// as it happens. It reads XInput 2 raw events, which every device sends to
// the root window whatever holds a grab or the focus, on a connection of its
// own: its goroutine only ever waits for X input, so nothing the driver's
// main connection is doing can hold up a report.

// maxRawBatch bounds one batch of events, so a flood of motion still yields
// a pointer position and hands events on regularly.
const maxRawBatch = 256

// InputWatcher is a running watcher. Its methods are safe from any
// goroutine.
type InputWatcher struct {
	sink  func(RawEvent)
	queue *rawQueue
	stop  chan struct{} // closed by Close
	done  chan struct{} // closed when the X goroutine has ended
	sent  chan struct{} // closed when the delivery goroutine has ended

	mu      sync.Mutex
	conn    *conn // nil once the X goroutine has closed it
	closing bool
	inSink  bool // the delivery goroutine is in a sink call
	closed  sync.Once
}

// WatchInput opens its own connection to display ("" means $DISPLAY),
// selects raw motion, key and button events of every master device and
// hands each to sink, in order, on a goroutine of the watcher's. The X side
// never waits for sink: events queue up meanwhile, none dropped except
// motions superseded by a later one. If the connection breaks, sink gets a
// last event of kind RawLost. A server
// without XInput 2.1 gives ErrNoXInput2.
func WatchInput(display string, sink func(RawEvent)) (*InputWatcher, error) {
	w := &InputWatcher{
		sink:  sink,
		queue: newRawQueue(),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
		sent:  make(chan struct{}),
	}
	ready := make(chan error, 1)
	go w.watch(display, ready)
	if err := <-ready; err != nil {
		<-w.done
		return nil, err
	}
	go w.deliver()
	return w, nil
}

// Close stops the watcher and closes its connection. Once it returns, sink
// is not called again and events not yet handed over are dropped. It waits
// for the watcher's goroutines to end, except when a sink call is in
// progress: that call (which may be the one calling Close, on the RawLost
// event for instance) finishes on its own and the delivery goroutine ends
// right after it. It is safe to call more than once, from any goroutine.
func (w *InputWatcher) Close() {
	w.closed.Do(func() {
		w.mu.Lock()
		w.closing = true
		if w.conn != nil {
			w.conn.wake()
		}
		w.mu.Unlock()
		close(w.stop)
	})
	<-w.done
	w.mu.Lock()
	busy := w.inSink
	w.mu.Unlock()
	if !busy {
		<-w.sent
	}
}

// watch owns the connection on its locked thread: it opens it, selects the
// events, then reads batches until Close or the connection's loss. The
// thread is never unlocked, so it ends with the goroutine.
func (w *InputWatcher) watch(display string, ready chan<- error) {
	runtime.LockOSThread()
	defer close(w.done)
	c, err := openConn(display)
	if err != nil {
		ready <- err
		return
	}
	var opcode, major, minor C.int
	xconn.ResetErrors()
	known := C.nx_xi_version(c.dpy, &opcode, &major, &minor) != 0
	if c.xerr(true) != nil || !known || !xinputEnough(int(major), int(minor)) {
		c.close()
		ready <- ErrNoXInput2
		return
	}
	root := C.nx_root(c.dpy)
	xconn.ResetErrors()
	C.nx_xi_select_raw(c.dpy, root)
	err = c.xerr(true)
	if err == nil && c.lost() {
		err = ErrDisplayLost
	}
	if err != nil {
		c.close()
		ready <- fmt.Errorf("xlib: selecting raw input events failed: %w", err)
		return
	}
	w.mu.Lock()
	w.conn = c
	w.mu.Unlock()
	ready <- nil

	w.read(c, opcode, root)

	w.mu.Lock()
	w.conn = nil
	lost := c.lost() && !w.closing
	w.mu.Unlock()
	if lost {
		w.queue.push(RawEvent{Kind: RawLost, Time: time.Now()})
	}
	c.close()
}

// read takes batches of events off the connection until Close or loss,
// waiting for input between them.
func (w *InputWatcher) read(c *conn, opcode C.int, root C.Window) {
	batch := make([]RawEvent, 0, maxRawBatch)
	for {
		w.mu.Lock()
		closing := w.closing
		w.mu.Unlock()
		if closing || c.lost() {
			return
		}
		batch = batch[:0]
		motion := false
		var raw C.nx_raw
		for len(batch) < maxRawBatch && C.nx_next_raw(c.c, opcode, &raw) == 1 {
			ev, ok := rawEvent(&raw)
			if !ok {
				continue
			}
			if ev.Kind == RawMotion {
				if n := len(batch); n > 0 && batch[n-1].Kind == RawMotion {
					continue
				}
				motion = true
			}
			batch = append(batch, ev)
		}
		if c.lost() {
			return
		}
		if len(batch) == 0 {
			// The queue and the socket were both empty a moment ago:
			// nothing read since, so waiting on the socket is safe.
			c.wait(-1)
			continue
		}
		now := time.Now()
		var x, y int
		if motion {
			x, y = queryPointer(c.dpy, root)
		}
		for _, ev := range batch {
			ev.Time = now
			if ev.Kind == RawMotion {
				ev.X, ev.Y = x, y
			}
			w.queue.push(ev)
		}
	}
}

// rawEvent converts a raw event the watcher reports.
func rawEvent(raw *C.nx_raw) (RawEvent, bool) {
	switch raw.kind {
	case C.XI_RawMotion:
		return RawEvent{Kind: RawMotion}, true
	case C.XI_RawKeyPress, C.XI_RawKeyRelease:
		ev := RawEvent{Kind: RawKeyPress}
		if raw.kind == C.XI_RawKeyRelease {
			ev.Kind = RawKeyRelease
		}
		ev.Keysym = xconn.KeysymName(uint64(raw.keysym))
		return ev, true
	case C.XI_RawButtonPress:
		return RawEvent{Kind: RawButtonPress, Button: int(raw.detail)}, true
	case C.XI_RawButtonRelease:
		return RawEvent{Kind: RawButtonRelease, Button: int(raw.detail)}, true
	}
	return RawEvent{}, false
}

// queryPointer reads the pointer's root position (one round trip).
func queryPointer(dpy *C.Display, root C.Window) (int, int) {
	var rootRet, child C.Window
	var rx, ry, wx, wy C.int
	var mask C.uint
	C.XQueryPointer(dpy, root, &rootRet, &child, &rx, &ry, &wx, &wy, &mask)
	return int(rx), int(ry)
}

// deliver hands queued events to sink in order until Close, or until the X
// goroutine has ended and everything it queued was delivered.
func (w *InputWatcher) deliver() {
	defer close(w.sent)
	for {
		var ended bool
		select {
		case <-w.stop:
			return
		case <-w.queue.signal:
		case <-w.done:
			ended = true
		}
		for _, ev := range w.queue.take() {
			if !w.call(ev) {
				return
			}
		}
		if ended {
			// The X goroutine queued its last event before it ended.
			return
		}
	}
}

// call hands one event to sink unless Close has begun, and reports whether
// it did.
func (w *InputWatcher) call(ev RawEvent) bool {
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		return false
	}
	w.inSink = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.inSink = false
		w.mu.Unlock()
	}()
	w.sink(ev)
	return true
}
