// nx.h declares the package's small C helpers. Each one wraps a macro, a
// union or a multi-step Xlib sequence that would be awkward from Go, and
// frees whatever it allocates before it returns (or says in its comment who
// frees it). Everything else is called from Go directly.
#ifndef NISH_NX_H
#define NISH_NX_H

#include <X11/Xlib.h>
#include <stdint.h>

// ---- nx_conn.c: a connection's wake-up descriptor, waiting ----

// nx_conn is one of the package's display connections as its loops see it:
// the Display and lost flag of the connection internal/xconn opened (it owns
// both and the process's handlers), and a wake-up descriptor.
typedef struct nx_conn {
	Display *dpy;
	int wakefd;
	volatile int *lost; // internal/xconn's flag: nonzero once the connection broke
} nx_conn;

// nx_conn_new makes the wake-up descriptor for an open connection. It
// returns NULL when it cannot.
nx_conn *nx_conn_new(Display *dpy, volatile int *lost);
// nx_conn_free closes the descriptor and frees c; the connection itself is
// closed by its owner.
void nx_conn_free(nx_conn *c);
// nx_wake makes a pending nx_wait return. Safe from any thread.
void nx_wake(nx_conn *c);
// nx_wait blocks until the connection has input, nx_wake was called, or
// timeout_ms passed (-1: no timeout). It does not read X events.
void nx_wait(nx_conn *c, int timeout_ms);

// ---- nx_event.c: events as a flat struct ----

typedef struct {
	int type;
	int send_event;
	unsigned long window;
	unsigned long time;
	int x, y, x_root, y_root;
	unsigned int button;
	unsigned int state;
	int count;      // Expose
	int visibility; // VisibilityNotify
	int width, height;
	unsigned long message_type; // ClientMessage
	long data0;                 // ClientMessage l[0]
	// The selection events (SelectionNotify, SelectionRequest,
	// SelectionClear) and PropertyNotify, which the clipboard's
	// connections read. Their window is xany.window, the event's own: the
	// requestor of a SelectionNotify, the owner of a SelectionRequest or
	// SelectionClear, the window of a PropertyNotify; a PropertyNotify's
	// state is PropertyNewValue or PropertyDelete.
	unsigned long selection, target, property;
	unsigned long requestor; // SelectionRequest
	unsigned long atom;      // PropertyNotify
} nx_event;

// nx_take_event takes one queued or pending event into ev and returns 1,
// or returns 0 when none is waiting or the connection is lost.
// MappingNotify is handled here (the keyboard map is refreshed) and also
// returned. nx_next_event reads through it.
int nx_take_event(nx_conn *c, XEvent *ev);

// nx_next_event reads one event (nx_take_event) into out and returns 1, or
// returns 0 when none is waiting. Every connection reads its events
// through it: the main one, the dialog's and the indicator's, and the
// clipboard's.
int nx_next_event(nx_conn *c, nx_event *out);

// ---- nx_window.c: windows and properties ----

Window nx_root(Display *dpy);
int nx_screen_width(Display *dpy);
int nx_screen_height(Display *dpy);

typedef struct {
	int x, y, width, height, border, depth;
	int map_state;
	int override_redirect;
	int input_only;
	int visual_class;
	unsigned long red_mask, green_mask, blue_mask;
} nx_attrs;

// nx_get_attrs fills out and returns nonzero on success.
int nx_get_attrs(Display *dpy, Window w, nx_attrs *out);

typedef struct {
	unsigned long type;
	int format;
	unsigned long nitems;
	unsigned long bytes_after; // what is left past the part read
	unsigned char *data;       // the caller frees it with XFree
} nx_prop;

// nx_get_prop reads up to max_bytes of a property of type (AnyPropertyType
// for any), and deletes it when del is set and it was read whole. It
// returns 1 when the property exists (out->data, possibly NULL, then
// needs XFree), 0 when it does not.
int nx_get_prop(Display *dpy, Window w, Atom prop, Atom type, long max_bytes, int del, nx_prop *out);

// nx_class_hint copies WM_CLASS's instance and class into the buffers
// (cut to their sizes) and returns 1, or returns 0 when it is not set.
int nx_class_hint(Display *dpy, Window w, char *inst, int inst_len, char *cls, int cls_len);

// nx_client_pid asks the X-Resource extension for the pid of the client that
// created w; it returns 0 when that is unknown.
int nx_client_pid(Display *dpy, Window w);

