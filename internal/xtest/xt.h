// xt.h declares the package's C helpers. Each one wraps a union (XEvent),
// a macro or a multi-step Xlib sequence that would be awkward from Go, and
// frees whatever it allocates before it returns. Everything else is called
// from Go directly.
#ifndef NISH_XT_H
#define NISH_XT_H

#include <X11/Xlib.h>

// ---- xt_event.c: events ----

// xt_send_button sends a synthetic (SendEvent) ButtonPress or
// ButtonRelease of button to win at window coordinates x, y.
void xt_send_button(Display *dpy, Window win, int press, int x, int y, unsigned int button);
// xt_wait_client_message reads the connection's events for up to
// timeout_ms and returns the window of the first ClientMessage of type, or
// 0 when none came or the connection broke (lost: internal/xconn's flag,
// nonzero once it has). Other events are read and dropped.
Window xt_wait_client_message(Display *dpy, volatile int *lost, Atom type, int timeout_ms);

// ---- xt_shape.c: input shapes ----

// xt_shape_input_count returns how many rectangles make w's input shape.
int xt_shape_input_count(Display *dpy, Window w);

#endif
