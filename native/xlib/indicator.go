//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/nish-driver/nish-driver/internal/xconn"
)

// The takeover indicator is a red frame round each monitor and a label on
// the monitor holding the target window, all override-redirect windows on
// a connection of their own. Every window has
// an empty input shape, so the person's clicks reach the apps beneath;
// only the Continue button, shown while paused, takes input. The windows
// keep themselves above the others, and report when another client unmaps
// or destroys one of them.

// Indicator colours.
const (
	colIndicatorFrame    = 0xe53935
	colIndicatorDimmed   = 0x8d6e6e
	colIndicatorLabelBg  = 0xb71c1c
	colIndicatorPausedBg = 0x424242
	colIndicatorButton   = 0x2e7d32
)

// UnmapNotify and ConfigureNotify (X.h), which the consent dialog does not
// need.
const (
	evUnmapNotify     = 18
	evConfigureNotify = 22
)

// Indicator is a shown takeover indicator. Its methods are safe from any
// goroutine.
type Indicator struct {
	conn   *Display
	events chan IndicatorEvent
	stop   chan struct{}

	mu       sync.Mutex
	closed   bool // events is closed
	lostSent bool // "lost" is reported once
	removed  sync.Once

	w *indicatorWindows // owned by conn's goroutine
}

// ShowIndicator opens its own connection to display ("" means $DISPLAY)
// and shows the indicator on it.
func ShowIndicator(display string, opts IndicatorOptions) (*Indicator, error) {
	ind := &Indicator{
		events: make(chan IndicatorEvent, 16),
		stop:   make(chan struct{}),
	}
	iw := &indicatorWindows{
		ind:   ind,
		gate:  clickGate{driverPressRecent: opts.DriverPressRecent},
		wins:  map[C.Window]bool{},
		going: map[C.Window]bool{},
	}
	ind.w = iw
	conn, err := open(display, iw.handle)
	if err != nil {
		return nil, err
	}
	ind.conn = conn
	if err := conn.do(func() error { return iw.create(conn, opts.Paused, opts.Target) }); err != nil {
		_ = conn.do(func() error { iw.destroy(conn); return nil })
		conn.Close()
		return nil, err
	}
	go func() {
		select {
		case <-conn.lostCh:
			ind.emit(IndicatorLost)
		case <-ind.stop:
		}
	}()
	return ind, nil
}

// Events reports clicks on Continue and, at most once, the loss of the
// indicator (after which it stays down until Remove). It is closed by
// Remove.
func (ind *Indicator) Events() <-chan IndicatorEvent { return ind.events }

// SetPaused switches between the active and the paused look.
func (ind *Indicator) SetPaused(paused bool) error {
	return ind.conn.do(func() error { return ind.w.setPaused(ind.conn, paused) })
}

// Place puts the label (and Continue, while paused) on the monitor holding
// most of target, a window's frame in root coordinates; an empty target
// means the primary monitor. The frame stays round every monitor.
func (ind *Indicator) Place(target Rect) error {
	return ind.conn.do(func() error { return ind.w.place(ind.conn, target) })
}

// Remove takes the indicator down, closes its connection and Events. It is
// safe to call more than once.
func (ind *Indicator) Remove() {
	ind.removed.Do(func() {
		close(ind.stop)
		_ = ind.conn.do(func() error { ind.w.destroy(ind.conn); return nil })
		ind.conn.Close()
		ind.mu.Lock()
		ind.closed = true
		close(ind.events)
		ind.mu.Unlock()
	})
}

// emit sends an event unless Events is closed; a full buffer drops a
// Continue click (the person can click again), never the loss.
func (ind *Indicator) emit(kind string) {
	ind.mu.Lock()
	defer ind.mu.Unlock()
	if ind.closed || (kind == IndicatorLost && ind.lostSent) {
		return
	}
	if kind == IndicatorLost {
		ind.lostSent = true
		for {
			select {
			case ind.events <- IndicatorEvent{Kind: kind}:
				return
			default:
			}
			select { // make room: the loss matters more than a click
			case <-ind.events:
			default:
			}
		}
	}
	select {
	case ind.events <- IndicatorEvent{Kind: kind}:
	default:
	}
}

