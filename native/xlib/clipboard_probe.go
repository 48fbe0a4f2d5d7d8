//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include "nx_clipboard.h"
*/
import "C"

// Probes the clipboard's tests use from a second connection: who owns the
// clipboard, and an owner that never answers.

// clipboardOwner returns the window that owns the CLIPBOARD selection, 0
// for none.
func (d *Display) clipboardOwner() (uint64, error) {
	var w C.Window
	err := d.do(func() error {
		w = C.XGetSelectionOwner(d.dpy, d.atom("CLIPBOARD"))
		return d.xerr(false)
	})
	return uint64(w), err
}

// ownClipboardSilently makes a new window of d's the clipboard's owner.
// The Display's loop reads and drops the SelectionRequest events that come
// to it, so this owner never answers; closing d ends its ownership.
func (d *Display) ownClipboardSilently() (uint64, error) {
	var w C.Window
	err := d.do(func() error {
		w = C.nx_clip_window(d.dpy)
		sel := d.atom("CLIPBOARD")
		C.XSetSelectionOwner(d.dpy, sel, w, currentTime)
		if C.XGetSelectionOwner(d.dpy, sel) != w {
			return ErrClipboardNotOwned
		}
		return d.xerr(true)
	})
	return uint64(w), err
}
