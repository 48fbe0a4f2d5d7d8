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
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// ClipboardOwner holds the CLIPBOARD selection with one text and answers
// other clients' requests for it from a goroutine locked to its own thread,
// on a connection of its own. It offers TARGETS, TIMESTAMP, UTF8_STRING and,
// when every character has a Latin-1 form, STRING; any other target
// (MULTIPLE included) is refused. It sends the text in one piece, never
// incrementally: OwnClipboard refuses a text bigger than one X request
// (ErrClipboardTooLarge), which with BIG-REQUESTS is megabytes, far over
// what the driver is ever asked to write. Its methods are safe from any
// goroutine.
type ClipboardOwner struct {
	done chan struct{} // closed when the goroutine has ended

	mu        sync.Mutex
	k         *clipConn // set once the connection is open
	releasing bool
	err       error // why it stopped: ErrClipboardTaken, ErrDisplayLost, or nil (released)
}

// clipText is the text in the forms the owner serves, in C memory for the
// owner's life so no Go pointer reaches Xlib.
type clipText struct {
	utf8      unsafe.Pointer
	utf8Len   int
	latin1    unsafe.Pointer // nil when the text has no Latin-1 form
	latin1Len int
}

// OwnClipboard makes the driver the owner of the CLIPBOARD selection with
// text (invalid UTF-8 becomes U+FFFD). It returns once the server confirms
// the ownership, or with an error: ErrClipboardTooLarge, ErrClipboardNotOwned
// (another client took it at the same moment), ErrClipboardTimeout (the
// server's time could not be had before ctx's deadline or
// ClipboardReadBound), ErrClosed / ErrDisplayLost for d, or the
// connection's errors. ctx bounds only the taking, not the holding: the
// owner serves until Release, until another client takes the clipboard
// (Err then says ErrClipboardTaken), or until its connection breaks.
func (d *Display) OwnClipboard(ctx context.Context, text string) (*ClipboardOwner, error) {
	if err := d.usable(); err != nil {
		return nil, err
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	deadline := readDeadline(ctx)
	o := &ClipboardOwner{done: make(chan struct{})}
	ready := make(chan error, 1)
	go o.run(ctx, d.name, text, deadline, ready)
	guard := time.NewTimer(time.Until(deadline) + readGrace)
	defer guard.Stop()
	select {
	case err := <-ready:
		if err != nil {
			<-o.done
			return nil, err
		}
		return o, nil
	case <-guard.C:
		// The goroutine gives up the clipboard as soon as it can.
		o.abandon()
		return nil, ErrClipboardTimeout
	}
}

// Release gives the clipboard up (unless another client has taken it
// since), destroys the owner's window and closes its connection. It waits
// for that at most a couple of seconds, so it never blocks forever, and is
// safe to call more than once.
func (o *ClipboardOwner) Release() {
	o.abandon()
	t := time.NewTimer(clipboardReleaseBound)
	defer t.Stop()
	select {
	case <-o.done:
	case <-t.C:
	}
}

// abandon asks the goroutine to stop without waiting for it.
func (o *ClipboardOwner) abandon() {
	o.mu.Lock()
	o.releasing = true
	k := o.k
	o.mu.Unlock()
	if k != nil {
		k.wake()
	}
}

func (o *ClipboardOwner) isReleasing() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.releasing
}

// run owns the connection on its locked thread: it takes the clipboard,
// reports on ready, serves, and cleans up. The thread is never unlocked.
func (o *ClipboardOwner) run(ctx context.Context, display, text string, deadline time.Time, ready chan<- error) {
	runtime.LockOSThread()
	defer close(o.done)
	k, err := openClip(display)
	if err != nil {
		ready <- err
		return
	}
	defer k.close()
	o.mu.Lock()
	o.k = k
	o.mu.Unlock()

	if len(text) > int(C.nx_clip_max_bytes(k.dpy)) {
		ready <- ErrClipboardTooLarge
		return
	}
	data := newClipText(text)
	defer data.free()

	stop := context.AfterFunc(ctx, k.wake)
	ts, err := k.timestamp(ctx, deadline)
	stop()
	if err != nil {
		ready <- err
		return
	}
	clipboard := k.atom("CLIPBOARD")
	xconn.ResetErrors()
	C.XSetSelectionOwner(k.dpy, clipboard, k.win, ts)
	owner := C.XGetSelectionOwner(k.dpy, clipboard)
	if err := k.xerr(); err != nil {
		ready <- err
		return
	}
	if owner != k.win {
		ready <- ErrClipboardNotOwned
		return
	}
	ready <- nil

	err = o.serve(k, clipboard, ts, &data)
	o.mu.Lock()
	o.err = err
	o.mu.Unlock()
	if err == nil && !k.lost() {
		// Released: with the ownership's own timestamp this has no effect
		// when another client has taken the clipboard since.
		C.XSetSelectionOwner(k.dpy, clipboard, xaNone, ts)
	}
}

