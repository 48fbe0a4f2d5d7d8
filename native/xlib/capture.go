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
)

// Capture returns a window's own contents. With Composite the window is
// redirected off-screen (automatic redirection: the server still shows it
// as before), so the pixels are the window's own, never the windows above
// it; without Composite they are read from the screen, others' windows
// included, and parts off the screen stay black.
func (d *Display) Capture(id uint64) (*image.RGBA, error) {
	var img *image.RGBA
	err := d.do(func() error {
		var err error
		img, err = d.capture(C.Window(id))
		return err
	})
	return img, err
}

func (d *Display) capture(w C.Window) (*image.RGBA, error) {
	a, ok := d.attrs(w)
	if !ok {
		if err := d.xerr(false); err != nil {
			return nil, err
		}
		return nil, ErrWindowGone
	}
	if a.map_state != isViewable {
		return nil, errNotViewable
	}
	if a.visual_class != visualTrueColor && a.visual_class != visualDirectColor {
		return nil, errVisual
	}
	if d.ext.Composite {
		return d.captureComposite(w, a)
	}
	return d.captureScreen(w, a)
}

// captureComposite reads the window's off-screen pixmap.
func (d *Display) captureComposite(w C.Window, a C.nx_attrs) (*image.RGBA, error) {
	C.XCompositeRedirectWindow(d.dpy, w, C.CompositeRedirectAutomatic)
	defer C.XCompositeUnredirectWindow(d.dpy, w, C.CompositeRedirectAutomatic)
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
