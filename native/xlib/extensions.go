//go:build cgo

package xlib

/*
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/Xcomposite.h>
#include <X11/extensions/XRes.h>
#include <X11/extensions/shape.h>
#include "nx.h"
*/
import "C"

import "github.com/nish-driver/nish-driver/internal/xconn"

import "unsafe"

// Extensions reports which of the X extensions the driver uses this display
// has (asked once, when the Display was opened).
func (d *Display) Extensions() Extensions { return d.ext }

// queryExtensions fills d.ext on the loop while Open runs.
func (d *Display) queryExtensions() {
	var ev, er, major, minor, opcode C.int
	d.ext.XTest = C.XTestQueryExtension(d.dpy, &ev, &er, &major, &minor) != 0

	name := C.CString("XInputExtension")
	defer C.free(unsafe.Pointer(name))
	if C.XQueryExtension(d.dpy, name, &opcode, &ev, &er) != 0 {
		// Asking for 2.2 returns what the server supports, up to 2.2. A
		// server without XI2 answers with an error, trapped and dropped.
		major, minor = 2, 2
		xconn.ResetErrors()
		if C.XIQueryVersion(d.dpy, &major, &minor) == C.Success {
			d.ext.XInputMajor, d.ext.XInputMinor = int(major), int(minor)
		}
		_ = d.xerr(true)
	}

	if C.XCompositeQueryExtension(d.dpy, &ev, &er) != 0 {
		major, minor = 0, 4
		C.XCompositeQueryVersion(d.dpy, &major, &minor)
		// NameWindowPixmap came with 0.2.
		d.ext.Composite = major > 0 || minor >= 2
	}

	if C.XResQueryExtension(d.dpy, &ev, &er) != 0 {
		d.ext.XRes = true
		if C.XResQueryVersion(d.dpy, &major, &minor) != 0 {
			d.xresIDs = major > 1 || (major == 1 && minor >= 2)
		}
	}

	d.ext.Shape = C.XShapeQueryExtension(d.dpy, &ev, &er) != 0

	if C.nx_randr_version(d.dpy, &major, &minor) != 0 {
		d.ext.RandRMajor, d.ext.RandRMinor = int(major), int(minor)
	}
}
