package daemon

import (
	"errors"
	"net"
	"os"
	"sync"
	"time"
)

// QueueLimit is how many replies may wait for one connection's writer. A
// client that lets more pile up is not reading; it is dropped so that it
// cannot make the daemon hold its replies without bound.
const QueueLimit = 128

// WriteTimeout bounds one write to a client.
const WriteTimeout = 10 * time.Second

var errOutboxClosed = errors.New("connection closed")

// outbox is a connection's only writer: a queue of at most QueueLimit
// messages and one goroutine that writes them in order. Every message is a
// whole line, so replies never interleave.
type outbox struct {
	conn    net.Conn
	timeout time.Duration
	q       chan []byte
	done    chan struct{} // the writer has stopped and the connection is closed
	onDrop  func(reason string)

	mu      sync.Mutex
	ended   bool // no more messages are taken
	aborted bool // queued messages are thrown away
}

func newOutbox(conn net.Conn, timeout time.Duration, onDrop func(reason string)) *outbox {
	o := &outbox{conn: conn, timeout: timeout, q: make(chan []byte, QueueLimit), done: make(chan struct{}), onDrop: onDrop}
	go o.run()
	return o
}

// send queues one message, never waiting. A full queue drops the client.
func (o *outbox) send(msg []byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ended {
		return errOutboxClosed
	}
	select {
	case o.q <- msg:
		return nil
	default:
		o.abortLocked("queue full")
		return errOutboxClosed
	}
}

// finish takes no more messages; the writer sends what is queued, then
// closes the connection (a client that half-closed still gets its replies).
func (o *outbox) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.endLocked()
}

// abort closes the connection now, throwing away what is queued.
func (o *outbox) abort(reason string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.abortLocked(reason)
}

func (o *outbox) endLocked() {
	if !o.ended {
		o.ended = true
		close(o.q)
	}
}

func (o *outbox) abortLocked(reason string) {
	o.endLocked()
	if o.aborted {
		return
	}
	o.aborted = true
	o.conn.Close()
	if o.onDrop != nil && reason != "" {
		o.onDrop(reason)
	}
}

func (o *outbox) isAborted() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.aborted
}

func (o *outbox) run() {
	defer close(o.done)
	defer o.conn.Close()
	for msg := range o.q {
		if o.isAborted() {
			continue
		}
		o.conn.SetWriteDeadline(time.Now().Add(o.timeout))
		if _, err := o.conn.Write(msg); err != nil {
			reason := "write failed"
			if errors.Is(err, os.ErrDeadlineExceeded) {
				reason = "write timeout"
			}
			o.abort(reason)
		}
	}
}
