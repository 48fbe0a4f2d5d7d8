package atspi

import (
	"context"
	"strings"
)

// The coordinate types of AT-SPI's extents and points, in the app's own
// (logical) pixels: ATSPI_COORD_TYPE_SCREEN is relative to the screen's
// top-left, ATSPI_COORD_TYPE_WINDOW to the window's. On X11 the driver asks
// in screen coordinates, the space X geometry comes in. On Wayland no
// client knows where a window is: apps answer SCREEN with their
// window-relative extents, and GTK 4 with 0,0 for every element, so there
// the driver asks in window coordinates (Options.WindowCoordinates). GTK 3
// answers GetAccessibleAtPoint in screen and window coordinates alike.
//
// Qt is the exception: its window coordinates are wrong (Qt 5.15's bridge,
// getRelativeRect, sets an element's top to its x less the window's y and
// moves its edges instead of the rectangle, so a toolbar button at 4,26
// reads 4,4 and 51 high, and buttons right of the middle get negative
// heights), while on Wayland its screen coordinates are the window's own
// (a Qt window there is at 0,0 as far as Qt knows: its frame reads 0,0 in
// screen coordinates, measured with KeePassXC and FeatherPad under
// mutter). So a Qt app is asked in screen coordinates on Wayland too.
const (
	coordScreen = uint32(0)
	coordWindow = uint32(1)
)

// coordType is the coordinate type every extents and point call of the
// client to the app at bus uses. On Wayland it asks the app's toolkit
// (once per app, remembered): call it before queuing calls on a pipe.
func (c *Client) coordType(ctx context.Context, bus string) uint32 {
	if !c.opts.WindowCoordinates || windowCoordinatesWrong(c.ToolkitName(ctx, bus)) {
		return coordScreen
	}
	return coordWindow
}

// windowCoordinatesWrong reports whether apps of a toolkit answer wrong
// extents in window coordinates and window-relative ones in screen
// coordinates on Wayland (Qt, above).
func windowCoordinatesWrong(toolkit string) bool {
	return strings.EqualFold(toolkit, "Qt")
}

// maxHitDepth bounds the walk down a window's elements at a point.
const maxHitDepth = 64

// ElementsAt lists the elements of a window's frame at a point (in the
// app's pixels, in the client's coordinate type), outermost first: the frame's child
// holding the point, that child's child holding it, and so on, one
// Component.GetAccessibleAtPoint per level (GTK 3 answers one level at a
// time; a toolkit that answers with the deepest element at once ends the
// walk sooner). The frame is not listed. An element that does not answer
// (no Component interface) ends the walk where it is.
func (c *Client) ElementsAt(ctx context.Context, frame ID, x, y int) ([]ID, error) {
	bus, path, tag, err := c.parseID(ctx, frame, targetFrame)
	if err != nil {
		return nil, err
	}
	coords := c.coordType(ctx, bus)
	var chain []ID
	for depth := 0; depth < maxHitDepth; depth++ {
		conn, err := c.connFor(ctx, bus)
		if err != nil {
			return nil, mapErr(err, nil, ctx, targetFrame)
		}
		rep, err := conn.call(ctx, bus, path, "org.a11y.atspi.Component", "GetAccessibleAtPoint", int32(x), int32(y), coords)
		if err != nil {
			if depth > 0 && !errConnGone(err) && ctx.Err() == nil {
				break // an element without Component: the walk ends there
			}
			return nil, mapErr(err, conn, ctx, targetFrame)
		}
		d := rep.decoder()
		b, p := d.ref()
		if d.err != nil || b == "" || p == nullPath || (b == bus && p == path) {
			break
		}
		if b == bus && c.isBlockTable(bus, path) {
			// A cell of a table read by its visible block: the read
			// named it by its place, row and column, which its name (its
			// address) gives; a cell that names no address is left out
			// (the hit-test then finds the target not at the point).
			if place, ok := c.cellPlaceAt(ctx, conn, bus, path, p); ok {
				chain = append(chain, c.mintID(tag, b, place))
			}
			break
		}
		chain = append(chain, c.mintID(tag, b, p))
		bus, path = b, p
	}
	return chain, nil
}

// cellPlaceAt is the place path of the cell at object path cell of the
// table at path table: its row and column from its name, a sheet's
// address ("V40"), by one Properties.Get of Name. The object is
// remembered for the place, as a read does.
func (c *Client) cellPlaceAt(ctx context.Context, conn *wireConn, bus, table, cell string) (string, bool) {
	rep, err := conn.call(ctx, bus, cell, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
	if err != nil {
		return "", false
	}
	d := rep.decoder()
	if d.sig() != "s" {
		return "", false
	}
	row, col, ok := parseCellAddress(d.str())
	if !ok || d.err != nil {
		return "", false
	}
	place := cellPlace(table, row, col)
	c.rememberPlace(bus, place, cell)
	return place, true
}

// Extents reads one element's extents (in the app's pixels, screen or
// window coordinates as the client asks, coordType): one
// Component.GetExtents.
func (c *Client) Extents(ctx context.Context, id ID) (Rect, error) {
	conn, bus, path, _, err := c.reach(ctx, id, targetFrame)
	if err != nil {
		return Rect{}, err
	}
	rep, err := conn.call(ctx, bus, path, "org.a11y.atspi.Component", "GetExtents", c.coordType(ctx, bus))
	if err != nil {
		return Rect{}, mapErr(err, conn, ctx, targetFrame)
	}
	d := rep.decoder()
	d.align(8)
	x, y, w, h := d.int32(), d.int32(), d.int32(), d.int32()
	if d.err != nil {
		return Rect{}, mapErr(d.err, conn, ctx, targetFrame)
	}
	return Rect{X: int(x), Y: int(y), W: int(w), H: int(h)}, nil
}
