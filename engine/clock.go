package engine

import "time"

// Clock is the engine's time source for the times its rules are about, so
// tests can move them without waiting: the lease, the act and capture
// buckets, how old a snapshot may be and still be reused, the hand-back
// rules (the driver's own press within 1.5 s, the Continue click's late
// press, which raw events came before a resume) and at_ms.
//
// Waiting on an app or the display stays in real time, whatever the clock:
// the settle loop (an app goes quiet in real milliseconds, and a fake clock
// that stood still would never see it quiet), the pacing of typed keys, and
// every bound on a backend call (a context with a timeout). ActTrace's
// figures measure real time too.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	// AfterFunc runs f in its own goroutine once the clock has moved on
	// by d (at once when d <= 0) and returns a stop, which reports whether
	// it kept f from running. The lease's end is such a time.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) Now() time.Time                  { return time.Now() }
func (realClock) Since(t time.Time) time.Duration { return time.Since(t) }
func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
