// The process's Xlib handlers, the guarded open and the thread's error slot
// (the package comment in doc.go says why there is one owner).

#include "xc.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <unistd.h>

// err_slot is this thread's first protocol error since the last reset: a
// connection is used by one thread only, so the call that failed reads it
// back on the thread that made it.
static __thread xc_xerror err_slot;

static int on_error(Display *dpy, XErrorEvent *e) {
	(void)dpy;
	if (err_slot.count++ == 0) {
		err_slot.code = e->error_code;
		err_slot.request = e->request_code;
		err_slot.minor = e->minor_code;
		err_slot.resource = e->resourceid;
	}
	return 0;
}

// opening is where on_io_error jumps to while this thread is inside
// XOpenDisplay, NULL otherwise; broken is the display it jumped for.
static __thread jmp_buf *opening;
static __thread Display *broken;

// on_io_error returns, which hands over to the connection's exit handler,
// except during XOpenDisplay (opening set), where it jumps back to
// open_display.
static int on_io_error(Display *dpy) {
	if (opening != NULL) {
		jmp_buf *back = opening;
		opening = NULL;
		broken = dpy;
		longjmp(*back, 1);
	}
	return 0;
}

static void on_io_exit(Display *dpy, void *data) {
	(void)dpy;
	((xc_conn *)data)->lost = 1;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_handlers(void) {
	XInitThreads();
	XSetErrorHandler(on_error);
	XSetIOErrorHandler(on_io_error);
}

// open_display is XOpenDisplay with a broken connection during it turned
// into NULL. Xlib has by then dropped the display's lock and is about to
// call its default exit handler; jumping out of it skips that, and leaves
// the display half made (a screen's default GC can be missing), which
// XCloseDisplay cannot take apart. So only its socket is closed, and the
// Display structure is left allocated: a few kilobytes, once per server
// that died in the middle of a connect.
static Display *open_display(const char *name) {
	jmp_buf back;
	if (setjmp(back) == 0) {
		opening = &back;
		Display *dpy = XOpenDisplay(name);
		opening = NULL;
		return dpy;
	}
	// on_io_error jumped here, for the display XOpenDisplay was making.
	if (broken != NULL) {
		close(ConnectionNumber(broken));
		broken = NULL;
	}
	return NULL;
}

xc_conn *xc_open(const char *name) {
	pthread_once(&init_once, init_handlers);
	xc_conn *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->dpy = open_display(name);
	if (c->dpy == NULL) {
		free(c);
		return NULL;
	}
	XSetIOErrorExitHandler(c->dpy, on_io_exit, c);
	return c;
}

void xc_close(xc_conn *c) {
	if (c == NULL) {
		return;
	}
	XCloseDisplay(c->dpy);
	free(c);
}

void xc_err_reset(void) { err_slot.count = 0; }

int xc_err_take(Display *dpy, int sync, xc_xerror *out) {
	if (sync) {
		XSync(dpy, False);
	}
	*out = err_slot;
	err_slot.count = 0;
	return out->count;
}
