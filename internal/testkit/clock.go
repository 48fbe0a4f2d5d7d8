package testkit

import (
	"sync"
	"time"
)

// Clock is a clock that only a test moves (engine.Clock, for the rules
// about time: leases, buckets, how old a read may be), so those rules are
// tested without waiting.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[int]clockTimer
	next   int
}

// clockTimer is a function due when the clock reaches at.
type clockTimer struct {
	at time.Time
	f  func()
}

// NewClock returns a clock standing at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start, timers: map[int]clockTimer{}} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Since is the clock's time since t.
func (c *Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Advance moves the clock on by d and starts every function that is due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for id, tm := range c.timers {
		if !tm.at.After(c.now) {
			due = append(due, tm.f)
			delete(c.timers, id)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		go f()
	}
}

// AfterFunc runs f once Advance has moved the clock on by d (at once when
// d <= 0), in its own goroutine; stop keeps it from running.
func (c *Clock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timers == nil {
		c.timers = map[int]clockTimer{}
	}
	c.next++
	id := c.next
	c.timers[id] = clockTimer{at: c.now.Add(d), f: f}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, pending := c.timers[id]
		delete(c.timers, id)
		return pending
	}
}