// indicatorWindows is the indicator on its connection's goroutine.
type indicatorWindows struct {
	ind  *Indicator
	gate clickGate

	frame     []C.Window
	label     C.Window
	button    C.Window          // 0 while active
	wins      map[C.Window]bool // windows whose loss is reported
	going     map[C.Window]bool // windows this side is destroying
	gc        C.GC
	font      C.nx_font
	unicode   bool
	paused    bool
	lost      bool
	created   bool
	raises    raiser
	colors    palette
	layout    indicatorLayout
	mons      []Monitor
	target    Rect
	stateAtom C.Atom
	utf8Atom  C.Atom
	labelText string
}

// newWindow makes one override-redirect indicator window with WM_CLASS,
// _NET_WM_PID and, unless input is set, an empty input shape.
func (iw *indicatorWindows) newWindow(d *Display, r Rect, rgb uint32, input bool) C.Window {
	mask := C.long(C.ExposureMask | C.VisibilityChangeMask | C.StructureNotifyMask)
	if input {
		mask |= C.ButtonPressMask | C.ButtonReleaseMask
	}
	w := C.nx_create_window(d.dpy, C.int(r.X), C.int(r.Y), C.int(r.W), C.int(r.H), iw.colors.pixel(d, rgb), 1, mask)
	cls := C.CString(IndicatorClass)
	defer C.free(unsafe.Pointer(cls))
	C.nx_set_class(d.dpy, w, cls, cls)
	d.setLongs(w, d.atom("_NET_WM_PID"), xaCardinal, []uint64{uint64(os.Getpid())})
	if input {
		C.nx_shape_input_rect(d.dpy, w, 0, 0, C.int(r.W), C.int(r.H))
	} else {
		C.nx_shape_input_empty(d.dpy, w)
	}
	iw.wins[w] = true
	return w
}

// create makes and maps the frame and the label.
func (iw *indicatorWindows) create(d *Display, paused bool, target Rect) error {
	if !d.ext.Shape {
		return errNoShape
	}
	var i int
	if iw.font, i = loadFont(d, boldFonts); iw.font.font == nil {
		if iw.font, i = loadFont(d, regularFonts); iw.font.font == nil {
			return errNoFont
		}
		iw.unicode = i != len(regularFonts)-1
	} else {
		iw.unicode = true
	}
	iw.colors = palette{}
	iw.stateAtom, iw.utf8Atom = d.atom(IndicatorStateProperty), d.atom("UTF8_STRING")
	mons, err := d.monitors()
	if err != nil {
		return err
	}
	iw.mons, iw.target = mons, target
	iw.paused = paused
	iw.relayout()
	// The root's own ConfigureNotify says the screen or its monitors
	// changed (RandR sends one for either); its children's say a window
	// moved.
	C.XSelectInput(d.dpy, d.root, C.SubstructureNotifyMask|C.StructureNotifyMask)
	for _, r := range iw.layout.frame {
		iw.frame = append(iw.frame, iw.newWindow(d, r, iw.frameColour(), false))
	}
	iw.label = iw.newWindow(d, iw.layout.label, iw.labelBg(), false)
	iw.gc = C.XCreateGC(d.dpy, C.Drawable(iw.label), 0, nil)
	iw.created = true
	for _, w := range iw.frame {
		C.XMapRaised(d.dpy, w)
	}
	C.XMapRaised(d.dpy, iw.label)
	if paused {
		iw.showButton(d)
	}
	iw.writeState(d)
	return d.xerr(true)
}

var errNoShape = errors.New("xlib: the X server has no Shape extension, which the takeover indicator needs")

func (iw *indicatorWindows) frameColour() uint32 {
	if iw.paused {
		return colIndicatorDimmed
	}
	return colIndicatorFrame
}

func (iw *indicatorWindows) labelBg() uint32 {
	if iw.paused {
		return colIndicatorPausedBg
	}
	return colIndicatorLabelBg
}

// relayout computes where the windows go for the current state.
func (iw *indicatorWindows) relayout() {
	iw.labelText = indicatorActiveLabel
	if iw.paused {
		iw.labelText = indicatorPausedLabel
	}
	h := int(iw.font.ascent+iw.font.descent) + 10
	rects := make([]Rect, len(iw.mons))
	for i, m := range iw.mons {
		rects[i] = m.Frame
	}
	iw.layout = layoutIndicator(rects, pickMonitor(iw.mons, iw.target),
		iw.textWidth(iw.labelText)+24, h, iw.textWidth(indicatorButtonLabel)+32, h+4)
}

