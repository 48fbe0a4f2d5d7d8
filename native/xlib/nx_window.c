// Windows, properties and client identity.

#include "nx.h"

#include <X11/Xutil.h>
#include <X11/extensions/XRes.h>
#include <string.h>

Window nx_root(Display *dpy) { return DefaultRootWindow(dpy); }
int nx_screen_width(Display *dpy) { return DisplayWidth(dpy, DefaultScreen(dpy)); }
int nx_screen_height(Display *dpy) { return DisplayHeight(dpy, DefaultScreen(dpy)); }

int nx_get_attrs(Display *dpy, Window w, nx_attrs *out) {
	XWindowAttributes a;
	memset(out, 0, sizeof *out);
	if (!XGetWindowAttributes(dpy, w, &a)) {
		return 0;
	}
	out->x = a.x;
	out->y = a.y;
	out->width = a.width;
	out->height = a.height;
	out->border = a.border_width;
	out->depth = a.depth;
	out->map_state = a.map_state;
	out->override_redirect = a.override_redirect ? 1 : 0;
	out->input_only = a.class == InputOnly;
	if (a.visual != NULL) {
		out->visual_class = a.visual->class;
		out->red_mask = a.visual->red_mask;
		out->green_mask = a.visual->green_mask;
		out->blue_mask = a.visual->blue_mask;
	}
	return 1;
}

int nx_get_prop(Display *dpy, Window w, Atom prop, Atom type, long max_bytes, int del, nx_prop *out) {
	Atom actual = None;
	memset(out, 0, sizeof *out);
	if (XGetWindowProperty(dpy, w, prop, 0, (max_bytes + 3) / 4, del ? True : False, type, &actual,
	                       &out->format, &out->nitems, &out->bytes_after, &out->data) != Success) {
		memset(out, 0, sizeof *out);
		return 0;
	}
	if (actual == None) {
		if (out->data != NULL) {
			XFree(out->data);
		}
		memset(out, 0, sizeof *out);
		return 0;
	}
	out->type = actual;
	return 1;
}

static void copy_cut(char *dst, int len, const char *src) {
	if (len <= 0) {
		return;
	}
	dst[0] = 0;
	if (src != NULL) {
		strncpy(dst, src, (size_t)len - 1);
		dst[len - 1] = 0;
	}
}

int nx_class_hint(Display *dpy, Window w, char *inst, int inst_len, char *cls, int cls_len) {
	XClassHint h = {NULL, NULL};
	copy_cut(inst, inst_len, NULL);
	copy_cut(cls, cls_len, NULL);
	if (!XGetClassHint(dpy, w, &h)) {
		return 0;
	}
	copy_cut(inst, inst_len, h.res_name);
	copy_cut(cls, cls_len, h.res_class);
	if (h.res_name != NULL) {
		XFree(h.res_name);
	}
	if (h.res_class != NULL) {
		XFree(h.res_class);
	}
	return 1;
}

int nx_client_pid(Display *dpy, Window w) {
	XResClientIdSpec spec;
	long n = 0;
	XResClientIdValue *ids = NULL;
	int pid = 0;
	spec.client = w;
	spec.mask = XRES_CLIENT_ID_PID_MASK;
	if (XResQueryClientIds(dpy, 1, &spec, &n, &ids) != Success) {
		return 0;
	}
	for (long i = 0; i < n; i++) {
		if (ids[i].spec.mask == XRES_CLIENT_ID_PID_MASK) {
			pid_t p = XResGetClientPid(&ids[i]);
			if (p > 0) {
				pid = (int)p;
			}
		}
	}
	XResClientIdsDestroy(n, ids);
	return pid;
}

Window nx_create_window(Display *dpy, int x, int y, int w, int h, unsigned long bg,
                        int override_redirect, long event_mask) {
	XSetWindowAttributes a;
	memset(&a, 0, sizeof a);
	a.background_pixel = bg;
	a.border_pixel = 0;
	a.override_redirect = override_redirect ? True : False;
	a.event_mask = event_mask;
	return XCreateWindow(dpy, DefaultRootWindow(dpy), x, y, (unsigned)w, (unsigned)h, 0,
	                     CopyFromParent, InputOutput, CopyFromParent,
	                     CWBackPixel | CWBorderPixel | CWOverrideRedirect | CWEventMask, &a);
}

void nx_set_class(Display *dpy, Window w, const char *inst, const char *cls) {
	XClassHint h;
	h.res_name = (char *)inst;
	h.res_class = (char *)cls;
	XSetClassHint(dpy, w, &h);
}

void nx_set_fixed_size(Display *dpy, Window w, int x, int y, int width, int height) {
	XSizeHints *h = XAllocSizeHints();
	if (h == NULL) {
		return;
	}
	h->flags = PPosition | USPosition | PSize | PMinSize | PMaxSize;
	h->x = x;
	h->y = y;
	h->width = h->min_width = h->max_width = width;
	h->height = h->min_height = h->max_height = height;
	XSetWMNormalHints(dpy, w, h);
	XFree(h);
}

void nx_set_delete_protocol(Display *dpy, Window w, Atom wm_delete) {
	XSetWMProtocols(dpy, w, &wm_delete, 1);
}

unsigned long nx_pixel(Display *dpy, unsigned int rgb) {
	XColor c;
	memset(&c, 0, sizeof c);
	c.red = (unsigned short)(((rgb >> 16) & 0xff) * 257);
	c.green = (unsigned short)(((rgb >> 8) & 0xff) * 257);
	c.blue = (unsigned short)((rgb & 0xff) * 257);
	c.flags = DoRed | DoGreen | DoBlue;
	if (!XAllocColor(dpy, DefaultColormap(dpy, DefaultScreen(dpy)), &c)) {
		unsigned int sum = ((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff);
		return sum > 384 ? WhitePixel(dpy, DefaultScreen(dpy)) : BlackPixel(dpy, DefaultScreen(dpy));
	}
	return c.pixel;
}
