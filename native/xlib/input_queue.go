package xlib

import "sync"

// rawQueue carries events from a watcher's X goroutine to its delivery
// goroutine. It never blocks the sender and never drops a key or button
// event; a motion queued right behind another motion replaces it, so a
// slow sink sees fewer motions, each with the latest position.
type rawQueue struct {
	mu     sync.Mutex
	items  []RawEvent
	signal chan struct{} // holds a token while items may be waiting
}

func newRawQueue() *rawQueue {
	return &rawQueue{signal: make(chan struct{}, 1)}
}

// push queues ev and wakes the delivery goroutine.
func (q *rawQueue) push(ev RawEvent) {
	q.mu.Lock()
	if n := len(q.items); ev.Kind == RawMotion && n > 0 && q.items[n-1].Kind == RawMotion {
		q.items[n-1] = ev
	} else {
		q.items = append(q.items, ev)
	}
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// take removes and returns everything queued.
func (q *rawQueue) take() []RawEvent {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = nil
	return items
}
