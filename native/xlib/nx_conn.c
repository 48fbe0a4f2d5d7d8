// Connections, X error trapping and waiting for input.
//
// Xlib reports protocol errors to one process-wide handler. Each connection
// is used by exactly one OS thread (the Go side locks its goroutine to it),
// so the handler records the error in a thread-local slot: the code that
// made the failing call reads it back on the same thread.
//
// A broken connection goes to the process-wide I/O error handler and then to
// the connection's own exit handler (libX11 1.8 and later). By default both
// end the process; ours return, so the call that met the broken connection
// unwinds normally and the Go side turns the raised flag into an error.
//
// A connection that breaks inside XOpenDisplay, after the handshake (its own
// requests: the screens' default GCs, the resource database, XKB), has no
// exit handler of ours yet, and Xlib's default calls exit(1) from the
// opening thread. That ends more than the process: exit runs libX11's
// destructor (XFreeThreads), which frees Xlib's global mutexes while the
// other threads are still inside Xlib, and their next lock or unlock of one
// reads or writes freed memory. So while a thread is in XOpenDisplay, the
// I/O error handler jumps back out of it instead of returning (open_display).

#include "nx.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

static __thread nx_xerror err_slot;

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
	((nx_conn *)data)->lost = 1;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_handlers(void) {
	XInitThreads();
	XSetErrorHandler(on_error);
	XSetIOErrorHandler(on_io_error);
}

void nx_init(void) { pthread_once(&init_once, init_handlers); }

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

nx_conn *nx_open(const char *name) {
	nx_init();
	nx_conn *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (c->wakefd < 0) {
		free(c);
		return NULL;
	}
	c->dpy = open_display(name);
	if (c->dpy == NULL) {
		close(c->wakefd);
		free(c);
		return NULL;
	}
	XSetIOErrorExitHandler(c->dpy, on_io_exit, c);
	return c;
}

void nx_close(nx_conn *c) {
	if (c == NULL) {
		return;
	}
	if (c->dpy != NULL) {
		XCloseDisplay(c->dpy);
	}
	close(c->wakefd);
	free(c);
}

void nx_wake(nx_conn *c) {
	uint64_t one = 1;
	ssize_t n;
	do {
		n = write(c->wakefd, &one, sizeof one);
	} while (n < 0 && errno == EINTR);
}

void nx_wait(nx_conn *c, int timeout_ms) {
	struct pollfd fds[2];
	int n = 0;
	fds[n].fd = c->wakefd;
	fds[n].events = POLLIN;
	n++;
	if (!c->lost) {
		fds[n].fd = ConnectionNumber(c->dpy);
		fds[n].events = POLLIN;
		n++;
	}
	int r;
	do {
		r = poll(fds, n, timeout_ms);
	} while (r < 0 && errno == EINTR);
	if (r > 0 && (fds[0].revents & POLLIN)) {
		uint64_t v;
		while (read(c->wakefd, &v, sizeof v) > 0) {
		}
	}
}

void nx_err_reset(void) { err_slot.count = 0; }

int nx_err_take(Display *dpy, int sync, nx_xerror *out) {
	if (sync) {
		XSync(dpy, False);
	}
	*out = err_slot;
	err_slot.count = 0;
	return out->count;
}
