// nx_grab.h declares the kill switch's helpers (nx_grab.c): a key
// combination grabbed on the root window on a connection of its own.
#ifndef NISH_NX_GRAB_H
#define NISH_NX_GRAB_H

#include "nx.h"

// nx_numlock_mask returns the modifier mask Num Lock sets on this keymap
// (Mod2Mask on most), or 0 when no modifier holds Num_Lock.
unsigned int nx_numlock_mask(Display *dpy);

// nx_grab_key grabs keycode with mods and every variant in variants (count
// of them, each OR'ed with mods) on root, asynchronously; errors (BadAccess
// when another client holds one) are trapped in this thread's slot.
void nx_grab_key(Display *dpy, Window root, int keycode, unsigned int mods,
                 const unsigned int *variants, int count);

// nx_ungrab_key releases what nx_grab_key grabbed.
void nx_ungrab_key(Display *dpy, Window root, int keycode, unsigned int mods,
                   const unsigned int *variants, int count);

#endif
