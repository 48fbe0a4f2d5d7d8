#!/usr/bin/python3
"""A live pyatspi walk of one window: the reference the Go reader is checked
against and the baseline its benchmark is measured against.

Usage: /usr/bin/python3 walk.py PID TITLE_PREFIX [REPEAT]

Finds the top-level child of the application with process id PID whose name
starts with TITLE_PREFIX (an empty prefix takes the first top-level child),
walks its subtree in pre-order with synchronous calls, and prints one line
per element: depth, role name and name, tab-separated (tabs and newlines in
names are escaped as \\t and \\n). With REPEAT > 0 it walks that many times
and prints, instead, one line "elements N ms M" per walk.
"""

import sys
import time

from busapps import find_frame


def esc(s):
    return (s or "").replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def walk(node, depth, out):
    out.append((depth, node.getRoleName(), node.name))
    for i in range(node.childCount):
        child = node.getChildAtIndex(i)
        if child is not None:
            walk(child, depth + 1, out)


def main():
    pid = int(sys.argv[1])
    prefix = sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    sys.setrecursionlimit(10000)
    frame = find_frame(pid, prefix)
    if frame is None:
        print("no frame", file=sys.stderr)
        sys.exit(2)
    if repeat > 0:
        for _ in range(repeat):
            out = []
            start = time.perf_counter()
            walk(frame, 0, out)
            ms = (time.perf_counter() - start) * 1000
            print("elements %d ms %.1f" % (len(out), ms), flush=True)
        return
    out = []
    walk(frame, 0, out)
    lines = ["%d\t%s\t%s" % (d, esc(r).replace(" ", "_"), esc(n)) for d, r, n in out]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
