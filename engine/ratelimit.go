package engine

import (
	"sync"
	"time"
)

// Rate limits. Acts: a burst of 20, refilled at 10 a second, so a runaway
// model cannot flood an app, while a person-paced plan never meets it.
// Captures: 5 a second (docs/contract.md#rate-limits).
const (
	actBurst     = 20
	actRate      = 10.0
	captureBurst = 5
	captureRate  = 5.0
)

// tokenBucket is a plain token bucket on the engine's clock.
type tokenBucket struct {
	mu     sync.Mutex
	clock  Clock
	tokens float64
	burst  float64
	rate   float64 // per second
	last   time.Time
}

func newTokenBucket(c Clock, burst int, rate float64) *tokenBucket {
	return &tokenBucket{clock: c, tokens: float64(burst), burst: float64(burst), rate: rate, last: c.Now()}
}

// take spends one token, or reports false when none is left.
func (b *tokenBucket) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	b.tokens += now.Sub(b.last).Seconds() * b.rate
	if b.tokens > b.burst {
		b.tokens = b.burst
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
