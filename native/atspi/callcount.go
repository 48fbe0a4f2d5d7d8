package atspi

import (
	"sync"
	"sync/atomic"
)

// callCounts counts the calls sent to chosen apps, so a test can hold the
// driver to how often it asks an app (a stopped one: silent.go) by count,
// not by time. Nothing is counted until a test asks (CountCalls): a send
// then costs one atomic load.
type callCounts struct {
	armed atomic.Int32
	m     sync.Map // bus name → *atomic.Int64
}

// sent counts one call to dest, the destination as the caller named it
// (an app's bus name, also on its private connection).
func (cc *callCounts) sent(dest string) {
	if cc == nil || cc.armed.Load() == 0 {
		return
	}
	if n, ok := cc.m.Load(dest); ok {
		n.(*atomic.Int64).Add(1)
	}
}

// CountCalls counts the calls this client sends to the app with bus name
// bus from now on, on the bus and on the app's private connection, until
// stop. For tests and measurements.
func (c *Client) CountCalls(bus string) (count func() int, stop func()) {
	n := new(atomic.Int64)
	c.counts.m.Store(bus, n)
	c.counts.armed.Add(1)
	var once sync.Once
	return func() int { return int(n.Load()) }, func() {
		once.Do(func() {
			c.counts.m.CompareAndDelete(bus, n)
			c.counts.armed.Add(-1)
		})
	}
}
