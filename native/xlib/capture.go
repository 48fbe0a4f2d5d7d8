//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include <X11/extensions/Xcomposite.h>
#include "nx.h"
*/
import "C"

import (
	"errors"
	"image"
	"time"
	"unsafe"
)

// Visual classes (X.h).
const (
	visualTrueColor   = 4
	visualDirectColor = 5
)

var (
	errNotViewable = errors.New("xlib: the window is not viewable, so it has no contents to capture")
	errVisual      = errors.New("xlib: the window's visual is not TrueColor, which capture does not read")
	errGetImage    = errors.New("xlib: the X server returned no image")
	// errRedirectedNow: capture had to redirect the window itself (its
	// id had been reused by a window this Display never redirected), so
	// its pixmap still holds the screen's pixels; Capture waits and reads
	// again.
	errRedirectedNow = errors.New("xlib: the window was redirected just now")
)

// captureSettle is how long the first capture of a window waits after
// redirecting it: redirection starts the window's off-screen pixmap as a
// copy of the screen there (windows above it included) and asks the app to
// repaint, which apps do within a frame or two.
const captureSettle = 100 * time.Millisecond

// Capture returns a window's own contents. With Composite the window is
// redirected off-screen (automatic redirection: the server still shows it
// as before) and stays redirected for the life of the Display, so its
// pixmap always holds what the app drew, never the windows above it (the
// takeover indicator, another app). The first capture of a window waits
// captureSettle for the app to repaint after the redirection. Without
// Composite the pixels are read from the screen, others' windows included,
// and parts off the screen stay black.
func (d *Display) Capture(id uint64) (*image.RGBA, error) {
	w := C.Window(id)
	if d.ext.Composite {
		var fresh bool
		err := d.do(func() error {
			var err error
			fresh, err = d.redirect(w)
			return err
		})
		if err != nil {
			return nil, err
		}
		if fresh {
			time.Sleep(captureSettle)
		}
	}
	var img *image.RGBA
	for attempt := 0; ; attempt++ {
		err := d.do(func() error {
			var err error
			img, err = d.capture(w)
			return err
		})
		if errors.Is(err, errRedirectedNow) && attempt == 0 {
			time.Sleep(captureSettle)
			continue
		}
		return img, err
	}
}

// redirect redirects a viewable window off-screen unless this Display did
// already; fresh says it did now.
func (d *Display) redirect(w C.Window) (fresh bool, err error) {
	if _, err := d.viewable(w); err != nil {
		return false, err
	}
	if d.redirected[w] {
		return false, nil
	}
	C.XCompositeRedirectWindow(d.dpy, w, C.CompositeRedirectAutomatic)
	if err := d.xerr(true); err != nil {
		return false, err
	}
	d.redirected[w] = true
	return true, nil
}

// viewable reads a window's attributes, and fails unless it is viewable
// and TrueColor.
func (d *Display) viewable(w C.Window) (C.nx_attrs, error) {
	a, ok := d.attrs(w)
	if !ok {
		delete(d.redirected, w)
		if err := d.xerr(false); err != nil {
			return a, err
		}
		return a, ErrWindowGone
	}
	if a.map_state != isViewable {
		return a, errNotViewable
	}
	if a.visual_class != visualTrueColor && a.visual_class != visualDirectColor {
		return a, errVisual
	}
	return a, nil
}

func (d *Display) capture(w C.Window) (*image.RGBA, error) {
	a, err := d.viewable(w)
	if err != nil {
		return nil, err
	}
	if d.ext.Composite {
		img, err := d.captureComposite(w, a)
		var xe *XError
		if errors.As(err, &xe) && xe.Code == xBadMatch && d.redirected[w] {
			// The id was reused by a window this Display never redirected
			// (X ids come back when a client's connection closes): redirect
			// it and let the app repaint before reading.
			delete(d.redirected, w)
			if _, err := d.redirect(w); err != nil {
				return nil, err
			}
			return nil, errRedirectedNow
		}
		return img, err
	}
	return d.captureScreen(w, a)
}

// captureComposite reads the window's off-screen pixmap.
func (d *Display) captureComposite(w C.Window, a C.nx_attrs) (*image.RGBA, error) {
	if !d.redirected[w] {
		if _, err := d.redirect(w); err != nil {
			return nil, err
		}
		return nil, errRedirectedNow
	}
	pix := C.XCompositeNameWindowPixmap(d.dpy, w)
	if err := d.xerr(true); err != nil {
		return nil, err
	}
	defer C.XFreePixmap(d.dpy, pix)
	img := image.NewRGBA(image.Rect(0, 0, int(a.width), int(a.height)))
	if len(img.Pix) == 0 {
		return img, nil
	}
	// The pixmap includes the border.
	if C.nx_read_image(d.dpy, C.Drawable(pix), a.border, a.border, a.width, a.height, a.depth,
		a.red_mask, a.green_mask, a.blue_mask,
		(*C.uint8_t)(unsafe.Pointer(&img.Pix[0])), C.int(img.Stride), 0, 0) == 0 {
		if err := d.xerr(false); err != nil {
			return nil, err
		}
		return nil, errGetImage
	}
	return img, nil
}

// captureScreen reads the part of the window that lies on the screen.
func (d *Display) captureScreen(w C.Window, a C.nx_attrs) (*image.RGBA, error) {
	var x, y C.int
	var child C.Window
	C.XTranslateCoordinates(d.dpy, w, d.root, 0, 0, &x, &y, &child)
	img := image.NewRGBA(image.Rect(0, 0, int(a.width), int(a.height)))
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff
	}
	screen := image.Rect(0, 0, int(C.nx_screen_width(d.dpy)), int(C.nx_screen_height(d.dpy)))
	on := image.Rect(int(x), int(y), int(x+a.width), int(y+a.height)).Intersect(screen)
	if on.Empty() {
		return img, nil
	}
	ox, oy := on.Min.X-int(x), on.Min.Y-int(y)
	if C.nx_read_image(d.dpy, C.Drawable(w), C.int(ox), C.int(oy), C.int(on.Dx()), C.int(on.Dy()), a.depth,
		a.red_mask, a.green_mask, a.blue_mask,
		(*C.uint8_t)(unsafe.Pointer(&img.Pix[0])), C.int(img.Stride), C.int(ox), C.int(oy)) == 0 {
		if err := d.xerr(false); err != nil {
			return nil, err
		}
		return nil, errGetImage
	}
	return img, nil
}
