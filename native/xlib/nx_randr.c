// Monitors (RandR 1.5 GetMonitors) as a flat array the Go side can read.

#include "nx.h"

#include <string.h>
#include <X11/extensions/Xrandr.h>

int nx_randr_version(Display *dpy, int *major, int *minor) {
	int ev = 0, er = 0;
	*major = 0;
	*minor = 0;
	if (!XRRQueryExtension(dpy, &ev, &er)) {
		return 0;
	}
	if (!XRRQueryVersion(dpy, major, minor)) {
		*major = 0;
		*minor = 0;
		return 0;
	}
	return 1;
}

int nx_monitors(Display *dpy, Window root, nx_monitor *out, int max) {
	int n = 0;
	XRRMonitorInfo *m = XRRGetMonitors(dpy, root, True, &n);
	if (m == NULL) {
		return -1;
	}
	if (n > max) {
		n = max;
	}
	for (int i = 0; i < n; i++) {
		nx_monitor *o = &out[i];
		memset(o, 0, sizeof *o);
		o->x = m[i].x;
		o->y = m[i].y;
		o->width = m[i].width;
		o->height = m[i].height;
		o->mwidth = m[i].mwidth;
		o->mheight = m[i].mheight;
		o->primary = m[i].primary ? 1 : 0;
		o->automatic = m[i].automatic ? 1 : 0;
		char *name = m[i].name != None ? XGetAtomName(dpy, m[i].name) : NULL;
		if (name != NULL) {
			strncpy(o->name, name, sizeof o->name - 1);
			XFree(name);
		}
	}
	XRRFreeMonitors(m);
	return n;
}
