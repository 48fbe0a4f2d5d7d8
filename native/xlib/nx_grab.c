// The kill switch's passive key grab on the root window.

#include "nx_grab.h"

#include <X11/keysym.h>

unsigned int nx_numlock_mask(Display *dpy) {
	KeyCode numlock = XKeysymToKeycode(dpy, XK_Num_Lock);
	XModifierKeymap *map = XGetModifierMapping(dpy);
	unsigned int mask = 0;
	if (map == NULL) {
		return 0;
	}
	if (numlock != 0) {
		for (int mod = 0; mod < 8 && mask == 0; mod++) {
			for (int k = 0; k < map->max_keypermod; k++) {
				if (map->modifiermap[mod * map->max_keypermod + k] == numlock) {
					mask = 1u << mod;
					break;
				}
			}
		}
	}
	XFreeModifiermap(map);
	return mask;
}

void nx_grab_key(Display *dpy, Window root, int keycode, unsigned int mods,
                 const unsigned int *variants, int count) {
	for (int i = 0; i < count; i++) {
		XGrabKey(dpy, keycode, mods | variants[i], root, False, GrabModeAsync, GrabModeAsync);
	}
}

void nx_ungrab_key(Display *dpy, Window root, int keycode, unsigned int mods,
                   const unsigned int *variants, int count) {
	for (int i = 0; i < count; i++) {
		XUngrabKey(dpy, keycode, mods | variants[i], root);
	}
}
