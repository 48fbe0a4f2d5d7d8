// nx_clipboard.h declares the C helpers of the CLIPBOARD selection
// (clipboard_read.go, clipboard_owner.go). Like nx.h's, each helper frees
// what it allocates, or says in its comment who frees it.
#ifndef NISH_NX_CLIPBOARD_H
#define NISH_NX_CLIPBOARD_H

#include <X11/Xlib.h>

#include "nx.h"

// nx_clip_window creates an unmapped 1x1 child of the root that reports
// changes to its properties (PropertyChangeMask).
Window nx_clip_window(Display *dpy);

// nx_clip_touch appends nothing to a property of w: the server answers with
// a PropertyNotify carrying its current time, the timestamp the selection
// requests and XSetSelectionOwner should use.
void nx_clip_touch(Display *dpy, Window w, Atom prop);

// nx_clip_set_targets replaces a property with the first n (at most 4) of
// the atoms a0..a3, as a list of type ATOM (the answer to TARGETS).
void nx_clip_set_targets(Display *dpy, Window w, Atom prop, Atom a0, Atom a1, Atom a2, Atom a3,
                         int n);

// nx_clip_set_integer replaces a property with one 32-bit INTEGER.
void nx_clip_set_integer(Display *dpy, Window w, Atom prop, unsigned long v);

// nx_clip_notify sends the requestor the SelectionNotify that ends a
// request; property None says the request was refused.
void nx_clip_notify(Display *dpy, Window requestor, Atom selection, Atom target, Atom property,
                    Time time);

// nx_clip_max_bytes is the largest property value, in bytes, one
// ChangeProperty request can carry on this connection (BIG-REQUESTS
// counted).
long nx_clip_max_bytes(Display *dpy);

#endif
