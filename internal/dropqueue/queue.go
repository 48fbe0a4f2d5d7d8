// Package dropqueue is a queue its senders never wait on: one goroutine
// takes the items in order, an item sent to a full or closed queue is
// dropped and counted, and Close waits a bounded time for what is queued.
// The audit log's records (engine/audit) and the control pipe's lines to
// the host (engine/control) each go through one: neither a slow disk nor a
// host that does not read may hold up the driver.
//
// It stands on the standard library alone, so the engine may use it.
package dropqueue

import (
	"sync"
	"sync/atomic"
	"time"
)

// Queue is a bounded queue of T and the goroutine that takes from it. Its
// methods are safe for concurrent use.
type Queue[T any] struct {
	items chan T
	done  chan struct{} // closed when the goroutine has returned

	mu     sync.RWMutex // guards closed against sends on a closed channel
	closed bool

	dropped atomic.Uint64
}

// Start makes a queue with room for n items and starts its goroutine,
// which calls run once: run takes the items in order until the channel is
// closed (Close), then returns.
func Start[T any](n int, run func(items <-chan T)) *Queue[T] {
	q := &Queue[T]{items: make(chan T, n), done: make(chan struct{})}
	go func() {
		defer close(q.done)
		run(q.items)
	}()
	return q
}

// Send queues v without waiting. It reports whether v was queued; when the
// queue is full or closed, v is dropped and counted.
func (q *Queue[T]) Send(v T) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if !q.closed {
		select {
		case q.items <- v:
			return true
		default:
		}
	}
	q.dropped.Add(1)
	return false
}

// SendBefore queues v, waiting for room until stop fires. It reports
// whether v was queued: false when the queue is closed or stop fired
// first. What it did not queue is not counted as dropped: it waited, so v
// is a marker its caller handles (a flush), not an item the queue lost.
func (q *Queue[T]) SendBefore(v T, stop <-chan time.Time) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return false
	}
	select {
	case q.items <- v:
		return true
	case <-stop:
		return false
	}
}

// Drop counts an item lost outside Send (one that could not be encoded,
// or that the goroutine could not deliver), so that Dropped counts every
// loss in one place.
func (q *Queue[T]) Drop() { q.dropped.Add(1) }

// Dropped is how many items were lost.
func (q *Queue[T]) Dropped() uint64 { return q.dropped.Load() }

// Close stops the queue taking items (a Send after it drops) and waits up
// to wait for the goroutine to take what is queued and return. It reports
// whether the goroutine returned in time. Calling it again only waits.
func (q *Queue[T]) Close(wait time.Duration) bool {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.items)
	}
	q.mu.Unlock()
	select {
	case <-q.done:
		return true
	case <-time.After(wait):
		return false
	}
}
