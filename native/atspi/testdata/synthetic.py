#!/usr/bin/python3
"""A synthetic GTK3 window for the AT-SPI reader's tests and benchmarks.

Usage: /usr/bin/python3 synthetic.py [ROWS]

The window is titled "Synthetic ROWS rows". Each row holds a label, an entry,
a check box and a button (which sets the status label to "pressed row N"),
and every third row a combo box (with its popup menu and two items), about
5.4 accessibles a row; rows are grouped in grids of 25 in a scrolled window,
so most rows are below the fold. Above the rows sit a menu bar with a
File menu, a status label that a "Click me" button changes, an "Add row"
button that appends a label ("Added N") below the tree view each time it is
pressed (a structure change on demand), a password entry
holding a canary string that must never leave the driver, a spin button (the
Value interface), a multi-line text view, and a small tree view (a container
that manages its descendants). The script prints "ready" on stdout once the
window is shown and its accessibility tree is up.
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

CANARY = "CANARY-pw-7f3a"

# Rows sit in grids of this many rows. One grid holding thousands of widgets
# would make GTK's index-in-parent lookups (one list walk per element)
# quadratic, which is not what a real window looks like.
ROWS_PER_GRID = 25


def build(rows):
    win = Gtk.Window(title="Synthetic %d rows" % rows)
    win.set_default_size(900, 700)
    win.connect("destroy", Gtk.main_quit)

    outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    win.add(outer)

    menubar = Gtk.MenuBar()
    file_item = Gtk.MenuItem(label="File")
    file_menu = Gtk.Menu()
    for label in ("New", "Open", "Quit"):
        file_menu.append(Gtk.MenuItem(label=label))
    file_item.set_submenu(file_menu)
    menubar.append(file_item)
    outer.pack_start(menubar, False, False, 0)

    top = Gtk.Grid(column_spacing=6, row_spacing=4)
    outer.pack_start(top, False, False, 0)

    status = Gtk.Label(label="not clicked")
    top.attach(status, 0, 0, 1, 1)
    clicks = {"n": 0}

    def on_click(_button):
        clicks["n"] += 1
        status.set_text("clicked %d" % clicks["n"])

    click = Gtk.Button(label="Click me")
    click.connect("clicked", on_click)
    top.attach(click, 1, 0, 1, 1)

    password = Gtk.Entry()
    password.set_visibility(False)
    password.set_text(CANARY)
    password.get_accessible().set_name("Password")
    top.attach(password, 2, 0, 1, 1)

    spin = Gtk.SpinButton.new_with_range(0, 100, 1)
    spin.set_value(5)
    spin.get_accessible().set_name("Amount")
    top.attach(spin, 3, 0, 1, 1)

    notes = Gtk.TextView()
    notes.get_buffer().set_text("first line\nsecond line")
    notes.get_accessible().set_name("Notes")
    top.attach(notes, 4, 0, 1, 1)

    store = Gtk.ListStore(str, int)
    for name, qty in (("apples", 3), ("pears", 5), ("plums", 7)):
        store.append([name, qty])
    tree = Gtk.TreeView(model=store)
    for i, title in enumerate(("Fruit", "Qty")):
        tree.append_column(Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=i))
    tree.get_accessible().set_name("Fruit table")
    top.attach(tree, 0, 1, 5, 1)

    added = {"n": 0}

    def on_add(_button):
        added["n"] += 1
        label = Gtk.Label(label="Added %d" % added["n"])
        # Gtk.Container.add, not Gtk.Grid.attach: GTK 3 reports a new
        # child (children-changed) only for widgets added through the
        # container's "add" signal.
        top.add(label)
        top.child_set_property(label, "left-attach", 0)
        top.child_set_property(label, "top-attach", 1 + added["n"])
        label.show()

    add = Gtk.Button(label="Add row")
    add.connect("clicked", on_add)
    top.attach(add, 5, 0, 1, 1)

    def on_row_click(_button, r):
        status.set_text("pressed row %d" % r)

    scroller = Gtk.ScrolledWindow()
    scroller.set_vexpand(True)
    outer.pack_start(scroller, True, True, 0)
    rows_box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=2)
    scroller.add(rows_box)
    grid = None
    for r in range(rows):
        if r % ROWS_PER_GRID == 0:
            grid = Gtk.Grid(column_spacing=6, row_spacing=2)
            rows_box.pack_start(grid, False, False, 0)
        y = r % ROWS_PER_GRID
        grid.attach(Gtk.Label(label="Row %d" % r), 0, y, 1, 1)
        entry = Gtk.Entry()
        entry.set_text("value %d" % r)
        grid.attach(entry, 1, y, 1, 1)
        grid.attach(Gtk.CheckButton(label="Check %d" % r), 2, y, 1, 1)
        button = Gtk.Button(label="Button %d" % r)
        button.connect("clicked", on_row_click, r)
        grid.attach(button, 3, y, 1, 1)
        if r % 3 == 0:
            # A combo box brings its popup menu and one menu item per
            # choice; one row in three keeps the window near 5.3 elements
            # a row, like the fixture the spec's measurements used.
            combo = Gtk.ComboBoxText()
            for item in ("one", "two"):
                combo.append_text(item)
            combo.set_active(0)
            grid.attach(combo, 4, y, 1, 1)
    return win


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    win = build(rows)
    win.show_all()

    def announce():
        print("ready", flush=True)
        return False

    # Announce once the main loop has run the window's first frame, so the
    # accessibility bridge has registered the app and its window.
    GLib.timeout_add(200, announce)
    Gtk.main()


if __name__ == "__main__":
    main()
