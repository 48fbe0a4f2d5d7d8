#!/usr/bin/python3
"""How many characters each password field of an app holds, never what.

Usage: /usr/bin/python3 secure_lengths.py PID

Walks the first window of the application with process id PID and prints,
for every element whose role is password_text, one line "focused N" or
"unfocused N" with its Text interface's character count. A test waits on
it to know that keys a simulated person typed reached the field; the text
itself is never asked for.
"""

import sys

import pyatspi

from busapps import find_frame


def main():
    frame = find_frame(int(sys.argv[1]))
    if frame is not None:
        visit(frame)


def visit(node):
    if node.getRole() == pyatspi.ROLE_PASSWORD_TEXT:
        focused = node.getState().contains(pyatspi.STATE_FOCUSED)
        try:
            n = node.queryText().characterCount
        except Exception:
            n = -1
        print("%s %d" % ("focused" if focused else "unfocused", n), flush=True)
        return
    for i in range(node.childCount):
        child = node.getChildAtIndex(i)
        if child is not None:
            visit(child)


if __name__ == "__main__":
    main()
