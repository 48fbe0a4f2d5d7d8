//go:build cgo

package xtest

/*
#cgo pkg-config: x11 xext
#include <stdlib.h>
#include "xt.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// Display is one connection to an X display, owned by a goroutine locked
// to its OS thread; every method hands that goroutine a closure and waits
// for it. The methods are safe to call from any goroutine. Events are read
// only when a call waits for one (the window manager's); until then they
// wait unread, so a selection this client owns is never answered.
type Display struct {
	mu     sync.Mutex
	closed bool
	jobs   chan func()
	done   chan struct{} // closed when the goroutine has closed the connection

	// Owned by the goroutine.
	conn  *xconn.Conn
	dpy   *C.Display
	root  C.Window
	atoms map[string]C.Atom
}

// Open connects to an X display ("" means $DISPLAY).
func Open(display string) (*Display, error) {
	d := &Display{jobs: make(chan func()), done: make(chan struct{}), atoms: map[string]C.Atom{}}
	ready := make(chan error, 1)
	go d.loop(display, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

// loop opens the connection on its locked thread, runs the closures it is
// handed, and closes the connection after Close. The thread is never
// unlocked, so it ends with the goroutine, thread-local error slot and all.
func (d *Display) loop(display string, ready chan<- error) {
	runtime.LockOSThread()
	defer close(d.done)
	conn, err := xconn.Open(display)
	if err != nil {
		ready <- fmt.Errorf("xtest: %w", err)
		return
	}
	d.conn = conn
	d.dpy = (*C.Display)(conn.Display())
	d.root = C.XDefaultRootWindow(d.dpy)
	ready <- nil
	for f := range d.jobs {
		f()
	}
	d.conn.Close()
}

// Close ends the connection; the server then destroys the windows it made
// and gives up what it owned. Later calls return ErrClosed. It is safe to
// call twice.
func (d *Display) Close() error {
	d.mu.Lock()
	if !d.closed {
		d.closed = true
		close(d.jobs)
	}
	d.mu.Unlock()
	<-d.done
	return nil
}

// do runs f on the connection's goroutine, waits until the server has
// handled the requests f sent, and returns f's error, else the first X
// error those requests caused.
func (d *Display) do(f func() error) error {
	res := make(chan error, 1)
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return ErrClosed
	}
	d.jobs <- func() { res <- d.run(f) }
	d.mu.Unlock()
	return <-res
}

// call is do for the calls whose closure cannot fail on its own (all but
// one): their error is only the first X error their requests caused.
func (d *Display) call(f func()) error {
	return d.do(func() error {
		f()
		return nil
	})
}

// run runs one closure with an empty error slot (loop only).
func (d *Display) run(f func() error) error {
	if d.conn.Lost() {
		return ErrDisplayLost
	}
	xconn.ResetErrors()
	err := f()
	if d.conn.Lost() {
		return ErrDisplayLost
	}
	if xe := d.conn.TakeError(true); xe != nil && err == nil {
		return xe
	}
	return err
}

// atom interns an atom name once per connection (loop only).
func (d *Display) atom(name string) C.Atom {
	if a, ok := d.atoms[name]; ok {
		return a
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	a := C.XInternAtom(d.dpy, cs, C.False)
	d.atoms[name] = a
	return a
}
