// X events flattened into one struct the Go side can read.

#include "nx.h"

#include <string.h>

int nx_take_event(nx_conn *c, XEvent *ev) {
	if (*c->lost || XPending(c->dpy) <= 0 || *c->lost) {
		return 0;
	}
	XNextEvent(c->dpy, ev);
	if (ev->type == MappingNotify) {
		XRefreshKeyboardMapping(&ev->xmapping);
	}
	return 1;
}

int nx_next_event(nx_conn *c, nx_event *out) {
	XEvent ev;
	if (!nx_take_event(c, &ev)) {
		return 0;
	}
	memset(out, 0, sizeof *out);
	out->type = ev.type;
	out->send_event = ev.xany.send_event ? 1 : 0;
	out->window = ev.xany.window;
	switch (ev.type) {
	case ButtonPress:
	case ButtonRelease:
		out->time = ev.xbutton.time;
		out->x = ev.xbutton.x;
		out->y = ev.xbutton.y;
		out->x_root = ev.xbutton.x_root;
		out->y_root = ev.xbutton.y_root;
		out->button = ev.xbutton.button;
		out->state = ev.xbutton.state;
		break;
	case Expose:
		out->x = ev.xexpose.x;
		out->y = ev.xexpose.y;
		out->width = ev.xexpose.width;
		out->height = ev.xexpose.height;
		out->count = ev.xexpose.count;
		break;
	case VisibilityNotify:
		out->visibility = ev.xvisibility.state;
		break;
	case ConfigureNotify:
		out->window = ev.xconfigure.window;
		out->x = ev.xconfigure.x;
		out->y = ev.xconfigure.y;
		out->width = ev.xconfigure.width;
		out->height = ev.xconfigure.height;
		break;
	case DestroyNotify:
		out->window = ev.xdestroywindow.window;
		break;
	case UnmapNotify:
		out->window = ev.xunmap.window;
		break;
	case MapNotify:
		out->window = ev.xmap.window;
		break;
	case SelectionNotify:
		out->time = ev.xselection.time;
		out->selection = ev.xselection.selection;
		out->target = ev.xselection.target;
		out->property = ev.xselection.property;
		break;
	case SelectionRequest:
		out->time = ev.xselectionrequest.time;
		out->selection = ev.xselectionrequest.selection;
		out->target = ev.xselectionrequest.target;
		out->property = ev.xselectionrequest.property;
		out->requestor = ev.xselectionrequest.requestor;
		break;
	case SelectionClear:
		out->time = ev.xselectionclear.time;
		out->selection = ev.xselectionclear.selection;
		break;
	case PropertyNotify:
		out->time = ev.xproperty.time;
		out->atom = ev.xproperty.atom;
		out->state = ev.xproperty.state;
		break;
	case ClientMessage:
		out->message_type = ev.xclient.message_type;
		if (ev.xclient.format == 32) {
			out->data0 = ev.xclient.data.l[0];
		}
		break;
	}
	return 1;
}
