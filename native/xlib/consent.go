//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// The consent dialog is a normal top-level window drawn with core Xlib on a
// connection of its own, so a dialog waiting for the person never holds up
// the driver's main connection. It asks the window manager to keep it above
// other windows, and raises itself whenever it is covered.

// Core fonts to try, the ISO 10646 ones first (they draw most scripts'
// letters); xfonts-base provides them, and Xvfb reads them.
var (
	regularFonts = []string{
		"-misc-fixed-medium-r-normal--15-*-*-*-c-90-iso10646-1",
		"-misc-fixed-medium-r-semicondensed--13-*-*-*-c-60-iso10646-1",
		"fixed",
	}
	boldFonts = []string{
		"-misc-fixed-bold-r-normal--15-*-*-*-c-90-iso10646-1",
		"-misc-fixed-bold-r-semicondensed--13-*-*-*-c-60-iso10646-1",
	}
)

// Colours of the dialog.
const (
	colBackground = 0xf4f4f4
	colText       = 0x111111
	colFrame      = 0x707070
	colBox        = 0x333333
	colTick       = 0x1565c0
	colAlert      = 0xb71c1c
	colAllow      = 0x2e7d32
	colDeny       = 0xdddddd
	colWhite      = 0xffffff
)

// minRaiseGap spaces out raises, so two always-on-top windows cannot
// keep each other busy.
const minRaiseGap = 200 * time.Millisecond

// raiser spaces out one window's raises (minRaiseGap); a raise that has to
// wait is queued, and checks again whether it is still needed.
type raiser struct {
	last   time.Time
	queued bool
}

// raise runs now (which raises) at once, or queues a raise on d's thread
// for when the gap is over, made then only if still says so.
func (r *raiser) raise(d *Display, now func(), still func() bool) {
	wait := minRaiseGap - time.Since(r.last)
	if wait <= 0 {
		r.last = time.Now()
		now()
		C.XFlush(d.dpy)
		return
	}
	if r.queued {
		return
	}
	r.queued = true
	time.AfterFunc(wait, func() {
		d.post(func() error {
			r.queued = false
			if still() {
				r.raise(d, now, still)
			}
			return nil
		})
	})
}

// Event and visibility constants (X.h).
const (
	evButtonPress      = 4
	evButtonRelease    = 5
	evExpose           = 12
	evVisibilityNotify = 15
	evDestroyNotify    = 17
	evMapNotify        = 19
	evClientMessage    = 33
	visUnobscured      = 0
)

// ShowConsent shows the consent dialog and waits for the person's answer.
// Only a counted click (see clickGate) on Allow allows; Deny, closing the
// window, the window being destroyed, the connection breaking and the end
// of ctx are all denials, returned with a nil error. An error means the
// dialog could not be shown: the display cannot be opened (or d is closed).
func (d *Display) ShowConsent(ctx context.Context, dlg ConsentDialog) (ConsentResult, error) {
	d.mu.Lock()
	closing, lost := d.closing, d.lost
	d.mu.Unlock()
	switch {
	case closing:
		return ConsentResult{}, ErrClosed
	case lost:
		return ConsentResult{}, ErrDisplayLost
	case ctx.Err() != nil:
		return ConsentResult{}, nil
	}
	cw := &consentWindow{
		dlg:     dlg,
		results: make(chan ConsentResult, 1),
		gate:    clickGate{driverPressRecent: dlg.DriverPressRecent},
	}
	conn, err := open(d.name, cw.handle)
	if err != nil {
		return ConsentResult{}, err
	}
	defer conn.Close()
	if err := conn.do(func() error { return cw.create(conn) }); err != nil {
		return ConsentResult{}, err
	}
	var r ConsentResult
	select {
	case r = <-cw.results:
	case <-ctx.Done():
	case <-conn.lostCh:
		return ConsentResult{}, nil
	}
	_ = conn.do(func() error { cw.destroy(conn); return nil })
	return r, nil
}