// serve answers requests until Release (nil), a SelectionClear
// (ErrClipboardTaken) or the connection's loss (ErrDisplayLost).
func (o *ClipboardOwner) serve(k *clipConn, clipboard C.Atom, ts C.Time, data *clipText) error {
	var ev C.nx_event
	for {
		for k.c.next(&ev) {
			switch ev._type {
			case evSelectionRequest:
				o.answer(k, &ev, clipboard, ts, data)
			case evSelectionClear:
				if C.Window(ev.window) == k.win && C.Atom(ev.selection) == clipboard {
					return ErrClipboardTaken
				}
			}
		}
		if k.lost() {
			return ErrDisplayLost
		}
		if o.isReleasing() {
			return nil
		}
		k.c.wait(-1)
	}
}

// answer serves one SelectionRequest: it writes the asked-for form to the
// requestor's property and tells it so, or tells it None (refused).
func (o *ClipboardOwner) answer(k *clipConn, ev *C.nx_event, clipboard C.Atom, ts C.Time, data *clipText) {
	requestor := C.Window(ev.requestor)
	target := C.Atom(ev.target)
	prop := C.Atom(ev.property)
	if prop == xaNone {
		prop = target // an obsolete requestor (ICCCM)
	}
	served := false
	// A request older than the ownership is about an earlier owner.
	current := C.Time(ev.time) == currentTime || int32(uint32(ev.time)-uint32(ts)) >= 0
	if C.Window(ev.window) == k.win && C.Atom(ev.selection) == clipboard && current {
		xconn.ResetErrors()
		utf8, timestamp, targets := k.atom("UTF8_STRING"), k.atom("TIMESTAMP"), k.atom("TARGETS")
		switch target {
		case targets:
			n := 3
			if data.latin1 != nil {
				n = 4
			}
			C.nx_clip_set_targets(k.dpy, requestor, prop, targets, timestamp, utf8, xaString, C.int(n))
			served = true
		case timestamp:
			C.nx_clip_set_integer(k.dpy, requestor, prop, C.ulong(ts))
			served = true
		case utf8:
			C.XChangeProperty(k.dpy, requestor, prop, utf8, 8, C.PropModeReplace, (*C.uchar)(data.utf8), C.int(data.utf8Len))
			served = true
		case xaString:
			if data.latin1 != nil {
				C.XChangeProperty(k.dpy, requestor, prop, xaString, 8, C.PropModeReplace, (*C.uchar)(data.latin1), C.int(data.latin1Len))
				served = true
			}
		}
		// A requestor whose window is gone cannot be answered at all.
		served = served && k.xerr() == nil
	}
	if !served {
		prop = xaNone
	}
	xconn.ResetErrors()
	C.nx_clip_notify(k.dpy, requestor, C.Atom(ev.selection), target, prop, C.Time(ev.time))
	_ = k.xerr()
}

// newClipText copies text, and its Latin-1 form when it has one, to C
// memory; free releases both.
func newClipText(text string) clipText {
	t := clipText{utf8: cCopy([]byte(text)), utf8Len: len(text)}
	if b, ok := toLatin1(text); ok {
		t.latin1, t.latin1Len = cCopy(b), len(b)
	}
	return t
}

func (t *clipText) free() {
	C.free(t.utf8)
	if t.latin1 != nil {
		C.free(t.latin1)
	}
}

// cCopy copies b to C memory (at least one byte, so never NULL).
func cCopy(b []byte) unsafe.Pointer {
	p := C.malloc(C.size_t(len(b) + 1))
	if len(b) > 0 {
		copy(unsafe.Slice((*byte)(p), len(b)), b)
	}
	return p
}

// toLatin1 encodes text as ISO 8859-1; ok is false when a character has no
// Latin-1 form.
func toLatin1(text string) (b []byte, ok bool) {
	b = make([]byte, 0, len(text))
	for _, r := range text {
		if r > 0xff {
			return nil, false
		}
		b = append(b, byte(r))
	}
	return b, true
}
