#!/usr/bin/python3
"""A GTK 3 window of twelve buttons, for the takeover's HiDPI tests.

Usage: GDK_SCALE=2 /usr/bin/python3 buttons.py [TITLE [X Y]]

The window (default title "Twelve buttons") holds a status label reading
"none clicked" and twelve buttons "button 1" .. "button 12" in a grid of
four columns and three rows. Each button's handler sets the label to
"clicked button N" and prints the same line on stdout, so a test can tell
which element a click reached however the driver read the window. The
window asks to be placed at X,Y (logical pixels; default 40,40). The
script prints "ready" once the window is shown.

SIGUSR1 swaps the places of button 4 and button 9 in the grid: their
frames move, and nothing else of the tree changes (the same children, in
the same order, under the same parent), as a layout that moved after a
read.

The scale comes from the environment as GTK 3 reads it: GDK_SCALE (an
integer: GTK 3 draws every logical pixel as GDK_SCALE device pixels and
reports its accessibility extents in logical pixels) and GDK_DPI_SCALE
(text only: bigger text and so bigger buttons, but one logical pixel is
still one device pixel).
"""

import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def build(title, x, y):
    win = Gtk.Window(title=title)
    win.connect("destroy", Gtk.main_quit)
    win.move(x, y)

    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    box.set_border_width(8)
    win.add(box)
    status = Gtk.Label(label="none clicked")
    box.pack_start(status, False, False, 0)

    grid = Gtk.Grid(column_spacing=6, row_spacing=6)
    box.pack_start(grid, False, False, 0)

    def on_click(button, n):
        status.set_text("clicked button %d" % n)
        print("clicked button %d" % n, flush=True)

    buttons = []
    for i in range(12):
        b = Gtk.Button(label="button %d" % (i + 1))
        b.set_size_request(90, 32)
        b.connect("clicked", on_click, i + 1)
        grid.attach(b, i % 4, i // 4, 1, 1)
        buttons.append(b)

    def swap():
        a, b = buttons[3], buttons[8]
        pa = [grid.child_get_property(a, k) for k in ("left-attach", "top-attach")]
        pb = [grid.child_get_property(b, k) for k in ("left-attach", "top-attach")]
        for w, (x, y) in ((a, pb), (b, pa)):
            grid.child_set_property(w, "left-attach", x)
            grid.child_set_property(w, "top-attach", y)
        print("swapped", flush=True)
        return True

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, swap)
    win.show_all()
    return win


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Twelve buttons"
    x, y = 40, 40
    if len(sys.argv) > 3:
        x, y = int(sys.argv[2]), int(sys.argv[3])
    build(title, x, y)
    # Say ready once the main loop runs (the window is mapped by then).
    GLib.timeout_add(200, lambda: print("ready", flush=True) and False)
    Gtk.main()


if __name__ == "__main__":
    main()
