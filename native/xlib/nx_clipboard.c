// The CLIPBOARD selection's C side: events as a flat struct, the private
// window each clipboard connection works through, property reads that hand
// Xlib's buffer to the caller, and the owner's replies.

#include "nx_clipboard.h"

#include <X11/Xatom.h>
#include <string.h>

int nx_clip_next_event(nx_conn *c, nx_clip_event *out) {
	XEvent ev;
	if (!nx_take_event(c, &ev)) {
		return 0;
	}
	memset(out, 0, sizeof *out);
	out->type = ev.type;
	out->window = ev.xany.window;
	switch (ev.type) {
	case SelectionNotify:
		out->window = ev.xselection.requestor;
		out->time = ev.xselection.time;
		out->selection = ev.xselection.selection;
		out->target = ev.xselection.target;
		out->property = ev.xselection.property;
		break;
	case SelectionRequest:
		out->window = ev.xselectionrequest.owner;
		out->time = ev.xselectionrequest.time;
		out->selection = ev.xselectionrequest.selection;
		out->target = ev.xselectionrequest.target;
		out->property = ev.xselectionrequest.property;
		out->requestor = ev.xselectionrequest.requestor;
		break;
	case SelectionClear:
		out->window = ev.xselectionclear.window;
		out->time = ev.xselectionclear.time;
		out->selection = ev.xselectionclear.selection;
		break;
	case PropertyNotify:
		out->window = ev.xproperty.window;
		out->time = ev.xproperty.time;
		out->atom = ev.xproperty.atom;
		out->state = ev.xproperty.state;
		break;
	}
	return 1;
}

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
