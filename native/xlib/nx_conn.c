// A connection's wake-up descriptor and waiting for input.
//
// The connection itself, the process's Xlib handlers and the guarded open
// belong to internal/xconn; this file adds what only this package's loops
// need: an eventfd another thread writes to end a wait, and the poll on it
// and the display's socket.

#include "nx.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

nx_conn *nx_conn_new(Display *dpy, volatile int *lost) {
	nx_conn *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (c->wakefd < 0) {
		free(c);
		return NULL;
	}
	c->dpy = dpy;
	c->lost = lost;
	return c;
}

void nx_conn_free(nx_conn *c) {
	if (c == NULL) {
		return;
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
	if (!*c->lost) {
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