// place moves the label and button to the monitor holding target.
func (iw *indicatorWindows) place(d *Display, target Rect) error {
	if !iw.created {
		return ErrClosed
	}
	iw.target = target
	if pickMonitor(iw.mons, target) == iw.layout.monitor {
		return nil
	}
	iw.relayout()
	iw.apply(d)
	return d.xerr(true)
}

// remonitor reads the monitors again after the root changed and lays the
// indicator out anew when they differ.
func (iw *indicatorWindows) remonitor(d *Display) {
	mons, err := d.monitors()
	if err != nil || slices.Equal(mons, iw.mons) {
		return
	}
	iw.mons = mons
	iw.relayout()
	iw.apply(d)
	C.XFlush(d.dpy)
}

// apply moves the windows to the current layout: the frame strips (made
// anew when the number of monitors changed), the label and the button,
// and rewrites the state.
func (iw *indicatorWindows) apply(d *Display) {
	if len(iw.frame) != len(iw.layout.frame) {
		for _, w := range iw.frame {
			iw.drop(d, w)
		}
		iw.frame = iw.frame[:0]
		for _, r := range iw.layout.frame {
			w := iw.newWindow(d, r, iw.frameColour(), false)
			iw.frame = append(iw.frame, w)
			C.XMapRaised(d.dpy, w)
		}
	} else {
		for k, r := range iw.layout.frame {
			C.XMoveResizeWindow(d.dpy, iw.frame[k], C.int(r.X), C.int(r.Y), C.uint(r.W), C.uint(r.H))
		}
	}
	r := iw.layout.label
	C.XMoveResizeWindow(d.dpy, iw.label, C.int(r.X), C.int(r.Y), C.uint(r.W), C.uint(r.H))
	C.XClearArea(d.dpy, iw.label, 0, 0, 0, 0, C.True)
	if iw.button != 0 {
		b := iw.layout.button
		C.XMoveResizeWindow(d.dpy, iw.button, C.int(b.X), C.int(b.Y), C.uint(b.W), C.uint(b.H))
		C.nx_shape_input_rect(d.dpy, iw.button, 0, 0, C.int(b.W), C.int(b.H))
		C.XClearArea(d.dpy, iw.button, 0, 0, 0, 0, C.True)
	}
	iw.raiseNow(d)
	iw.writeState(d)
}

// showButton creates and maps the Continue button.
func (iw *indicatorWindows) showButton(d *Display) {
	if iw.button != 0 {
		return
	}
	iw.button = iw.newWindow(d, iw.layout.button, colIndicatorButton, true)
	iw.gate.armedAt = time.Now()
	iw.gate.pressed = ""
	C.XMapRaised(d.dpy, iw.button)
}

// drop destroys one of the indicator's windows without reporting it lost.
func (iw *indicatorWindows) drop(d *Display, w C.Window) {
	if w == 0 {
		return
	}
	if iw.wins[w] {
		delete(iw.wins, w)
		iw.going[w] = true
		C.XDestroyWindow(d.dpy, w)
	}
}

// setPaused switches the look, the label, the button and the state.
func (iw *indicatorWindows) setPaused(d *Display, paused bool) error {
	if !iw.created {
		return ErrClosed
	}
	if paused == iw.paused {
		return nil
	}
	iw.paused = paused
	iw.relayout()
	for _, w := range iw.frame {
		C.XSetWindowBackground(d.dpy, w, iw.colors.pixel(d, iw.frameColour()))
		C.XClearWindow(d.dpy, w)
	}
	r := iw.layout.label
	C.XSetWindowBackground(d.dpy, iw.label, iw.colors.pixel(d, iw.labelBg()))
	C.XMoveResizeWindow(d.dpy, iw.label, C.int(r.X), C.int(r.Y), C.uint(r.W), C.uint(r.H))
	C.XClearArea(d.dpy, iw.label, 0, 0, 0, 0, C.True)
	if paused {
		iw.showButton(d)
	} else {
		iw.drop(d, iw.button)
		iw.button = 0
	}
	iw.writeState(d)
	return d.xerr(true)
}

