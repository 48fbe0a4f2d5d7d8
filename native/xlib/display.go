//go:build cgo

package xlib

/*
#cgo pkg-config: x11 xtst xi xext xres xcomposite xrandr
#include "nx.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// Display is one connection to an X display. Xlib is not safe to share
// between threads, so the connection belongs to one goroutine locked to its
// OS thread; every method hands that goroutine a closure and waits for it.
// The methods are safe to call from any goroutine.
type Display struct {
	name string
	conn *conn // set before Open returns; closed by the loop after Close

	mu      sync.Mutex
	queue   []job
	closing bool
	lost    bool
	lostCh  chan struct{} // closed when the connection breaks
	done    chan struct{} // closed when the loop has ended

	// Owned by the loop goroutine.
	dpy        *C.Display
	root       C.Window
	ext        Extensions
	xresIDs    bool // X-Resource 1.2: client ids, and so pids
	atoms      atomTable
	onEvent    func(*Display, *C.nx_event)
	onClose    []func()
	keys       keyboard
	redirected map[C.Window]bool
}

// job is a closure for the loop; res (if set) receives its error.
type job struct {
	f   func() error
	res chan error
}

// ConnectTimeout bounds opening a connection: the connect itself, the X
// server's setup reply and the extension queries that follow. A server
// that accepts connections and never answers would otherwise hold Open
// (and with it doctor and the MCP server's start) forever.
var ConnectTimeout = 5 * time.Second

// Open connects to an X display ("" means $DISPLAY). A display that does
// not finish the connection within ConnectTimeout gives ErrNoAnswer.
func Open(display string) (*Display, error) {
	return open(display, nil)
}

// open starts a connection's goroutine; onEvent (if set) sees every event
// the connection reads. When the goroutine does not report ready in time,
// the connection is abandoned: open returns ErrNoAnswer at once, and the
// goroutine, whenever Xlib gives it back, closes what it opened and ends.
func open(display string, onEvent func(*Display, *C.nx_event)) (*Display, error) {
	d := &Display{
		lostCh:     make(chan struct{}),
		done:       make(chan struct{}),
		atoms:      atomTable{},
		onEvent:    onEvent,
		redirected: map[C.Window]bool{},
	}
	d.onClose = append(d.onClose, d.releaseAll)
	start := &opening{ready: make(chan error, 1)}
	go d.loop(display, start)
	timer := time.NewTimer(ConnectTimeout)
	defer timer.Stop()
	select {
	case err := <-start.ready:
		if err != nil {
			return nil, err
		}
		return d, nil
	case <-timer.C:
	}
	if err, settled := start.abandon(); settled {
		if err != nil {
			return nil, err
		}
		return d, nil
	}
	return nil, fmt.Errorf("%w (%s, after %v)", ErrNoAnswer, displayName(display), ConnectTimeout)
}

// opening is the hand-over between open and a connection's goroutine:
// exactly one of them decides whether the connection is used or abandoned.
type opening struct {
	mu        sync.Mutex
	abandoned bool
	ready     chan error // buffered: the goroutine's result, sent once
}

// report hands the goroutine's result over; false means open gave up
// waiting and the goroutine must close what it opened.
func (o *opening) report(err error) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.abandoned {
		return false
	}
	o.ready <- err
	return true
}

// abandon gives up on the connection, unless its result arrived just now
// (settled), in which case that result stands.
func (o *opening) abandon() (err error, settled bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case err := <-o.ready:
		return err, true
	default:
	}
	o.abandoned = true
	return nil, false
}

func displayName(display string) string {
	if display == "" {
		return os.Getenv("DISPLAY")
	}
	return display
}

// loop owns the connection: it opens it on its locked thread, runs queued
// closures, reads events, and closes it after Close. The thread is never
// unlocked, so it ends with the goroutine, thread-local error slot and all.
func (d *Display) loop(display string, start *opening) {
	runtime.LockOSThread()
	defer close(d.done)
	c, err := openConn(display)
	if err != nil {
		start.report(err)
		return
	}
	d.conn = c
	d.dpy = c.dpy
	d.name = C.GoString(C.XDisplayString(d.dpy))
	d.root = C.nx_root(d.dpy)
	d.queryExtensions()
	if !start.report(nil) {
		c.close()
		return
	}
	d.serve()
	for i := len(d.onClose) - 1; i >= 0; i-- {
		if !d.connLost() {
			d.onClose[i]()
		}
	}
	c.close()
}

// serve runs closures and dispatches events until Close.
func (d *Display) serve() {
	for {
		d.mu.Lock()
		q, closing := d.queue, d.closing
		d.queue = nil
		d.mu.Unlock()
		if closing {
			for _, j := range q {
				if j.res != nil {
					j.res <- ErrClosed
				}
			}
			return
		}
		for _, j := range q {
			d.run(j)
		}
		if len(q) > 0 {
			continue
		}
		d.pump()
		d.mu.Lock()
		idle := len(d.queue) == 0 && !d.closing
		d.mu.Unlock()
		if idle {
			d.conn.wait(-1)
		}
	}
}

// run runs one closure with an empty error slot.
func (d *Display) run(j job) {
	var err error
	if d.connLost() {
		err = ErrDisplayLost
	} else {
		xconn.ResetErrors()
		err = j.f()
		if d.connLost() {
			err = ErrDisplayLost
		}
	}
	if j.res != nil {
		j.res <- err
	}
}

// pump reads every waiting event and hands it to onEvent.
func (d *Display) pump() {
	var ev C.nx_event
	for !d.connLost() && d.conn.next(&ev) {
		if d.onEvent != nil {
			d.onEvent(d, &ev)
		}
	}
	d.connLost()
}

// connLost reports (on the loop) whether the connection broke, and makes
// the Display refuse further calls once it has.
func (d *Display) connLost() bool {
	if !d.conn.lost() {
		return false
	}
	d.mu.Lock()
	if !d.lost {
		d.lost = true
		close(d.lostCh)
	}
	d.mu.Unlock()
	return true
}

// do runs f on the connection's goroutine and returns its error.
func (d *Display) do(f func() error) error {
	res := make(chan error, 1)
	if err := d.enqueue(job{f: f, res: res}); err != nil {
		return err
	}
	return <-res
}

// endedLocked says why the Display takes no more work, if it does not:
// closed, or its connection lost. The caller holds d.mu.
func (d *Display) endedLocked() error {
	switch {
	case d.closing:
		return ErrClosed
	case d.lost:
		return ErrDisplayLost
	}
	return nil
}

// post queues f without waiting; it is dropped once the Display is closed.
func (d *Display) post(f func() error) {
	_ = d.enqueue(job{f: f})
}

func (d *Display) enqueue(j job) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.endedLocked(); err != nil {
		return err
	}
	d.queue = append(d.queue, j)
	d.conn.wake()
	return nil
}

// Close ends the connection: the closure running now finishes, queued ones
// return ErrClosed, keys and buttons this Display still holds are
// released, and later calls return ErrClosed. It is safe to call twice.
func (d *Display) Close() error {
	d.mu.Lock()
	if !d.closing {
		d.closing = true
		d.conn.wake()
	}
	d.mu.Unlock()
	<-d.done
	return nil
}

// Lost reports, without waiting, whether the connection to the server
// broke (the server ended: Xvfb, or Xwayland with its compositor).
func (d *Display) Lost() bool {
	select {
	case <-d.lostCh:
		return true
	default:
		return false
	}
}

// Name is the display's name as Xlib resolved it (":0").
func (d *Display) Name() string { return d.name }

// Sync waits until the X server has handled every request sent so far.
func (d *Display) Sync() error {
	return d.do(func() error {
		C.XSync(d.dpy, C.False)
		return nil
	})
}

// xerr returns the X error trapped since the closure began (waiting for the
// server's answers first when sync is set), or nil.
func (d *Display) xerr(sync bool) error { return d.conn.xerr(sync) }

// atom interns an atom name once per connection.
func (d *Display) atom(name string) C.Atom { return d.atoms.intern(d.dpy, name) }
