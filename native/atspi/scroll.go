package atspi

import (
	"context"
	"errors"
	"math"
)

// Scrolling an element into view, for an act on an element that a
// scrolled view clips (through package native, for the engine). Two ways, both by
// accessibility calls alone, never the pointer or keys:
//
//  1. The element's own Component.ScrollTo (AT-SPI 2.30 and later), which
//     browsers answer by scrolling every view that holds the element. Its
//     boolean reply says whether the app did it.
//  2. For an app that declines it (GTK 3 answers false, and reports no
//     extents for a clipped widget, so where it lies is not known either),
//     the view's vertical scroll bar: its CurrentValue set to the share of
//     its range the engine estimated from the element's place in the
//     content. The engine checks the result and narrows the estimate down
//     when it missed.

// scrollAnywhere is ATSPI_SCROLL_ANYWHERE: scroll the least that brings
// the element into view.
const scrollAnywhere = 6

// ScrollIntoView asks the app to scroll element id into view: its own ScrollTo
// first, else hint's scroll bar to hint's position. It does not wait for
// the element to show. An app that declines ScrollTo, with no scroll bar
// to use, is KindRefused.
func (c *Client) ScrollIntoView(ctx context.Context, id ID, hint ScrollHint) error {
	conn, bus, path, _, err := c.reach(ctx, id, targetAct)
	if err != nil {
		return err
	}
	r, err := conn.call(ctx, bus, path, "org.a11y.atspi.Component", "ScrollTo", uint32(scrollAnywhere))
	if err == nil && boolResult(r) {
		return nil
	}
	if err != nil {
		// A D-Bus error reply is the app declining (an old toolkit has no
		// ScrollTo); a gone app or one that does not answer ends here.
		var de *dbusError
		m := mapErr(err, conn, ctx, targetAct)
		if !errors.As(err, &de) || m.Kind == KindGone || m.Kind == KindNotResponding {
			return m
		}
	}
	if hint.ScrollBar == "" {
		return failure(KindRefused, "the app did not scroll the element into view, and its view has no scroll bar")
	}
	return c.setScrollBar(ctx, hint, bus)
}

// setScrollBar moves hint's scroll bar (of app bus) to hint's position (0
// to 1) of its range, or by hint's delta from its current value (a GTK
// scroll bar counts pixels): MinimumValue, MaximumValue and CurrentValue
// read one property at a time, then CurrentValue set.
func (c *Client) setScrollBar(ctx context.Context, hint ScrollHint, app string) error {
	bus, path, _, err := c.parseID(ctx, hint.ScrollBar, targetAct)
	if err != nil {
		return err
	}
	if bus != app {
		return failure(KindRefused, "the scroll bar belongs to another app")
	}
	conn, err := c.connFor(ctx, bus)
	if err != nil {
		return mapErr(err, nil, ctx, targetAct)
	}
	p := newPipe(ctx)
	defer p.close()
	p.add(conn, call{kind: kindValueMin}, bus, path, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Value", "MinimumValue")
	p.add(conn, call{kind: kindValueMax}, bus, path, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Value", "MaximumValue")
	p.add(conn, call{kind: kindValue}, bus, path, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Value", "CurrentValue")
	p.flush()
	var lo, hi, cur float64
	for r, err := range p.answers() {
		if err != nil {
			return mapErr(err, conn, ctx, targetAct)
		}
		if r.err != nil {
			return mapErr(r.err, conn, ctx, targetAct)
		}
		d := r.decoder()
		if d.sig() != "d" {
			return failure(KindRefused, "the scroll bar has no numeric range")
		}
		x := d.float64()
		if d.err != nil {
			return mapErr(d.err, conn, ctx, targetAct)
		}
		switch r.kind {
		case kindValueMin:
			lo = x
		case kindValueMax:
			hi = x
		case kindValue:
			cur = x
		}
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsNaN(cur) || hi < lo {
		return failure(KindRefused, "the scroll bar's range is not usable")
	}
	v := lo + math.Max(0, math.Min(1, hint.Position))*(hi-lo)
	if hint.Delta != 0 {
		v = math.Max(lo, math.Min(hi, cur+float64(hint.Delta)))
	}
	_, err = conn.call(ctx, bus, path, "org.freedesktop.DBus.Properties", "Set", "org.a11y.atspi.Value", "CurrentValue", variantDouble(v))
	if err != nil {
		return mapErr(err, conn, ctx, targetAct)
	}
	return nil
}