// consentWindow is the dialog on its connection's goroutine.
type consentWindow struct {
	dlg     ConsentDialog
	results chan ConsentResult
	gate    clickGate

	form          *consentForm
	win           C.Window
	gc            C.GC
	font, bold    C.nx_font
	unicode       bool
	visibility    int
	raises        raiser
	finished      bool
	gone          bool
	wmProtocols   C.Atom
	wmDeleteWin   C.Atom
	colors        palette
	hasWindow     bool
	visibilityMet bool
	sharedBold    bool // no bold font: bold is the regular one
}

var errNoFont = errors.New("xlib: no core X font could be loaded for the consent dialog (Debian: xfonts-base)")

// create loads fonts, lays the form out, and maps the window centred on
// the primary monitor.
func (cw *consentWindow) create(d *Display) error {
	var i int
	if cw.font, i = loadFont(d, regularFonts); cw.font.font == nil {
		return errNoFont
	}
	cw.unicode = i != len(regularFonts)-1 // the last is Latin-1 "fixed"
	if cw.bold, _ = loadFont(d, boldFonts); cw.bold.font == nil {
		cw.bold = cw.font
		cw.sharedBold = true
	}
	m := fontMetrics{charW: int(cw.font.width), ascent: int(cw.font.ascent), descent: int(cw.font.descent)}
	cw.form = layoutConsent(cw.dlg, m)
	cw.colors = palette{}
	w, h := cw.form.w, cw.form.h
	// Centred on the primary monitor: the screen's centre can fall between
	// two monitors, or on no monitor at all when they differ in size.
	mons, err := d.monitors()
	if err != nil {
		mons = monitorsOnScreen(nil, Rect{W: int(C.nx_screen_width(d.dpy)), H: int(C.nx_screen_height(d.dpy))})
	}
	x, y := centreOn(mons[pickMonitor(mons, Rect{})].Frame, w, h)
	mask := C.long(C.ExposureMask | C.ButtonPressMask | C.ButtonReleaseMask |
		C.VisibilityChangeMask | C.StructureNotifyMask)
	cw.win = C.nx_create_window(d.dpy, C.int(x), C.int(y), C.int(w), C.int(h), cw.colors.pixel(d, colBackground), 0, mask)
	cw.hasWindow = true
	cw.gc = C.XCreateGC(d.dpy, C.Drawable(cw.win), 0, nil)

	cls := C.CString(DriverClass)
	defer C.free(unsafe.Pointer(cls))
	C.nx_set_class(d.dpy, cw.win, cls, cls)
	title := C.CString(ConsentTitle)
	defer C.free(unsafe.Pointer(title))
	C.XStoreName(d.dpy, cw.win, title)
	d.setUTF8(cw.win, "_NET_WM_NAME", ConsentTitle)
	C.nx_set_fixed_size(d.dpy, cw.win, C.int(x), C.int(y), C.int(w), C.int(h))
	cw.wmProtocols, cw.wmDeleteWin = d.atom("WM_PROTOCOLS"), d.atom("WM_DELETE_WINDOW")
	C.nx_set_delete_protocol(d.dpy, cw.win, cw.wmDeleteWin)
	atomType := d.atom("ATOM")
	d.setLongs(cw.win, d.atom("_NET_WM_WINDOW_TYPE"), atomType, []uint64{uint64(d.atom("_NET_WM_WINDOW_TYPE_DIALOG"))})
	d.setLongs(cw.win, d.atom("_NET_WM_STATE"), atomType, []uint64{uint64(d.atom("_NET_WM_STATE_ABOVE"))})
	d.setLongs(cw.win, d.atom("_NET_WM_PID"), xaCardinal, []uint64{uint64(os.Getpid())})
	d.setUTF8(cw.win, ConsentLayoutProperty, string(cw.form.layoutJSON()))
	C.XMapRaised(d.dpy, cw.win)
	return d.xerr(true)
}

