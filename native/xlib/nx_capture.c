// Reading a drawable's pixels into an RGBA buffer.

#include "nx.h"

#include <X11/Xutil.h>

// channel describes one colour channel of a TrueColor pixel.
typedef struct {
	unsigned long mask;
	int shift;
	unsigned long max;
} channel;

static channel make_channel(unsigned long mask) {
	channel c = {mask, 0, 0};
	if (mask == 0) {
		return c;
	}
	while (((mask >> c.shift) & 1) == 0) {
		c.shift++;
	}
	c.max = mask >> c.shift;
	return c;
}

static uint8_t channel_value(const channel *c, unsigned long pixel) {
	if (c->mask == 0) {
		return 0;
	}
	unsigned long v = (pixel & c->mask) >> c->shift;
	if (c->max == 255) {
		return (uint8_t)v;
	}
	return (uint8_t)((v * 255 + c->max / 2) / c->max);
}

int nx_read_image(Display *dpy, Drawable d, int x, int y, int w, int h, int depth,
                  unsigned long red_mask, unsigned long green_mask, unsigned long blue_mask,
                  uint8_t *dst, int stride, int dst_x, int dst_y) {
	XImage *img = XGetImage(dpy, d, x, y, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
	if (img == NULL) {
		return 0;
	}
	channel r = make_channel(red_mask), g = make_channel(green_mask), b = make_channel(blue_mask);
	channel a = {0, 0, 0};
	if (depth == 32) {
		a = make_channel(0xffffffffUL & ~(red_mask | green_mask | blue_mask));
	}
	int fast = img->bits_per_pixel == 32;
	for (int row = 0; row < h; row++) {
		uint8_t *out = dst + (size_t)(dst_y + row) * (size_t)stride + (size_t)dst_x * 4;
		const unsigned char *in = (const unsigned char *)img->data + (size_t)row * (size_t)img->bytes_per_line;
		for (int col = 0; col < w; col++) {
			unsigned long p;
			if (fast) {
				const unsigned char *q = in + (size_t)col * 4;
				if (img->byte_order == LSBFirst) {
					p = (unsigned long)q[0] | (unsigned long)q[1] << 8 | (unsigned long)q[2] << 16 |
					    (unsigned long)q[3] << 24;
				} else {
					p = (unsigned long)q[3] | (unsigned long)q[2] << 8 | (unsigned long)q[1] << 16 |
					    (unsigned long)q[0] << 24;
				}
			} else {
				p = XGetPixel(img, col, row);
			}
			out[0] = channel_value(&r, p);
			out[1] = channel_value(&g, p);
			out[2] = channel_value(&b, p);
			out[3] = a.mask ? channel_value(&a, p) : 255;
			out += 4;
		}
	}
	XDestroyImage(img);
	return 1;
}
