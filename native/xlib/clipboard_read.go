//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include "nx_clipboard.h"
*/
import "C"

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// readGrace is how much longer than its own deadline ReadClipboard waits
// for the reading goroutine: the goroutine's waits are bounded, but a
// server that stops answering mid-round-trip could still hold it up.
const readGrace = time.Second

// errNotText: the owner's answer to one target was not text; the next
// target may still be.
var errNotText = errors.New("xlib: the answer is not text")

// ReadClipboard returns the text of the CLIPBOARD selection (ICCCM), asked
// for as UTF8_STRING and then as STRING (Latin-1, converted to UTF-8).
// Bytes that are not UTF-8 in a UTF8_STRING answer become U+FFFD. It works
// on a connection of its own and waits for the owner at most until ctx's
// deadline or ClipboardReadBound. Its errors: ErrClipboardEmpty (no owner),
// ErrClipboardNoText, ErrClipboardIncremental (an INCR answer is refused,
// not read), ErrClipboardTooLarge (over MaxClipboardRead), ErrClipboardTimeout,
// ctx's error when it is cancelled, ErrClosed / ErrDisplayLost for d, or
// the connection's errors.
func (d *Display) ReadClipboard(ctx context.Context) (string, error) {
	if err := d.usable(); err != nil {
		return "", err
	}
	deadline := readDeadline(ctx)
	type result struct {
		text string
		err  error
	}
	res := make(chan result, 1)
	go func() {
		// The thread is never unlocked: it ends with the goroutine.
		runtime.LockOSThread()
		text, err := readClipboard(ctx, d.name, deadline)
		res <- result{text, err}
	}()
	guard := time.NewTimer(time.Until(deadline) + readGrace)
	defer guard.Stop()
	select {
	case r := <-res:
		return r.text, r.err
	case <-guard.C:
		return "", ErrClipboardTimeout
	}
}

// readClipboard runs one read on the calling (locked) thread.
func readClipboard(ctx context.Context, display string, deadline time.Time) (string, error) {
	k, err := openClip(display)
	if err != nil {
		return "", err
	}
	defer k.close()
	stop := context.AfterFunc(ctx, k.wake)
	defer stop()

	clipboard := k.atom("CLIPBOARD")
	if C.XGetSelectionOwner(k.dpy, clipboard) == xaNone {
		return "", ErrClipboardEmpty
	}
	ts, err := k.timestamp(ctx, deadline)
	if err != nil {
		return "", err
	}
	prop := k.atom(clipTransferProperty)
	for _, target := range []C.Atom{k.atom("UTF8_STRING"), xaString} {
		xconn.ResetErrors()
		C.XConvertSelection(k.dpy, clipboard, target, prop, k.win, ts)
		C.XFlush(k.dpy)
		ev, err := k.waitFor(ctx, deadline, func(ev *C.nx_event) bool {
			return ev._type == evSelectionNotify && C.Window(ev.window) == k.win &&
				C.Atom(ev.selection) == clipboard && C.Atom(ev.target) == target
		})
		if err != nil {
			return "", err
		}
		if C.Atom(ev.property) == xaNone {
			continue // refused
		}
		text, err := k.takeText(C.Atom(ev.property))
		if errors.Is(err, errNotText) {
			continue
		}
		return text, err
	}
	return "", ErrClipboardNoText
}

// takeText reads an owner's answer from the window's property and deletes
// it. An INCR answer is left alone (deleting it would ask the owner for the
// first increment) and goes with the window.
func (k *clipConn) takeText(prop C.Atom) (string, error) {
	// The type, format and size (bytes_after) first, without the data.
	var p C.nx_prop
	if C.nx_get_prop(k.dpy, k.win, prop, C.AnyPropertyType, 0, 0, &p) == 0 {
		return "", errNotText
	}
	if p.data != nil {
		C.XFree(unsafe.Pointer(p.data))
	}
	typ := C.Atom(p._type)
	if typ == k.atom("INCR") {
		return "", ErrClipboardIncremental
	}
	isLatin1 := typ == xaString
	switch {
	case p.bytes_after > MaxClipboardRead:
		C.XDeleteProperty(k.dpy, k.win, prop)
		return "", ErrClipboardTooLarge
	case p.format != 8 || (!isLatin1 && typ != k.atom("UTF8_STRING")):
		C.XDeleteProperty(k.dpy, k.win, prop)
		return "", errNotText
	}
	// Then the whole of it, deleted as it is read.
	var q C.nx_prop
	if C.nx_get_prop(k.dpy, k.win, prop, C.AnyPropertyType, C.long(p.bytes_after), 1, &q) == 0 {
		return "", errNotText
	}
	if q.data != nil {
		defer C.XFree(unsafe.Pointer(q.data))
	}
	if q.bytes_after != 0 || C.Atom(q._type) != typ || q.format != 8 {
		// The owner changed the property between the two reads.
		C.XDeleteProperty(k.dpy, k.win, prop)
		return "", errNotText
	}
	var b []byte
	if q.data != nil && q.nitems > 0 {
		b = C.GoBytes(unsafe.Pointer(q.data), C.int(q.nitems))
	}
	if err := k.xerr(); err != nil {
		return "", err
	}
	if isLatin1 {
		return latin1(b), nil
	}
	if !utf8.Valid(b) {
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	}
	return string(b), nil
}
