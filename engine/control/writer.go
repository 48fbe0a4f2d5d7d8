package control

import (
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// writer owns the driver → host direction: one goroutine writes queued
// lines in order; a full queue drops the line instead of blocking.
type writer struct {
	w     io.Writer
	queue chan []byte
	done  chan struct{}

	mu     sync.RWMutex // guards closed against sends on a closed queue
	closed bool

	broken  atomic.Bool // a write failed: the host is gone
	dropped atomic.Uint64
}

func newWriter(w io.Writer, n int) *writer {
	wr := &writer{w: w, queue: make(chan []byte, n), done: make(chan struct{})}
	go wr.loop()
	return wr
}

// send encodes v as one line and queues it. It reports whether the line
// was queued (not whether the host read it).
func (wr *writer) send(v any) bool {
	line, err := json.Marshal(v)
	if err != nil || len(line) > MaxLine {
		wr.dropped.Add(1)
		return false
	}
	line = append(line, '\n')
	wr.mu.RLock()
	defer wr.mu.RUnlock()
	if wr.closed || wr.broken.Load() {
		wr.dropped.Add(1)
		return false
	}
	select {
	case wr.queue <- line:
		return true
	default:
		wr.dropped.Add(1)
		return false
	}
}

func (wr *writer) loop() {
	defer close(wr.done)
	for line := range wr.queue {
		if wr.broken.Load() {
			wr.dropped.Add(1)
			continue
		}
		if _, err := wr.w.Write(line); err != nil {
			wr.broken.Store(true)
			wr.dropped.Add(1)
		}
	}
}

// close stops accepting lines and waits up to wait for the queue to drain.
func (wr *writer) close(wait time.Duration) error {
	wr.mu.Lock()
	if !wr.closed {
		wr.closed = true
		close(wr.queue)
	}
	wr.mu.Unlock()
	select {
	case <-wr.done:
		return nil
	case <-time.After(wait):
		return errors.New("control: the host did not read the last lines in time")
	}
}
