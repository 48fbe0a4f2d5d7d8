// The CLIPBOARD selection's C side: the private window each clipboard
// connection works through, property reads that hand Xlib's buffer to the
// caller, and the owner's replies. Its events come through nx_next_event.

#include "nx_clipboard.h"

#include <X11/Xatom.h>
#include <string.h>

Window nx_clip_window(Display *dpy) {
	XSetWindowAttributes a;
	memset(&a, 0, sizeof a);
	a.event_mask = PropertyChangeMask;
	return XCreateWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, CopyFromParent, InputOnly,
	                     CopyFromParent, CWEventMask, &a);
}

void nx_clip_touch(Display *dpy, Window w, Atom prop) {
	unsigned char none = 0;
	XChangeProperty(dpy, w, prop, XA_STRING, 8, PropModeAppend, &none, 0);
}

void nx_clip_set_targets(Display *dpy, Window w, Atom prop, Atom a0, Atom a1, Atom a2, Atom a3,
                         int n) {
	// Format-32 data goes to Xlib as C longs.
	long list[4] = {(long)a0, (long)a1, (long)a2, (long)a3};
	if (n < 0) {
		n = 0;
	}
	if (n > 4) {
		n = 4;
	}
	XChangeProperty(dpy, w, prop, XA_ATOM, 32, PropModeReplace, (unsigned char *)list, n);
}

void nx_clip_set_integer(Display *dpy, Window w, Atom prop, unsigned long v) {
	long l = (long)v;
	XChangeProperty(dpy, w, prop, XA_INTEGER, 32, PropModeReplace, (unsigned char *)&l, 1);
}

void nx_clip_notify(Display *dpy, Window requestor, Atom selection, Atom target, Atom property,
                    Time time) {
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xselection.type = SelectionNotify;
	ev.xselection.display = dpy;
	ev.xselection.requestor = requestor;
	ev.xselection.selection = selection;
	ev.xselection.target = target;
	ev.xselection.property = property;
	ev.xselection.time = time;
	XSendEvent(dpy, requestor, False, NoEventMask, &ev);
}

long nx_clip_max_bytes(Display *dpy) {
	long units = XExtendedMaxRequestSize(dpy);
	long header = 28; // ChangeProperty with a BIG-REQUESTS length field
	if (units == 0) {
		units = XMaxRequestSize(dpy);
		header = 24;
	}
	return units * 4 - header;
}
