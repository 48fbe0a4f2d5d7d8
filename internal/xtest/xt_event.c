// Events: the synthetic ones any client can send, and waiting for one.

#include "xt.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

void xt_send_button(Display *dpy, Window win, int press, int x, int y, unsigned int button) {
	XEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.xbutton.type = press ? ButtonPress : ButtonRelease;
	ev.xbutton.window = win;
	ev.xbutton.root = DefaultRootWindow(dpy);
	ev.xbutton.subwindow = None;
	ev.xbutton.time = CurrentTime;
	ev.xbutton.x = x;
	ev.xbutton.y = y;
	ev.xbutton.same_screen = True;
	ev.xbutton.button = button;
	if (!press) {
		ev.xbutton.state = Button1Mask << (button - 1);
	}
	XSendEvent(dpy, win, True, press ? ButtonPressMask : ButtonReleaseMask, &ev);
}

static long now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

Window xt_wait_client_message(Display *dpy, volatile int *lost, Atom type, int timeout_ms) {
	long deadline = now_ms() + timeout_ms;
	for (;;) {
		while (!*lost && XPending(dpy) > 0) {
			XEvent ev;
			XNextEvent(dpy, &ev);
			if (ev.type == ClientMessage && ev.xclient.message_type == type) {
				return ev.xclient.window;
			}
		}
		long left = deadline - now_ms();
		if (*lost || left <= 0) {
			return 0;
		}
		struct pollfd fd = {.fd = ConnectionNumber(dpy), .events = POLLIN};
		if (poll(&fd, 1, (int)left) < 0 && errno != EINTR) {
			return 0;
		}
	}
}
