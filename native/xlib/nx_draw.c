// Text in core X fonts for the driver's own windows (no toolkit).

#include "nx.h"

#include <stdlib.h>

nx_font nx_font_load(Display *dpy, const char *name) {
	nx_font out = {NULL, 0, 0, 0};
	XFontStruct *f = XLoadQueryFont(dpy, name);
	if (f != NULL) {
		out.font = f;
		out.ascent = f->ascent;
		out.descent = f->descent;
		out.width = f->max_bounds.width;
	}
	return out;
}

void nx_font_free(Display *dpy, nx_font f) {
	if (f.font != NULL) {
		XFreeFont(dpy, f.font);
	}
}

// to_char2b converts UCS-2 to the byte pairs core fonts take. The caller
// frees the result.
static XChar2b *to_char2b(const uint16_t *s, int n) {
	XChar2b *c = malloc(sizeof(XChar2b) * (size_t)(n > 0 ? n : 1));
	if (c == NULL) {
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		c[i].byte1 = (unsigned char)(s[i] >> 8);
		c[i].byte2 = (unsigned char)(s[i] & 0xff);
	}
	return c;
}

void nx_draw_text(Display *dpy, Drawable d, GC gc, nx_font f, int x, int y, const uint16_t *s, int n) {
	if (f.font == NULL || n <= 0) {
		return;
	}
	XSetFont(dpy, gc, f.font->fid);
	XChar2b *c = to_char2b(s, n);
	if (c == NULL) {
		return;
	}
	XDrawString16(dpy, d, gc, x, y, c, n);
	free(c);
}

int nx_text_width(nx_font f, const uint16_t *s, int n) {
	if (f.font == NULL || n <= 0) {
		return 0;
	}
	XChar2b *c = to_char2b(s, n);
	if (c == NULL) {
		return 0;
	}
	int w = XTextWidth16(f.font, c, n);
	free(c);
	return w;
}
