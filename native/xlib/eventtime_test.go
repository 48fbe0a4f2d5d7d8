//go:build cgo

package xlib

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestEventAtOn: an event's stamp, read against the monotonic clock, puts
// it back in time by how long it waited; a stamp from another clock
// (ahead of it, or more than maxEventLag behind) leaves the handling time.
func TestEventAtOn(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	cases := []struct {
		name        string
		stamp, mono uint32
		want        time.Time
	}{
		{"handled at once", 5000, 5000, now},
		{"waited 200 ms", 5000, 5200, now.Add(-200 * time.Millisecond)},
		{"waited 3 s on a loaded machine", 5000, 8000, now.Add(-3 * time.Second)},
		{"the clock wrapped since the stamp", 1<<32 - 100, 400, now.Add(-500 * time.Millisecond)},
		{"just within the longest wait", 0, uint32(maxEventLag / time.Millisecond), now.Add(-maxEventLag)},
		{"further behind than the longest wait: another clock", 0, uint32(maxEventLag/time.Millisecond) + 1, now},
		{"ahead of the clock: another clock", 9000, 5000, now},
	}
	for _, c := range cases {
		if got := eventAtOn(c.stamp, c.mono, now); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got.Sub(now), c.want.Sub(now))
		}
	}
}

// TestTheServerStampsOnTheMonotonicClock: the desktop's X server stamps
// events with this process's monotonic clock, so eventAt reads their age
// and does not fall back to the handling time. A server stamp is read from
// the PropertyNotify of a touched property (as the clipboard does).
func TestTheServerStampsOnTheMonotonicClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	k, err := openClip(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer k.close()
	stamp, err := k.timestamp(context.Background(), time.Now().Add(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	mono, ok := monotonicMillis()
	if !ok {
		t.Fatal("CLOCK_MONOTONIC cannot be read")
	}
	lag := time.Duration(mono-uint32(stamp)) * time.Millisecond
	t.Logf("the server's stamp is %v behind the monotonic clock", lag)
	if lag > maxEventLag {
		t.Fatalf("the server's stamp %d is not on the monotonic clock (%d ms now)", uint32(stamp), mono)
	}
}
