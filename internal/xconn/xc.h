// xc.h declares the package's C: the process's Xlib handlers, the guarded
// open and the thread's error slot (xc_conn.c), and the one event both X
// clients send (xc_event.c). Only this package's Go calls it.
#ifndef NISH_XC_H
#define NISH_XC_H

#include <X11/Xlib.h>

// xc_conn is one display connection and the flag its I/O exit handler
// raises when the connection dies.
typedef struct xc_conn {
	Display *dpy;
	volatile int lost;
} xc_conn;

// xc_open makes Xlib thread-aware and installs the process's handlers (once),
// then connects to the display (NULL: $DISPLAY) and sets the connection's I/O
// exit handler. It returns NULL when the display cannot be opened, also when
// the connection breaks before XOpenDisplay has finished.
xc_conn *xc_open(const char *name);
// xc_close closes the connection (also after it was lost) and frees c.
void xc_close(xc_conn *c);

// xc_xerror is the first X protocol error trapped on this thread since the
// last xc_err_reset.
typedef struct {
	int count;
	int code;
	int request;
	int minor;
	unsigned long resource;
} xc_xerror;

// xc_err_reset empties this thread's error slot.
void xc_err_reset(void);
// xc_err_take copies this thread's slot to out, empties it, and returns the
// number of errors trapped. With sync set it first waits (XSync) for the
// server to answer every request sent so far.
int xc_err_take(Display *dpy, int sync, xc_xerror *out);

// xc_send_client_message sends dest a format-32 ClientMessage of type about
// win, its five data words from data (the rest of the event zero), with
// the event mask mask.
void xc_send_client_message(Display *dpy, Window dest, Window win, Atom type, const long data[5], long mask);

#endif
