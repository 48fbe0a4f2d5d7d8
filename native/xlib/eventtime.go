//go:build cgo

package xlib

import (
	"time"

	"golang.org/x/sys/unix"
)

// When an input event happened. The gates that tell the person's clicks
// from the driver's own (clickGate) judge a press by when it happened, not
// by when this process got to it: on a loaded machine the two can lie
// seconds apart, and a press judged by its handling could take the
// driver's own click on Continue, handled late, for the person's.
//
// A local X server (Xorg, Xvfb, Xwayland) stamps each event with its
// GetTimeInMillis, milliseconds of CLOCK_MONOTONIC, the clock this process
// reads too: the stamp's distance from that clock now is how long ago the
// event happened. A stamp that is ahead of the clock or further behind it
// than maxEventLag is from a server with another clock, and the event is
// judged by its handling, as before.

// maxEventLag is the longest an event may have waited for this process.
const maxEventLag = time.Minute

// eventAt is when an X event stamped stamp happened, on the clock of now.
func eventAt(stamp uint32, now time.Time) time.Time {
	mono, ok := monotonicMillis()
	if !ok {
		return now
	}
	return eventAtOn(stamp, mono, now)
}

// eventAtOn is eventAt with the monotonic clock read as mono.
func eventAtOn(stamp, mono uint32, now time.Time) time.Time {
	// X time wraps every 49.7 days; the difference wraps with it.
	lag := time.Duration(mono-stamp) * time.Millisecond
	if lag > maxEventLag {
		return now
	}
	return now.Add(-lag)
}

// monotonicMillis reads CLOCK_MONOTONIC in milliseconds, cut to X's 32
// bits.
func monotonicMillis() (uint32, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		return 0, false
	}
	return uint32(ts.Sec*1000 + ts.Nsec/int64(time.Millisecond)), true
}