// writeState updates the state property on the label.
func (iw *indicatorWindows) writeState(d *Display) {
	st := IndicatorState{State: IndicatorActive}
	if iw.paused {
		b := iw.layout.button
		st = IndicatorState{State: IndicatorPaused, Continue: []int{b.X, b.Y, b.W, b.H}}
	}
	st.Monitor = iw.mons[iw.layout.monitor].Name
	js, _ := json.Marshal(st)
	d.setBytes(iw.label, iw.stateAtom, iw.utf8Atom, js)
}

// destroy takes every window down and frees what create made.
func (iw *indicatorWindows) destroy(d *Display) {
	if !iw.created {
		if iw.font.font != nil {
			C.nx_font_free(d.dpy, iw.font)
			iw.font.font = nil
		}
		return
	}
	iw.created = false
	for w := range iw.wins {
		iw.drop(d, w)
	}
	C.XFreeGC(d.dpy, iw.gc)
	C.nx_font_free(d.dpy, iw.font)
	iw.font.font = nil
	C.XSync(d.dpy, C.False)
	xconn.ResetErrors()
}

// handle sees every event of the indicator's connection.
func (iw *indicatorWindows) handle(d *Display, ev *C.nx_event) {
	if !iw.created {
		return
	}
	w := C.Window(ev.window)
	switch int(ev._type) {
	case evUnmapNotify, evDestroyNotify:
		if iw.going[w] {
			if int(ev._type) == evDestroyNotify {
				delete(iw.going, w)
			}
			return
		}
		if iw.wins[w] && !iw.lost {
			iw.lost = true
			iw.ind.emit(IndicatorLost)
		}
	case evMapNotify:
		if !iw.wins[w] && !iw.going[w] {
			iw.raise(d)
		}
	case evConfigureNotify:
		if w == d.root {
			iw.remonitor(d)
		}
	case evVisibilityNotify:
		if iw.wins[w] && int(ev.visibility) != visUnobscured {
			iw.raise(d)
		}
	case evExpose:
		if ev.count == 0 && (w == iw.label || w == iw.button) {
			iw.draw(d, w)
		}
	case evButtonPress:
		if w == iw.button {
			now := time.Now()
			iw.gate.press(int(ev.button), ev.send_event != 0, iw.hit(ev), eventAt(uint32(ev.time), now), now)
		}
	case evButtonRelease:
		if w == iw.button && iw.gate.release(int(ev.button), ev.send_event != 0, iw.hit(ev)) != "" {
			iw.ind.emit(IndicatorContinue)
		}
	}
}

// hit names the button when a button event lies on it.
func (iw *indicatorWindows) hit(ev *C.nx_event) string {
	b := iw.layout.button
	if int(ev.x) >= 0 && int(ev.y) >= 0 && int(ev.x) < b.W && int(ev.y) < b.H {
		return "continue"
	}
	return ""
}

// raise puts the indicator back on top (raiser).
func (iw *indicatorWindows) raise(d *Display) {
	iw.raises.raise(d, func() { iw.raiseNow(d) }, func() bool { return iw.created })
}

// raiseNow puts every window of the indicator on top, the label and the
// button above the frame.
func (iw *indicatorWindows) raiseNow(d *Display) {
	iw.raises.last = time.Now()
	for _, w := range iw.frame {
		C.XRaiseWindow(d.dpy, w)
	}
	C.XRaiseWindow(d.dpy, iw.label)
	if iw.button != 0 {
		C.XRaiseWindow(d.dpy, iw.button)
	}
}

// draw paints the label or the button's text.
func (iw *indicatorWindows) draw(d *Display, w C.Window) {
	text, r := iw.labelText, iw.layout.label
	if w == iw.button {
		text, r = indicatorButtonLabel, iw.layout.button
	}
	if text == "" {
		return
	}
	x := (r.W - iw.textWidth(text)) / 2
	y := (r.H-int(iw.font.ascent+iw.font.descent))/2 + int(iw.font.ascent)
	C.XSetForeground(d.dpy, iw.gc, iw.colors.pixel(d, colWhite))
	drawText(d, C.Drawable(w), iw.gc, iw.font, iw.unicode, x, y, text)
	C.XFlush(d.dpy)
}

func (iw *indicatorWindows) textWidth(s string) int { return textWidth(iw.font, iw.unicode, s) }
