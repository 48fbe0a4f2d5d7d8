// A key event sent to one window with XSendEvent, for the window_keys path: the
// event goes to the clients that selected key events on that window and to
// nobody else. It does not pass through the devices (XTEST), so the person's
// keyboard, the input focus and the other windows see nothing; the receiving
// client sees send_event set.

#include "nx.h"

#include <string.h>

int nx_send_key(Display *dpy, Window root, Window w, unsigned int keycode, unsigned int state, int press) {
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	XKeyEvent *k = &ev.xkey;
	k->type = press ? KeyPress : KeyRelease;
	k->display = dpy;
	k->window = w;
	k->root = root;
	k->subwindow = None;
	k->time = CurrentTime;
	k->x = k->y = k->x_root = k->y_root = 1;
	k->state = state;
	k->keycode = keycode;
	k->same_screen = True;
	long mask = press ? KeyPressMask : KeyReleaseMask;
	Status st = XSendEvent(dpy, w, False, mask, &ev);
	XFlush(dpy);
	return st != 0;
}

int nx_send_focus(Display *dpy, Window w, int in) {
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	XFocusChangeEvent *f = &ev.xfocus;
	f->type = in ? FocusIn : FocusOut;
	f->display = dpy;
	f->window = w;
	f->mode = NotifyNormal;
	f->detail = NotifyNonlinear;
	Status st = XSendEvent(dpy, w, False, FocusChangeMask, &ev);
	XFlush(dpy);
	return st != 0;
}