// loadFont loads the first of names that exists and says which.
func loadFont(d *Display, names []string) (C.nx_font, int) {
	for i, n := range names {
		cs := C.CString(n)
		f := C.nx_font_load(d.dpy, cs)
		C.free(unsafe.Pointer(cs))
		if f.font != nil {
			return f, i
		}
	}
	return C.nx_font{}, -1
}

// ucs2 encodes text for a loaded font: the BMP for ISO 10646 fonts
// (unicode), Latin-1 for the "fixed" fallback; anything else becomes '?'.
func ucs2(s string, unicode bool) []C.uint16_t {
	out := make([]C.uint16_t, 0, len(s))
	for _, r := range s {
		if r > 0xffff || (!unicode && r > 0xff) {
			r = '?'
		}
		out = append(out, C.uint16_t(r))
	}
	return out
}

// textWidth is the width of s in the font f.
func textWidth(f C.nx_font, unicode bool, s string) int {
	u := ucs2(s, unicode)
	if len(u) == 0 {
		return 0
	}
	return int(C.nx_text_width(f, &u[0], C.int(len(u))))
}

// drawText draws s in the font f at (x, baseline) of w, in gc's foreground.
func drawText(d *Display, w C.Drawable, gc C.GC, f C.nx_font, unicode bool, x, baseline int, s string) {
	u := ucs2(s, unicode)
	if len(u) == 0 {
		return
	}
	C.nx_draw_text(d.dpy, w, gc, f, C.int(x), C.int(baseline), &u[0], C.int(len(u)))
}

// palette remembers the pixel values of the colours a window uses.
type palette map[uint32]C.ulong

// pixel returns (and remembers) a colour's pixel value.
func (p palette) pixel(d *Display, rgb uint32) C.ulong {
	if px, ok := p[rgb]; ok {
		return px
	}
	px := C.nx_pixel(d.dpy, C.uint(rgb))
	p[rgb] = px
	return px
}

// destroy takes the window down and frees what create made.
func (cw *consentWindow) destroy(d *Display) {
	if !cw.hasWindow {
		return
	}
	cw.hasWindow = false
	if !cw.gone {
		C.XDestroyWindow(d.dpy, cw.win)
	}
	C.XFreeGC(d.dpy, cw.gc)
	if !cw.sharedBold {
		C.nx_font_free(d.dpy, cw.bold)
	}
	C.nx_font_free(d.dpy, cw.font)
	C.XSync(d.dpy, C.False)
	xconn.ResetErrors()
}

// finish hands the answer over once.
func (cw *consentWindow) finish(r ConsentResult) {
	if !cw.finished {
		cw.finished = true
		cw.results <- r
	}
}

// handle sees every event of the dialog's connection.
func (cw *consentWindow) handle(d *Display, ev *C.nx_event) {
	if !cw.hasWindow || cw.finished || C.Window(ev.window) != cw.win {
		return
	}
	switch int(ev._type) {
	case evMapNotify:
		if cw.gate.armedAt.IsZero() {
			cw.gate.armedAt = time.Now().Add(consentArmDelay)
			// Rounded up, so a person who waits until then is never early.
			d.setUTF8(cw.win, ConsentArmedProperty, strconv.FormatInt(cw.gate.armedAt.UnixMilli()+1, 10))
			C.XFlush(d.dpy)
		}
	case evExpose:
		if ev.count == 0 {
			cw.draw(d)
		}
		if cw.visibilityMet && cw.visibility != visUnobscured {
			cw.raise(d)
		}
	case evVisibilityNotify:
		cw.visibility, cw.visibilityMet = int(ev.visibility), true
		if cw.visibility != visUnobscured {
			cw.raise(d)
		}
	case evButtonPress:
		hit := cw.form.hit(int(ev.x), int(ev.y))
		now := time.Now()
		cw.gate.press(int(ev.button), ev.send_event != 0, hit, eventAt(uint32(ev.time), now), now)
	case evButtonRelease:
		hit := cw.form.hit(int(ev.x), int(ev.y))
		id := cw.gate.release(int(ev.button), ev.send_event != 0, hit)
		if id == "" {
			return
		}
		if done, r := cw.form.click(id); done {
			cw.finish(r)
		} else {
			cw.draw(d)
		}
	case evClientMessage:
		if C.Atom(ev.message_type) == cw.wmProtocols && C.Atom(ev.data0) == cw.wmDeleteWin {
			cw.finish(ConsentResult{})
		}
	case evDestroyNotify:
		cw.gone = true
		cw.finish(ConsentResult{})
	}
}

