// xt.h declares the package's C helpers. Each one wraps a union (XEvent),
// a macro or a multi-step Xlib sequence that would be awkward from Go, and
// frees whatever it allocates before it returns. Everything else is called
// from Go directly.
#ifndef NISH_XT_H
#define NISH_XT_H

#include <X11/Xlib.h>

// ---- xt_conn.c: connections and error trapping ----

// xt_conn is one display connection and the flag its I/O exit handler
// raises when the connection dies.
typedef struct xt_conn {
	Display *dpy;
	volatile int lost;
} xt_conn;

// xt_open connects to the display (NULL: $DISPLAY) and sets the
// connection's I/O exit handler. It returns NULL when the display cannot
// be opened.
xt_conn *xt_open(const char *name);
// xt_close closes the connection (also after it was lost) and frees c.
void xt_close(xt_conn *c);

// xt_xerror is the first X protocol error trapped on this thread since the
// last xt_err_reset.
typedef struct {
	int count;
	int code;
	int request;
	int minor;
	unsigned long resource;
} xt_xerror;

// xt_err_reset puts this package's error handler in front of the process's
// (again, should another have been set since) and empties this thread's
// error slot.
void xt_err_reset(void);
// xt_err_take waits (XSync) until the server has answered every request
// sent so far, copies this thread's slot to out, empties it, and returns
// the number of errors trapped.
int xt_err_take(Display *dpy, xt_xerror *out);

// ---- xt_event.c: events ----

// xt_send_button sends a synthetic (SendEvent) ButtonPress or
// ButtonRelease of button to win at window coordinates x, y.
void xt_send_button(Display *dpy, Window win, int press, int x, int y, unsigned int button);
// xt_send_delete asks win to close the way a window manager does: a
// WM_PROTOCOLS ClientMessage carrying WM_DELETE_WINDOW.
void xt_send_delete(Display *dpy, Window win, Atom protocols, Atom del);
// xt_wait_client_message reads the connection's events for up to
// timeout_ms and returns the window of the first ClientMessage of type, or
// 0 when none came. Other events are read and dropped.
Window xt_wait_client_message(xt_conn *c, Atom type, int timeout_ms);

// ---- xt_shape.c: input shapes ----

// xt_shape_input_count returns how many rectangles make w's input shape.
int xt_shape_input_count(Display *dpy, Window w);

#endif
