// Connections and X error trapping.
//
// Xlib reports protocol errors to one process-wide handler. This package's
// handler records the error in a thread-local slot (each connection is used
// by one OS thread only, so the call that failed reads it back on the same
// thread) and then calls the handler it found installed, unless that is
// Xlib's default, which ends the process. In a test that also uses
// native/xlib, that handler is native/xlib's, which records the error in
// its own slot the same way: each package reads only the slots of its own
// threads, so both see the errors of their own connections. native/xlib
// installs its handler once, possibly after this package did, so every
// call here puts this handler in front again first (xt_err_reset).
//
// A broken connection goes to the connection's own exit handler (libX11
// 1.8 and later), which by default ends the process; this one raises the
// connection's flag and returns, and the Go side refuses further calls.

#include "xt.h"

#include <pthread.h>
#include <stdlib.h>

// Xlib's default error handler (declared in Xlibint.h), which prints the
// error and ends the process.
extern int _XDefaultError(Display *dpy, XErrorEvent *event);

static __thread xt_xerror err_slot;

static pthread_mutex_t handler_mu = PTHREAD_MUTEX_INITIALIZER;
static XErrorHandler next_handler; // the handler on_error passes errors on to

static int on_error(Display *dpy, XErrorEvent *e) {
	if (err_slot.count++ == 0) {
		err_slot.code = e->error_code;
		err_slot.request = e->request_code;
		err_slot.minor = e->minor_code;
		err_slot.resource = e->resourceid;
	}
	pthread_mutex_lock(&handler_mu);
	XErrorHandler next = next_handler;
	pthread_mutex_unlock(&handler_mu);
	if (next != NULL) {
		return next(dpy, e);
	}
	return 0;
}

// to_front installs on_error, keeping whatever handler it displaces (other
// than Xlib's default) as the one to pass errors on to.
static void to_front(void) {
	pthread_mutex_lock(&handler_mu);
	XErrorHandler prev = XSetErrorHandler(on_error);
	if (prev != on_error) {
		next_handler = prev == _XDefaultError ? NULL : prev;
	}
	pthread_mutex_unlock(&handler_mu);
}

static void on_io_exit(Display *dpy, void *data) {
	(void)dpy;
	((xt_conn *)data)->lost = 1;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init(void) { XInitThreads(); }

xt_conn *xt_open(const char *name) {
	pthread_once(&init_once, init);
	to_front();
	xt_conn *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->dpy = XOpenDisplay(name);
	if (c->dpy == NULL) {
		free(c);
		return NULL;
	}
	XSetIOErrorExitHandler(c->dpy, on_io_exit, c);
	return c;
}

void xt_close(xt_conn *c) {
	if (c == NULL) {
		return;
	}
	XCloseDisplay(c->dpy);
	free(c);
}

void xt_err_reset(void) {
	to_front();
	err_slot.count = 0;
}

int xt_err_take(Display *dpy, xt_xerror *out) {
	XSync(dpy, False);
	*out = err_slot;
	err_slot.count = 0;
	return out->count;
}
