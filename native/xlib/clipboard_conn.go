//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include "nx_clipboard.h"
*/
import "C"

import (
	"context"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// Each clipboard read and each clipboard owner works through a connection
// of its own, with one unmapped window, on a goroutine locked to its
// thread. A read waits on an owner that may be slow or never answer, and an
// owner waits on requestors for as long as it holds the clipboard: neither
// may hold up the main connection's queue, and the events each waits for
// (SelectionNotify, SelectionRequest, SelectionClear, PropertyNotify) then
// arrive only where they are wanted.

// Event types (X.h).
const (
	evPropertyNotify   = 28
	evSelectionClear   = 29
	evSelectionRequest = 30
	evSelectionNotify  = 31
)

// Atoms with fixed values (Xatom.h) and None.
const (
	xaNone      = C.Atom(0)
	currentTime = C.Time(0)
)

// Property names on the driver's own clipboard windows.
const (
	clipTransferProperty  = "_NISH_CLIPBOARD"
	clipTimestampProperty = "_NISH_CLIPBOARD_TIME"
)

// clipConn is a clipboard connection and its window. Everything except
// wake runs on the thread that opened it.
type clipConn struct {
	mu sync.Mutex
	c  *conn // nil once closed; guarded by mu for wake

	dpy   *C.Display
	win   C.Window
	atoms atomTable
}

// openClip opens a connection to display and creates the window. Call it
// on the locked thread that will own the connection.
func openClip(display string) (*clipConn, error) {
	c, err := openConn(display)
	if err != nil {
		return nil, err
	}
	k := &clipConn{c: c, dpy: c.dpy, atoms: atomTable{}}
	xconn.ResetErrors()
	k.win = C.nx_clip_window(k.dpy)
	if err := k.xerr(); err != nil {
		k.close()
		return nil, err
	}
	return k, nil
}

// wake makes a wait on the connection return early. Safe from any
// goroutine, also after close.
func (k *clipConn) wake() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil {
		k.c.wake()
	}
}

// lost reports whether the connection broke.
func (k *clipConn) lost() bool { return k.c.lost() }

// close destroys the window and closes the connection.
func (k *clipConn) close() {
	k.mu.Lock()
	c := k.c
	k.c = nil
	k.mu.Unlock()
	if c == nil {
		return
	}
	if !c.lost() {
		C.XDestroyWindow(k.dpy, k.win)
		C.XSync(k.dpy, C.False)
		xconn.ResetErrors()
	}
	c.close()
}

// atom interns an atom name once per connection.
func (k *clipConn) atom(name string) C.Atom { return k.atoms.intern(k.dpy, name) }

// xerr waits for the server to handle every request sent so far and
// returns the first X error trapped on this thread since the last reset,
// or ErrDisplayLost when there was none but the connection broke.
func (k *clipConn) xerr() error {
	if err := k.c.xerr(true); err != nil {
		return err
	}
	if k.lost() {
		return ErrDisplayLost
	}
	return nil
}

// waitFor reads events until one matches, the connection breaks, ctx ends
// or the deadline passes. Events that do not match are dropped. A caller
// that wants ctx to cut the wait short arranges for wake to be called when
// it ends (context.AfterFunc).
func (k *clipConn) waitFor(ctx context.Context, deadline time.Time, match func(*C.nx_event) bool) (C.nx_event, error) {
	var ev C.nx_event
	for {
		for k.c.next(&ev) {
			if match(&ev) {
				return ev, nil
			}
		}
		if k.lost() {
			return ev, ErrDisplayLost
		}
		if err := ctx.Err(); err != nil {
			if err == context.DeadlineExceeded {
				return ev, ErrClipboardTimeout
			}
			return ev, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return ev, ErrClipboardTimeout
		}
		k.c.wait(int((left + time.Millisecond - 1) / time.Millisecond))
	}
}

// timestamp returns the server's current time, read from the PropertyNotify
// that a zero-length append to a property of the window makes.
func (k *clipConn) timestamp(ctx context.Context, deadline time.Time) (C.Time, error) {
	prop := k.atom(clipTimestampProperty)
	C.nx_clip_touch(k.dpy, k.win, prop)
	C.XFlush(k.dpy)
	ev, err := k.waitFor(ctx, deadline, func(ev *C.nx_event) bool {
		return ev._type == evPropertyNotify && C.Window(ev.window) == k.win && C.Atom(ev.atom) == prop
	})
	if err != nil {
		return 0, err
	}
	return C.Time(ev.time), nil
}

// readDeadline is when a clipboard wait gives up: ClipboardReadBound from
// now, or ctx's deadline when that is sooner.
func readDeadline(ctx context.Context) time.Time {
	deadline := time.Now().Add(ClipboardReadBound)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		return d
	}
	return deadline
}

// usable says why d cannot start a clipboard connection, if it cannot.
func (d *Display) usable() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.endedLocked()
}
