#!/usr/bin/python3
"""The reference for containers with MANAGES_DESCENDANTS (a spreadsheet's
sheet, a word processor's document, big lists and trees): what a careful
client can learn of them without enumerating their children.

Usage: /usr/bin/python3 containers.py PID

Walks the first window of the application with process id PID in
pre-order, never asking a MANAGES_DESCENDANTS container for its children
by index beyond the first 200 (Calc's sheet claims 2^31 - 1), and prints
one JSON object per such container, then a last line "walked N ms M":
the elements visited outside those containers and the time taken.

Each container's object holds its role, name, child count and extents;
with the Table interface, its row and column counts and the visible block
(the cells from row 0 and column 0 on whose state has SHOWING, found by
GetAccessibleAt), with the text of its first cells; without it, how many
of its first 200 children show, and the text (Text.GetText) of the first
and last of them.
"""

import json
import sys
import time

import pyatspi

from busapps import find_app

PEEK = 200  # children asked of a container without the Table interface
SCAN = 500  # rows or columns scanned for the visible block, at most


def extents(acc):
    try:
        e = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return [e.x, e.y, e.width, e.height]
    except Exception:
        return None


def showing(acc):
    return acc.getState().contains(pyatspi.STATE_SHOWING)


def text_of(acc):
    try:
        return acc.queryText().getText(0, -1)
    except Exception:
        return None


def describe_table(acc, table, out):
    rows, cols = table.nRows, table.nColumns
    out["rows"], out["columns"] = rows, cols
    start = time.perf_counter()
    nrows = 0
    while nrows < min(rows, SCAN) and showing(table.getAccessibleAt(nrows, 0)):
        nrows += 1
    ncols = 0
    while ncols < min(cols, SCAN) and showing(table.getAccessibleAt(0, ncols)):
        ncols += 1
    cells = []
    for r in range(min(nrows, 3)):
        for c in range(min(ncols, 3)):
            cell = table.getAccessibleAt(r, c)
            cells.append({"row": r, "column": c, "name": cell.name, "role": cell.getRoleName(),
                          "text": text_of(cell), "index": cell.getIndexInParent(),
                          "extents": extents(cell)})
    out["visible_rows"], out["visible_columns"] = nrows, ncols
    out["first_cells"] = cells
    try:
        below = table.getAccessibleAt(nrows + 5, 0)
        out["cell_below_block"] = {"name": below.name, "showing": showing(below), "extents": extents(below)}
    except Exception as e:
        out["cell_below_block"] = str(e)
    try:
        out["column_header_0"] = None if table.getColumnHeader(0) is None else table.getColumnHeader(0).name
        out["row_header_0"] = None if table.getRowHeader(0) is None else table.getRowHeader(0).name
    except Exception as e:
        out["headers"] = str(e)
    out["visible_block_ms"] = round((time.perf_counter() - start) * 1000, 1)


def describe_children(acc, out):
    n = min(acc.childCount, PEEK)
    kids = [acc.getChildAtIndex(i) for i in range(n)]
    shown = [k for k in kids if k is not None and showing(k)]
    out["children_peeked"], out["children_showing"] = n, len(shown)
    if shown:
        out["first_child"] = {"role": shown[0].getRoleName(), "name": shown[0].name, "text": text_of(shown[0]),
                              "states": [pyatspi.stateToString(s) for s in shown[0].getState().getStates()],
                              "interfaces": list(shown[0].get_interfaces())}
        out["last_child"] = {"role": shown[-1].getRoleName(), "text": text_of(shown[-1])}


def main():
    pid = int(sys.argv[1])
    app = find_app(pid)
    if app is None or app.childCount == 0:
        print("no window", file=sys.stderr)
        sys.exit(2)
    sys.setrecursionlimit(10000)
    start = time.perf_counter()
    visited = [0]

    def walk(acc):
        visited[0] += 1
        if acc.getState().contains(pyatspi.STATE_MANAGES_DESCENDANTS):
            out = {"role": acc.getRoleName(), "name": acc.name, "child_count": acc.childCount,
                   "extents": extents(acc), "showing": showing(acc)}
            try:
                describe_table(acc, acc.queryTable(), out)
            except NotImplementedError:
                describe_children(acc, out)
            print(json.dumps(out), flush=True)
            return
        for i in range(acc.childCount):
            child = acc.getChildAtIndex(i)
            if child is not None:
                walk(child)

    walk(app.getChildAtIndex(0))
    print("walked %d ms %.1f" % (visited[0], (time.perf_counter() - start) * 1000))


if __name__ == "__main__":
    main()