// raise puts the dialog back on top (raiser).
func (cw *consentWindow) raise(d *Display) {
	cw.raises.raise(d, func() { C.XRaiseWindow(d.dpy, cw.win) }, func() bool {
		return cw.hasWindow && !cw.finished && cw.visibility != visUnobscured
	})
}

// draw paints the whole dialog.
func (cw *consentWindow) draw(d *Display) {
	f := cw.form
	dr := C.Drawable(cw.win)
	fill := func(rgb uint32, r Rect) {
		C.XSetForeground(d.dpy, cw.gc, cw.colors.pixel(d, rgb))
		C.XFillRectangle(d.dpy, dr, cw.gc, C.int(r.X), C.int(r.Y), C.uint(r.W), C.uint(r.H))
	}
	outline := func(rgb uint32, r Rect) {
		C.XSetForeground(d.dpy, cw.gc, cw.colors.pixel(d, rgb))
		C.XDrawRectangle(d.dpy, dr, cw.gc, C.int(r.X), C.int(r.Y), C.uint(r.W-1), C.uint(r.H-1))
	}
	fill(colBackground, Rect{W: f.w, H: f.h})
	outline(colFrame, Rect{W: f.w, H: f.h})
	outline(colFrame, Rect{X: 1, Y: 1, W: f.w - 2, H: f.h - 2})
	for _, y := range f.rules {
		fill(0xc0c0c0, Rect{X: 20, Y: y, W: f.w - 40, H: 1})
	}
	for _, t := range f.texts {
		col := uint32(colText)
		if t.alert {
			col = colAlert
		}
		cw.text(d, t.x, t.baseline, t.text, t.bold, col)
	}
	for _, c := range f.controls {
		switch c.kind {
		case tickBox:
			box := Rect{X: c.rect.X + 4, Y: c.rect.Y + (c.rect.H-14)/2, W: 14, H: 14}
			fill(colWhite, box)
			outline(colBox, box)
			if c.ticked {
				fill(colTick, Rect{X: box.X + 3, Y: box.Y + 3, W: 8, H: 8})
			}
			col := uint32(colText)
			if c.alert {
				col = colAlert
			}
			cw.text(d, box.X+box.W+10, c.baseline, c.label, c.alert, col)
		case button:
			bg, fg := uint32(colDeny), uint32(colText)
			if c.primary {
				bg, fg = colAllow, colWhite
			}
			fill(bg, c.rect)
			outline(colBox, c.rect)
			w := cw.textWidth(c.label, true)
			cw.text(d, c.rect.X+(c.rect.W-w)/2, c.baseline, c.label, true, fg)
		}
	}
	C.XFlush(d.dpy)
}

func (cw *consentWindow) text(d *Display, x, baseline int, s string, bold bool, rgb uint32) {
	C.XSetForeground(d.dpy, cw.gc, cw.colors.pixel(d, rgb))
	drawText(d, C.Drawable(cw.win), cw.gc, cw.fontFor(bold), cw.unicode, x, baseline, s)
}

func (cw *consentWindow) textWidth(s string, bold bool) int {
	return textWidth(cw.fontFor(bold), cw.unicode, s)
}

func (cw *consentWindow) fontFor(bold bool) C.nx_font {
	if bold {
		return cw.bold
	}
	return cw.font
}
