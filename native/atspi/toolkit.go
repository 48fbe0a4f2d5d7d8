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

// Family is the toolkit family an app's ToolkitName falls into: the one
// reading of the names apps give, for this package's toolkit facts and the
// backend's accessibility hints. The app's own words are only matched,
// never passed on.
type Family string

const (
	FamilyNone        Family = ""
	FamilyChromium    Family = "chromium"    // Chromium, Chrome, Electron
	FamilyGecko       Family = "gecko"       // Firefox, Thunderbird
	FamilyQt          Family = "qt"          // Qt 5 and 6
	FamilyLibreOffice Family = "libreoffice" // LibreOffice's VCL
	FamilyGTK         Family = "gtk"         // GTK 3 and 4 (GAIL: GTK 2)
)

// FamilyOf names the family of a ToolkitName, FamilyNone for a name it
// does not know.
func FamilyOf(name string) Family {
	n := strings.ToLower(strings.TrimSpace(name))
	switch {
	case n == "":
		return FamilyNone
	case strings.Contains(n, "chrom"), strings.Contains(n, "electron"):
		return FamilyChromium
	case strings.Contains(n, "gecko"), strings.Contains(n, "mozilla"), strings.Contains(n, "firefox"):
		return FamilyGecko
	case strings.HasPrefix(n, "qt"):
		return FamilyQt
	case n == "vcl", strings.Contains(n, "libreoffice"), strings.Contains(n, "openoffice"):
		return FamilyLibreOffice
	case strings.HasPrefix(n, "gtk"), n == "gail":
		return FamilyGTK
	}
	return FamilyNone
}

// actsLate reports whether apps of a toolkit act after the call returns:
// GTK 4 (above), and the browsers, whose accessible actions queue the
// page's work (a click runs the page's script on its own turn; Chromium
// relays it to the renderer process), so the page changes after the call.
func actsLate(toolkit, version string) bool {
	switch FamilyOf(toolkit) {
	case FamilyGTK:
		return strings.HasPrefix(version, "4.")
	case FamilyChromium, FamilyGecko:
		return true
	}
	return false
}

// writesText reports whether apps of a toolkit apply text written through
// the EditableText interface. Firefox (Gecko) offers the interface on its
// page's fields and answers InsertText and SetTextContents with true, yet
// the field does not change (measured with Firefox ESR 140, with and
// without the field focused): its page content lives in another process
// and the parent's copy does not pass the edit on. Chromium offers no
// EditableText at all. Both need a takeover to type.
func writesText(toolkit string) bool {
	return FamilyOf(toolkit) != FamilyGecko
}

// keysToWindow reports whether apps of a toolkit take what is typed into
// a field as key events sent to their window alone (the window_keys path,
// docs/decisions.md, "Window keys"): Gecko and Chromium (Electron apps
// too). Measured with Firefox ESR 140 on X11: Component.GrabFocus moves the
// page's focus and neither the X input focus nor the stacking, and key
// events sent with XSendEvent to the top-level window type into that field
// while another window holds the focus. Chromium 148 does the same only
// while it believes its window holds the focus (keysNeedActiveWindow).
func keysToWindow(toolkit string) bool {
	f := FamilyOf(toolkit)
	return f == FamilyGecko || f == FamilyChromium
}

// keysNeedActiveWindow reports whether apps of a toolkit take keys sent to
// their window only while they believe it holds the X focus, and activate
// the window (take the X focus, raise it) when a field is focused while
// they believe it does not: Chromium. Measured with Chromium 148 on X11
// without a window manager: GrabFocus on a page field raised its window
// and took the X focus; keys sent while another window held the focus were
// dropped. After a synthetic FocusIn sent to its window (the X focus left
// where it was), GrabFocus moved neither the focus nor the stacking, the
// keys typed, and after a synthetic FocusOut it dropped keys again.
func keysNeedActiveWindow(toolkit string) bool {
	return FamilyOf(toolkit) == FamilyChromium
}

// WritesText reports whether an app, named by its bus name, applies text
// written through accessibility (see writesText). An app that does not
// say its toolkit is taken at its interfaces' word.
func (c *Client) WritesText(ctx context.Context, app string) bool {
	return writesText(c.ToolkitName(ctx, app))
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

// ToolkitName returns the toolkit name an app gives (org.a11y.atspi.Application
// ToolkitName: "GTK", "Qt", "Chromium", "Gecko", ...; untrusted app text),
// "" when it does not say. It is asked once per app.
func (c *Client) ToolkitName(ctx context.Context, app string) string {
	name, _ := c.toolkit(ctx, app)
	return name
}

// toolkit returns an app's toolkit name and version ("" when it does not
// say), asking the app with one Properties.Get each the first time and
// remembering a complete answer.
func (c *Client) toolkit(ctx context.Context, app string) (name, version string) {
	c.mu.Lock()
	kit, known := c.kits[app]
	c.mu.Unlock()
	if known {
		return kit[0], kit[1]
	}
	name, version, complete := c.askToolkit(ctx, app)
	if complete {
		c.mu.Lock()
		if c.kits == nil || len(c.kits) > 1000 {
			c.kits = map[string][2]string{}
		}
		c.kits[app] = [2]string{name, version}
		c.mu.Unlock()
	}
	return name, version
}

// askToolkit asks an app for its toolkit name and version; complete is
// false when the app did not answer both.
func (c *Client) askToolkit(ctx context.Context, app string) (name, version string, complete bool) {
	conn, err := c.connFor(ctx, app)
	if err != nil {
		return "", "", false
	}
	p := newPipe(ctx)
	defer p.close()
	p.add(conn, call{kind: kindToolkit}, app, rootPath, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Application", "ToolkitName")
	p.add(conn, call{kind: kindVersion}, app, rootPath, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Application", "Version")
	p.flush()
	answered := 0
	for {
		r, ok, err := p.next()
		if err != nil || !ok {
			return name, version, err == nil && answered == 2
		}
		answered++
		if r.err != nil {
			continue
		}
		d := r.decoder()
		if d.sig() != "s" {
			continue
		}
		if s := d.str(); d.err == nil {
			if r.kind == kindToolkit {
				name = s
			} else {
				version = s
			}
		}
	}
}
