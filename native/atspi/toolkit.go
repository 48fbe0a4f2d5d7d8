package atspi

import (
	"context"
	"strings"
)

// Toolkit facts that change how the driver waits on an app.
//
// GTK 4 runs a button's accessible click as a keyboard activation: the
// button shows pressed for 250 ms (GTK's ACTIVATE_TIMEOUT) and only then
// clicks, sending no event in between. A settle that waits for 50 ms of
// quiet from the act would end before the click and report no change. For
// such an app the backend first waits for the app's first change after the
// act, within a bound, then for quiet (native/changes.go).

// actsLate reports whether apps of a toolkit act after the call returns:
// GTK 4 (above), and the browsers, whose accessible actions queue the
// page's work (a click runs the page's script on its own turn; Chromium
// relays it to the renderer process), so the page changes after the call.
func actsLate(toolkit, version string) bool {
	switch {
	case strings.EqualFold(toolkit, "GTK"):
		return strings.HasPrefix(version, "4.")
	case strings.EqualFold(toolkit, "Chromium"), strings.EqualFold(toolkit, "Gecko"):
		return true
	}
	return false
}

// ActsLate reports whether an app, named by its bus name, is known to act
// on an accessible action some time after the call returns (GTK 4, the
// browsers). It asks
// the app once (its Application interface's toolkit name and version) and
// remembers the answer; an app that does not answer is taken as acting at
// once, the way every other toolkit does.
func (c *Client) ActsLate(ctx context.Context, app string) bool {
	c.mu.Lock()
	late, known := c.late[app]
	c.mu.Unlock()
	if known {
		return late
	}
	name, version := c.toolkit(ctx, app)
	late = actsLate(name, version)
	if ctx.Err() == nil {
		c.mu.Lock()
		if c.late == nil {
			c.late = map[string]bool{}
		}
		c.late[app] = late
		c.mu.Unlock()
	}
	return late
}

// toolkit reads an app's toolkit name and version ("" when it does not say).
func (c *Client) toolkit(ctx context.Context, app string) (name, version string) {
	conn, err := c.connFor(ctx, app)
	if err != nil {
		return "", ""
	}
	p := newPipe(ctx)
	defer p.close()
	p.add(conn, 0, app, rootPath, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Application", "ToolkitName")
	p.add(conn, 1, app, rootPath, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Application", "Version")
	p.flush()
	for {
		r, ok, err := p.next()
		if err != nil || !ok {
			return name, version
		}
		if r.err != nil {
			continue
		}
		d := r.decoder()
		if d.sig() != "s" {
			continue
		}
		if s := d.str(); d.err == nil {
			if r.tag == 0 {
				name = s
			} else {
				version = s
			}
		}
	}
}
