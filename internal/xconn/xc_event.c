// The ClientMessage both X clients send (requests.go).

#include "xc.h"

#include <string.h>

void xc_send_client_message(Display *dpy, Window dest, Window win, Atom type, const long data[5], long mask) {
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xclient.type = ClientMessage;
	ev.xclient.window = win;
	ev.xclient.message_type = type;
	ev.xclient.format = 32;
	for (int i = 0; i < 5; i++) {
		ev.xclient.data.l[i] = data[i];
	}
	XSendEvent(dpy, dest, False, mask, &ev);
}