// nx_create_window creates an InputOutput child of the root.
Window nx_create_window(Display *dpy, int x, int y, int w, int h, unsigned long bg,
                        int override_redirect, long event_mask);

// nx_set_class sets WM_CLASS.
void nx_set_class(Display *dpy, Window w, const char *inst, const char *cls);
// nx_set_fixed_size asks for a fixed size and a program-chosen position.
void nx_set_fixed_size(Display *dpy, Window w, int x, int y, int width, int height);
// nx_set_delete_protocol takes part in WM_DELETE_WINDOW.
void nx_set_delete_protocol(Display *dpy, Window w, Atom wm_delete);

// nx_pixel returns the pixel value for an RGB colour in the default colormap.
unsigned long nx_pixel(Display *dpy, unsigned int rgb);

// ---- nx_capture.c: images ----

// nx_read_image reads w x h pixels at (x, y) of a drawable and writes them
// into dst (RGBA, stride bytes per row, at dst_x, dst_y), using the visual's
// colour masks. It returns 1 on success, 0 when XGetImage failed.
int nx_read_image(Display *dpy, Drawable d, int x, int y, int w, int h, int depth,
                  unsigned long red_mask, unsigned long green_mask, unsigned long blue_mask,
                  uint8_t *dst, int stride, int dst_x, int dst_y);

// ---- nx_draw.c: text for the driver's own windows ----

typedef struct {
	XFontStruct *font;
	int ascent, descent, width;
} nx_font;

// nx_font_load loads a core font by name; font is NULL when there is none.
// Fonts travel by value, so Go can keep them without C pointing into Go.
nx_font nx_font_load(Display *dpy, const char *name);
// nx_font_free frees a font nx_font_load loaded.
void nx_font_free(Display *dpy, nx_font f);
// nx_draw_text draws UCS-2 text with the font at baseline (x, y).
void nx_draw_text(Display *dpy, Drawable d, GC gc, nx_font f, int x, int y, const uint16_t *s, int n);
// nx_text_width measures UCS-2 text in the font.
int nx_text_width(nx_font f, const uint16_t *s, int n);

// ---- nx_shape.c: input shapes ----

// nx_shape_input_empty gives w an empty input shape: clicks pass through it.
void nx_shape_input_empty(Display *dpy, Window w);
// nx_shape_input_rect sets w's input shape to one rectangle (window
// coordinates).
void nx_shape_input_rect(Display *dpy, Window w, int x, int y, int width, int height);

// ---- nx_randr.c: monitors ----

// nx_randr_version asks for RandR (up to the version libXrandr knows) and
// returns 1 with the server's version, or 0 when the server lacks it.
int nx_randr_version(Display *dpy, int *major, int *minor);

// nx_monitor is one RandR monitor: its rectangle in root coordinates, its
// physical size in millimetres (0 when unknown) and its name, cut to fit.
typedef struct {
	char name[64];
	int x, y, width, height;
	int mwidth, mheight;
	int primary;
	int automatic;
} nx_monitor;

// nx_monitors fills out with up to max active monitors (RandR 1.5
// GetMonitors; call it only when the server has 1.5) and returns how many,
// or -1 when the request failed. It frees what libXrandr returned.
int nx_monitors(Display *dpy, Window root, nx_monitor *out, int max);

// ---- nx_sendkey.c: a key event sent to one window ----

// nx_send_key sends one KeyPress (press set) or KeyRelease of keycode with
// modifier state to window w through XSendEvent (propagate off, the key
// event mask): the clients that selected key events on w get it with
// send_event set; no device, focus or other window is involved. It flushes
// and returns 0 when Xlib could not convert the event; X errors (BadWindow)
// arrive later, in the thread's error slot.
int nx_send_key(Display *dpy, Window root, Window w, unsigned int keycode, unsigned int state, int press);

// nx_send_focus sends a FocusIn (in set) or FocusOut to window w through
// XSendEvent (propagate off, the focus change mask), mode NotifyNormal and
// detail NotifyNonlinear, as a focus moving between two top-levels
// carries. The server's input focus does not move: only the clients that
// selected focus changes on w hear it, with send_event set. It flushes and
// returns 0 when Xlib could not convert the event.
int nx_send_focus(Display *dpy, Window w, int in);

#endif
