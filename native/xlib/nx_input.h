// nx_input.h declares the helpers of the hand-back input watcher
// (nx_input.c): XInput 2 raw events read off a connection of its own.
#ifndef NISH_NX_INPUT_H
#define NISH_NX_INPUT_H

#include "nx.h"

// nx_xi_version asks for XInput 2.2 and stores what the server offers (up to
// 2.2) in major and minor. It returns 0 when the server has no XInput
// extension or refuses the query. A server without XInput 2 may answer
// with an X error instead, which the caller traps and drops.
int nx_xi_version(Display *dpy, int *opcode, int *major, int *minor);

// nx_xi_select_raw selects raw motion, key and button events of every master
// device on the root window.
void nx_xi_select_raw(Display *dpy, Window root);

// nx_raw is one raw event, or kind 0 for an event the watcher ignores.
typedef struct {
	int kind;              // XI_RawMotion, XI_RawKeyPress, ... or 0
	int detail;            // the keycode or the button
	unsigned long keysym;  // for keys: the keysym at group 0, level 0
} nx_raw;

// nx_next_raw reads one queued or pending event into out and returns 1, or
// returns 0 when none is waiting or the connection is lost. MappingNotify
// refreshes the keyboard map.
int nx_next_raw(nx_conn *c, int opcode, nx_raw *out);

#endif
