//go:build cgo

package xlib

/*
#include <X11/Xlib.h>
#include "nx.h"
*/
import "C"

import "github.com/nish-driver/nish-driver/internal/xconn"

// maxMonitors bounds one GetMonitors answer; more is not a desktop.
const maxMonitors = 32

// Monitors lists the screen's monitors in root coordinates (RandR 1.5
// GetMonitors), clipped to the screen, clones merged. A server without
// RandR 1.5 gets the whole screen as one monitor (Listed false).
func (d *Display) Monitors() ([]Monitor, error) {
	var mons []Monitor
	err := d.do(func() error {
		var err error
		mons, err = d.monitors()
		return err
	})
	return mons, err
}

// monitors is Monitors on the loop.
func (d *Display) monitors() ([]Monitor, error) {
	screen := Rect{W: int(C.nx_screen_width(d.dpy)), H: int(C.nx_screen_height(d.dpy))}
	if !d.ext.hasMonitors() {
		return monitorsOnScreen(nil, screen), nil
	}
	var buf [maxMonitors]C.nx_monitor
	xconn.ResetErrors()
	n := int(C.nx_monitors(d.dpy, d.root, &buf[0], maxMonitors))
	if err := d.xerr(false); err != nil {
		return nil, err
	}
	mons := make([]Monitor, 0, max(n, 0))
	for _, m := range buf[:max(n, 0)] {
		mons = append(mons, Monitor{
			Name:     cut(plainText(C.GoString(&m.name[0])), 32), // any client may name one
			Frame:    Rect{X: int(m.x), Y: int(m.y), W: int(m.width), H: int(m.height)},
			Primary:  m.primary != 0,
			WidthMM:  int(m.mwidth),
			HeightMM: int(m.mheight),
			Listed:   true,
		})
	}
	return monitorsOnScreen(mons, screen), nil
}
