package control

import (
	"encoding/json"
	"errors"
	"io"
	"sync/atomic"
	"time"

	"github.com/nish-driver/nish-driver/internal/dropqueue"
)

// writer owns the driver → host direction: one goroutine writes queued
// lines in order; a full queue drops the line instead of blocking.
type writer struct {
	w      io.Writer
	q      *dropqueue.Queue[[]byte]
	broken atomic.Bool // a write failed: the host is gone
}

func newWriter(w io.Writer, n int) *writer {
	wr := &writer{w: w}
	wr.q = dropqueue.Start(n, wr.loop)
	return wr
}

// send encodes v as one line and queues it. It reports whether the line
// was queued (not whether the host read it).
func (wr *writer) send(v any) bool {
	line, err := json.Marshal(v)
	if err != nil || len(line) > MaxLine || wr.broken.Load() {
		wr.q.Drop()
		return false
	}
	return wr.q.Send(append(line, '\n'))
}

func (wr *writer) loop(lines <-chan []byte) {
	for line := range lines {
		if wr.broken.Load() {
			wr.q.Drop()
			continue
		}
		if _, err := wr.w.Write(line); err != nil {
			wr.broken.Store(true)
			wr.q.Drop()
		}
	}
}

// close stops accepting lines and waits up to wait for the queue to drain.
func (wr *writer) close(wait time.Duration) error {
	if !wr.q.Close(wait) {
		return errors.New("control: the host did not read the last lines in time")
	}
	return nil
}
