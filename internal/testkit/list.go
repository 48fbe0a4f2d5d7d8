package testkit

import "sync"

// List is a slice that goroutines append to while a test reads it: what a
// fake sink, host or audit log was handed, in order.
type List[T any] struct {
	mu    sync.Mutex
	items []T
}

// Add appends v.
func (l *List[T]) Add(v T) {
	l.mu.Lock()
	l.items = append(l.items, v)
	l.mu.Unlock()
}

// All returns a copy of what was added so far.
func (l *List[T]) All() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]T(nil), l.items...)
}

// Recorder is a List filled through Record: a fake for a sink that is
// handed values one at a time, such as the audit log (audit.Sink).
type Recorder[T any] struct{ List[T] }

// Record appends v.
func (r *Recorder[T]) Record(v T) { r.Add(v) }
