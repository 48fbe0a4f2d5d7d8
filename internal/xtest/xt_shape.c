// Input shapes (X Shape extension 1.1): what a click at a window meets.

#include "xt.h"

#include <X11/Xutil.h>
#include <X11/extensions/shape.h>

int xt_shape_input_count(Display *dpy, Window w) {
	int count = 0, ordering = 0;
	XRectangle *r = XShapeGetRectangles(dpy, w, ShapeInput, &count, &ordering);
	if (r != NULL) {
		XFree(r);
	}
	return count;
}
