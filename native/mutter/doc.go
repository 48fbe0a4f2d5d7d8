// Package mutter is a client of mutter's own screen-cast API,
// org.gnome.Mutter.ScreenCast on the session bus: the way the driver sees
// a window's pixels on a GNOME Wayland desktop, where no client may read
// another's surface. It is pure Go over godbus; the pixels themselves come
// through PipeWire, which this package does not touch: Capture hands the
// stream's PipeWire node id to a function the caller gives (package native
// joins it to native/pipewire), so the two layers stay apart.
//
// One capture is one session (mutter 43.8, src/backends/meta-screen-cast*.c
// and data/dbus-interfaces/org.gnome.Mutter.ScreenCast.xml):
// CreateSession({}) on /org/gnome/Mutter/ScreenCast, then on the session
// RecordWindow, RecordMonitor or RecordArea, Start, the stream's
// PipeWireStreamAdded(node_id) signal, the frame, Stop. Mutter ties a
// session to the caller's unique bus name (check_permission compares the
// sender with the session's peer), so every call of a capture goes over
// the Client's one connection; it has no other caller check in 43.
//
// Which window: RecordWindow takes "window-id" (t), mutter's own window
// id (MetaWindow.id, meta_display_generate_window_id: a random base plus a
// counter, unrelated to X ids, Wayland objects or AT-SPI), and without it
// records meta_display_get_focus_window. Nothing an ordinary client can
// read maps a window to that id: org.gnome.Shell.Introspect.GetWindows
// lists the ids but lives in gnome-shell (not plain mutter) and answers
// only allow-listed callers since GNOME 41. So the driver captures a
// Wayland window only while it has focus (its AT-SPI frame is `active`),
// and asks for a window it knows only from AT-SPI with FocusedWindow();
// ErrNoFocusedWindow when nothing has focus.
//
// Sizes: a window stream is as large as the window's logical monitor
// times ceil(scale) when the stage views are scaled (else times 1), never
// the window's size, because streams cannot be resized; the window is
// drawn at the buffer's top-left and the filled region is sent as the
// SPA_META_VideoCrop meta, in buffer pixels (the surface's size times its
// buffer scale, client-side shadows included). The stream's Parameters
// "size" is the monitor's logical size, not the window's.
package mutter
