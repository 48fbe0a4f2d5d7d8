// Raw XInput 2 events for the hand-back watcher.
//
// Raw events are the devices' own events, sent to the root window before
// any grab, focus or window picks a target, so they report the person's
// input wherever it goes. They carry no pointer position; the Go side asks
// for it with XQueryPointer.

#include "nx_input.h"

#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>
#include <string.h>

int nx_xi_version(Display *dpy, int *opcode, int *major, int *minor) {
	int ev, er;
	if (!XQueryExtension(dpy, "XInputExtension", opcode, &ev, &er)) {
		return 0;
	}
	*major = 2;
	*minor = 2;
	return XIQueryVersion(dpy, major, minor) == Success;
}

void nx_xi_select_raw(Display *dpy, Window root) {
	unsigned char bits[XIMaskLen(XI_LASTEVENT)];
	memset(bits, 0, sizeof bits);
	XISetMask(bits, XI_RawMotion);
	XISetMask(bits, XI_RawKeyPress);
	XISetMask(bits, XI_RawKeyRelease);
	XISetMask(bits, XI_RawButtonPress);
	XISetMask(bits, XI_RawButtonRelease);
	XIEventMask mask;
	mask.deviceid = XIAllMasterDevices;
	mask.mask_len = sizeof bits;
	mask.mask = bits;
	XISelectEvents(dpy, root, &mask, 1);
}

int nx_next_raw(nx_conn *c, int opcode, nx_raw *out) {
	if (*c->lost || XPending(c->dpy) <= 0 || *c->lost) {
		return 0;
	}
	XEvent ev;
	XNextEvent(c->dpy, &ev);
	memset(out, 0, sizeof *out);
	if (ev.type == MappingNotify) {
		XRefreshKeyboardMapping(&ev.xmapping);
		return 1;
	}
	XGenericEventCookie *cookie = &ev.xcookie;
	if (ev.type != GenericEvent || cookie->extension != opcode || !XGetEventData(c->dpy, cookie)) {
		return 1;
	}
	XIRawEvent *raw = cookie->data;
	switch (cookie->evtype) {
	case XI_RawKeyPress:
	case XI_RawKeyRelease:
		out->keysym = XkbKeycodeToKeysym(c->dpy, (KeyCode)raw->detail, 0, 0);
		// fall through
	case XI_RawMotion:
	case XI_RawButtonPress:
	case XI_RawButtonRelease:
		out->kind = cookie->evtype;
		out->detail = raw->detail;
		break;
	}
	XFreeEventData(c->dpy, cookie);
	return 1;
}
