package dropqueue

import (
	"slices"
	"testing"
	"time"
)

// gated starts a queue of n ints whose goroutine takes nothing until open
// is closed, and then collects what it takes into the returned slice
// (read it once Close returned true).
func gated(n int) (q *Queue[int], open chan struct{}, taken *[]int) {
	open = make(chan struct{})
	taken = new([]int)
	q = Start(n, func(items <-chan int) {
		<-open
		for v := range items {
			*taken = append(*taken, v)
		}
	})
	return q, open, taken
}

// A send to a queue with room is queued; one to a full or closed queue is
// dropped and counted; what was queued is taken in order before Close
// returns.
func TestSendQueuesOrDrops(t *testing.T) {
	q, open, taken := gated(2)
	steps := []struct {
		name   string
		v      int
		queued bool
	}{
		{"first, room", 1, true},
		{"second, room", 2, true},
		{"third, full", 3, false},
		{"fourth, full", 4, false},
	}
	for i, s := range steps {
		if got := q.Send(s.v); got != s.queued {
			t.Fatalf("%s: Send = %v, want %v", s.name, got, s.queued)
		}
		if want := uint64(i + 1 - min(i+1, 2)); q.Dropped() != want {
			t.Fatalf("%s: Dropped = %d, want %d", s.name, q.Dropped(), want)
		}
	}
	close(open)
	if !q.Close(time.Minute) {
		t.Fatal("Close: the goroutine did not return")
	}
	if !slices.Equal(*taken, []int{1, 2}) {
		t.Fatalf("taken %v, want [1 2]", *taken)
	}
	if q.Send(5) || q.Dropped() != 3 {
		t.Fatalf("a send after Close was not dropped (Dropped = %d, want 3)", q.Dropped())
	}
	if !q.Close(time.Minute) {
		t.Fatal("a second Close did not report the goroutine returned")
	}
}

// SendBefore waits for room until its stop fires, and counts nothing it
// did not queue.
func TestSendBefore(t *testing.T) {
	q, open, taken := gated(1)
	if !q.SendBefore(1, nil) {
		t.Fatal("SendBefore into a queue with room did not queue")
	}
	fired := make(chan time.Time, 1)
	fired <- time.Time{}
	if q.SendBefore(2, fired) {
		t.Fatal("SendBefore into a full queue queued although its stop had fired")
	}
	// Room comes while it waits: the goroutine starts taking.
	sent := make(chan bool)
	go func() { sent <- q.SendBefore(3, nil) }()
	close(open)
	if !<-sent {
		t.Fatal("SendBefore did not queue once there was room")
	}
	if !q.Close(time.Minute) {
		t.Fatal("Close: the goroutine did not return")
	}
	if !slices.Equal(*taken, []int{1, 3}) {
		t.Fatalf("taken %v, want [1 3]", *taken)
	}
	if q.SendBefore(4, nil) {
		t.Fatal("SendBefore after Close queued")
	}
	if q.Dropped() != 0 {
		t.Fatalf("Dropped = %d, want 0: SendBefore counts nothing", q.Dropped())
	}
}

// Close reports a goroutine that has not finished in time, and a later
// Close sees it finish; Drop counts with Send's drops.
func TestCloseBoundAndDrop(t *testing.T) {
	q, open, taken := gated(4)
	q.Send(1)
	if q.Close(time.Millisecond) {
		t.Fatal("Close reported the goroutine returned while it could take nothing")
	}
	close(open)
	if !q.Close(time.Minute) {
		t.Fatal("Close: the goroutine did not return once it could take")
	}
	if !slices.Equal(*taken, []int{1}) {
		t.Fatalf("taken %v, want [1]", *taken)
	}
	q.Drop()
	q.Send(2)
	if q.Dropped() != 2 {
		t.Fatalf("Dropped = %d, want 2 (one Drop, one send after Close)", q.Dropped())
	}
}
