// Input shapes (X Shape extension 1.1) for the takeover indicator.

#include "nx.h"

#include <X11/Xutil.h>
#include <X11/extensions/shape.h>

void nx_shape_input_empty(Display *dpy, Window w) {
	XShapeCombineRectangles(dpy, w, ShapeInput, 0, 0, NULL, 0, ShapeSet, Unsorted);
}

void nx_shape_input_rect(Display *dpy, Window w, int x, int y, int width, int height) {
	XRectangle r;
	r.x = (short)x;
	r.y = (short)y;
	r.width = (unsigned short)width;
	r.height = (unsigned short)height;
	XShapeCombineRectangles(dpy, w, ShapeInput, 0, 0, &r, 1, ShapeSet, Unsorted);
}
