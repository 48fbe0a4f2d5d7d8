//go:build cgo

package xtest

/*
#include <X11/Xlib.h>
*/
import "C"

import "errors"

// ClipboardOwner returns the window that owns the CLIPBOARD selection, 0
// for none.
func (d *Display) ClipboardOwner() (uint64, error) {
	var w C.Window
	err := d.call(func() {
		w = C.XGetSelectionOwner(d.dpy, d.atom("CLIPBOARD"))
	})
	return uint64(w), err
}

// OwnClipboardSilently makes a new window of this client the clipboard's
// owner. The client reads no events, so it never answers a request for the
// clipboard's text: an owner that hangs. Close ends its ownership.
func (d *Display) OwnClipboardSilently() (uint64, error) {
	var w C.Window
	err := d.do(func() error {
		w = C.XCreateWindow(d.dpy, d.root, -10, -10, 1, 1, 0, C.CopyFromParent, C.InputOnly, nil, 0, nil)
		sel := d.atom("CLIPBOARD")
		C.XSetSelectionOwner(d.dpy, sel, w, C.CurrentTime)
		if C.XGetSelectionOwner(d.dpy, sel) != w {
			return errors.New("xtest: another client kept the clipboard")
		}
		return nil
	})
	return uint64(w), err
}
