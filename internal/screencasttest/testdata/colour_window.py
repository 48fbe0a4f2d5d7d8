#!/usr/bin/python3
"""A GTK 3 window of one solid colour, for the screen-cast tests.

Usage: /usr/bin/python3 colour_window.py TITLE RRGGBB WIDTH HEIGHT

The window is undecorated (no client-side title bar or shadow, so its
surface is exactly WIDTH by HEIGHT logical pixels) and filled with the
colour. It prints "ready" on stdout once it has drawn its first frame.
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def main():
    title, colour = sys.argv[1], sys.argv[2]
    width, height = int(sys.argv[3]), int(sys.argv[4])
    r, g, b = (int(colour[i:i + 2], 16) / 255.0 for i in (0, 2, 4))

    win = Gtk.Window(title=title)
    win.set_decorated(False)
    win.set_default_size(width, height)
    win.set_resizable(False)
    win.connect("destroy", Gtk.main_quit)

    area = Gtk.DrawingArea()
    area.set_size_request(width, height)
    drawn = []

    def on_draw(_widget, cr):
        cr.set_source_rgb(r, g, b)
        cr.paint()
        if not drawn:
            drawn.append(True)
            GLib.idle_add(lambda: print("ready", flush=True) and False)
        return False

    area.connect("draw", on_draw)
    win.add(area)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
