package atspi

import (
	"context"
	"strconv"
	"strings"
)

// Place ids: elements named by where they sit, not by their object path.
//
// Some containers that manage their descendants make a new object for a
// child each time they are asked for it. Qt 5's tree views do (a
// QAccessibleTree builds a fresh interface per child asked for, with a new
// path: measured with KeePassXC's group tree and entry list, whose header
// and cell paths differ in every read), so an id by path would change
// between any two reads and every token would go stale. Cells read
// through a table's Table interface (LibreOffice Calc's sheet) have no
// stable path either. Such elements get an id by place instead: the
// container's path, placeMark, and the child's index in it ("…/17#3") or
// its row and column ("…/17#3,1"). The client remembers the object each
// place id stood for in the last read; an id it does not remember is
// found again by asking the container (GetChildAtIndex, or the Table
// interface's GetAccessibleAt).

// placeMark separates a container's path from a place (never in a D-Bus
// object path).
const placeMark = "#"

// maxPlaces bounds the remembered places.
const maxPlaces = 100000

// childPlace is the path of child index of the container at path.
func childPlace(container string, index int32) string {
	return container + placeMark + strconv.Itoa(int(index))
}

// cellPlace is the path of the cell at row and column of the table at
// path.
func cellPlace(table string, row, col int32) string {
	return table + placeMark + strconv.Itoa(int(row)) + "," + strconv.Itoa(int(col))
}

// parsePlace splits a place path: the container's path and either a
// child index (col < 0) or a row and column. ok is false for a plain
// object path.
func parsePlace(path string) (container string, index, col int32, ok bool) {
	container, place, found := strings.Cut(path, placeMark)
	if !found {
		return "", 0, 0, false
	}
	a, b, cell := strings.Cut(place, ",")
	i, err := strconv.ParseInt(a, 10, 32)
	if err != nil || i < 0 {
		return "", 0, 0, false
	}
	if !cell {
		return container, int32(i), -1, true
	}
	j, err := strconv.ParseInt(b, 10, 32)
	if err != nil || j < 0 {
		return "", 0, 0, false
	}
	return container, int32(i), int32(j), true
}

// rememberPlace records the object a place id stands for now.
func (c *Client) rememberPlace(bus, place, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.places == nil || len(c.places) >= maxPlaces {
		c.places = map[string]string{}
	}
	c.places[bus+place] = path
}

// rememberBlockTable records that the table at path of app bus is read by
// its visible block, its cells named by place (hit-tests, cellAt).
func (c *Client) rememberBlockTable(bus, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.blockTables == nil || len(c.blockTables) >= maxPlaces {
		c.blockTables = map[string]bool{}
	}
	c.blockTables[bus+path] = true
}

// isBlockTable reports whether the table at path of app bus was read by
// its visible block.
func (c *Client) isBlockTable(bus, path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.blockTables[bus+path]
}

// recallPlace returns the object a place id stood for in the last read.
func (c *Client) recallPlace(bus, place string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.places[bus+place]
	return p, ok
}

// resolvePlace returns the object path a place path stands for: the one
// remembered from the last read, else the container's answer now. A
// container that no longer has the place makes the element stale.
func (c *Client) resolvePlace(ctx context.Context, bus, place string, t target) (string, error) {
	container, index, col, ok := parsePlace(place)
	if !ok {
		return place, nil
	}
	if p, ok := c.recallPlace(bus, place); ok {
		return p, nil
	}
	conn, err := c.connFor(ctx, bus)
	if err != nil {
		return "", mapErr(err, nil, ctx, t)
	}
	var rep *reply
	if col < 0 {
		rep, err = conn.call(ctx, bus, container, "org.a11y.atspi.Accessible", "GetChildAtIndex", index)
	} else {
		rep, err = conn.call(ctx, bus, container, "org.a11y.atspi.Table", "GetAccessibleAt", index, col)
	}
	if err != nil {
		return "", mapErr(err, conn, ctx, targetElement)
	}
	d := rep.decoder()
	b, p := d.ref()
	if d.err != nil || p == nullPath || p == "" || b != bus {
		return "", failure(KindStale, "the element no longer exists")
	}
	c.rememberPlace(bus, place, p)
	return p, nil
}

// isCellID reports whether an id names a table's cell by row and column
// (a cell of a visible block, tables.go).
func isCellID(id ID) bool {
	_, path, ok := splitID(id)
	if !ok {
		return false
	}
	_, _, col, ok := parsePlace(path)
	return ok && col >= 0
}
