package testkit

import (
	"testing"
	"time"
)

// The waits here poll: a test waits for a condition it can observe from
// the outside, so a slow machine makes a test slower, never wrong. The
// timeout is a hang guard, far above what the condition normally takes;
// no test states how fast something must happen.

// pollStart and pollMax bound the pause between two checks of a condition:
// quick at first, then no busier than every pollMax.
const (
	pollStart = time.Millisecond
	pollMax   = 50 * time.Millisecond
)

// Poll checks cond until it holds or timeout passes, and reports whether it
// held. It is the one poll loop the tests share.
func Poll(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	pause := pollStart
	for {
		if cond() {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(min(pause, time.Until(deadline)+time.Millisecond))
		pause = min(2*pause, pollMax)
	}
}

// Eventually waits until cond holds, failing the test with what when it
// has not after timeout.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Poll(timeout, cond) {
		t.Fatalf("timed out after %v waiting until %s", timeout, what)
	}
}

// Await waits until get reports a value and returns it, failing the test
// with what (and the last error get gave, if any) after timeout.
func Await[T any](t testing.TB, timeout time.Duration, what string, get func() (T, error)) T {
	t.Helper()
	var v T
	var last error
	ok := Poll(timeout, func() bool {
		v, last = get()
		return last == nil
	})
	if !ok {
		t.Fatalf("timed out after %v waiting for %s: %v", timeout, what, last)
	}
	return v
}

// Returns runs fn and fails the test when it has not returned after bound,
// a hang guard for a call that must not block (on a lost connection, a stuck
// peer): a slow return passes, only a blocked one fails.
func Returns(t testing.TB, bound time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatalf("%s has not returned after %v", what, bound)
	}
}

// Receive returns the next value from ch, failing the test with what when
// none came within bound: a hang guard for the answer of a call running in
// the background.
func Receive[T any](t testing.TB, ch <-chan T, bound time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(bound):
		t.Fatalf("%s has not come after %v", what, bound)
		var zero T
		return zero
	}
}
