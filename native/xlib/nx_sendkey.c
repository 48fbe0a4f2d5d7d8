// A key event sent to one window with XSendEvent, for the window_keys path: the
// event goes to the clients that selected key events on that window and to
// nobody else. It does not pass through the devices (XTEST), so the person's
// keyboard, the input focus and the other windows see nothing; the receiving
// client sees send_event set.

#include "nx.h"

#include <string.h>

// event_for makes ev an event of type for w, every other field zero: the
// head (XAnyEvent) that every event sent here shares.
static void event_for(XEvent *ev, int type, Display *dpy, Window w) {
	memset(ev, 0, sizeof *ev);
	ev->xany.type = type;
	ev->xany.display = dpy;
	ev->xany.window = w;
}

// send_one sends ev to w alone (propagate off, under mask) and flushes;
// 0 when Xlib could not convert the event.
static int send_one(Display *dpy, Window w, long mask, XEvent *ev) {
	Status st = XSendEvent(dpy, w, False, mask, ev);
	XFlush(dpy);
	return st != 0;
}

int nx_send_key(Display *dpy, Window root, Window w, unsigned int keycode, unsigned int state, int press) {
	XEvent ev;
	event_for(&ev, press ? KeyPress : KeyRelease, dpy, w);
	XKeyEvent *k = &ev.xkey;
	k->root = root;
	k->subwindow = None;
	k->time = CurrentTime;
	k->x = k->y = k->x_root = k->y_root = 1;
	k->state = state;
	k->keycode = keycode;
	k->same_screen = True;
	return send_one(dpy, w, press ? KeyPressMask : KeyReleaseMask, &ev);
}

int nx_send_focus(Display *dpy, Window w, int in) {
	XEvent ev;
	event_for(&ev, in ? FocusIn : FocusOut, dpy, w);
	ev.xfocus.mode = NotifyNormal;
	ev.xfocus.detail = NotifyNonlinear;
	return send_one(dpy, w, FocusChangeMask, &ev);
}
