package testkit

import (
	"sync"
	"time"
)

// Clock is a clock that only a test moves (engine.Clock, for the rules
// about time: leases, buckets, how old a read may be), so those rules are
// tested without waiting.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock standing at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Since is the clock's time since t.
func (c *Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
