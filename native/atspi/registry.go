package atspi

import (
	"context"
	"sync"
	"time"
)

// App is an application registered on the accessibility bus.
type App struct {
	Bus  string // its unique bus name, ":1.42"
	Name string // the AT-SPI application name (untrusted app text)
	Pid  int
	// Err is set (an *Error of KindNotResponding) when the app did
	// not answer in time; Name is then empty.
	Err error
}

// Frame is one top-level accessible of an app: a window.
type Frame struct {
	ID      ID
	Bus     string
	Pid     int
	AppName string // untrusted
	Role    string
	Name    string // the window title as the app tells it (untrusted)
	States  []string
	Path    string // its object path on Bus: with Bus, the window's identity on the bus
	Extents Rect   // root (screen) coordinates, or the window's own (Options.WindowCoordinates)
}

// listBound bounds how long one app may take to answer while apps or
// windows are listed: a stopped app must not hold up the list.
const listBound = 500 * time.Millisecond

const (
	registryName = "org.a11y.atspi.Registry"
	rootPath     = "/org/a11y/atspi/accessible/root"
)

// Apps lists the apps on the accessibility bus with their pids and names.
// An app that does not answer within a short bound is listed with Err set.
func (c *Client) Apps(ctx context.Context) ([]App, error) {
	bus, err := c.busConn(ctx)
	if err != nil {
		return nil, err
	}
	rep, err := bus.call(ctx, registryName, rootPath, "org.a11y.atspi.Accessible", "GetChildren")
	if err != nil {
		return nil, c.busErr(err, bus, ctx)
	}
	d := rep.decoder()
	end := d.array(8)
	var apps []App
	for d.more(end) {
		name, _ := d.ref()
		if name != "" {
			apps = append(apps, App{Bus: name})
		}
	}
	if d.err != nil {
		return nil, mapErr(d.err, bus, ctx, targetApp)
	}
	// A silent app (silent.go) is not asked its name: the bus daemon
	// still gives its pid.
	silent := c.silent.silentNow(apps)
	lctx, cancel := context.WithTimeout(ctx, listBound)
	defer cancel()
	p := newPipe(lctx)
	defer p.close()
	named := make([]bool, len(apps))
	for i, a := range apps {
		p.add(bus, call{target: i, kind: kindPid}, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID", a.Bus)
		if silent[a.Bus] {
			apps[i].Err, named[i] = errSilent, true
			c.markSilent(a.Bus)
			continue
		}
		p.add(bus, call{target: i, kind: kindName}, a.Bus, rootPath, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Accessible", "Name")
	}
	p.flush()
	for {
		r, ok, err := p.next()
		if err != nil || !ok {
			break
		}
		a := &apps[r.target]
		if r.err != nil {
			if r.kind == kindName {
				a.Err = mapErr(r.err, bus, lctx, targetApp)
				named[r.target] = true
				if listingMissed(ctx, a.Err) {
					c.markSilent(a.Bus)
				}
			}
			continue
		}
		d := r.decoder()
		if r.kind == kindPid {
			a.Pid = int(d.uint32())
			continue
		}
		if d.sig() == "s" {
			a.Name = d.str()
		}
		named[r.target] = true
	}
	if ctx.Err() != nil {
		return nil, mapErr(ctx.Err(), bus, ctx, targetApp)
	}
	for i := range apps {
		if !named[i] {
			apps[i].Err = failure(KindNotResponding, "the app did not answer within the call's time bound")
			c.markSilent(apps[i].Bus)
		}
	}
	return apps, nil
}

// AskAgain asks an app that did not answer a listing in time (its Err
// set) again, within ctx's bound instead of the listing's: its name, then
// its frames. It returns the app as answered (Err cleared) and its frames.
func (c *Client) AskAgain(ctx context.Context, app App) (App, []Frame, error) {
	conn, err := c.connFor(ctx, app.Bus)
	if err != nil {
		return app, nil, mapErr(err, nil, ctx, targetApp)
	}
	rep, err := conn.call(ctx, app.Bus, rootPath, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
	if err != nil {
		return app, nil, mapErr(err, conn, ctx, targetApp)
	}
	if d := rep.decoder(); d.sig() == "s" {
		if name := d.str(); d.err == nil {
			app.Name = name
		}
	}
	app.Err = nil
	c.silent.answered(app.Bus)
	frames, err := c.Frames(ctx, app)
	if err != nil {
		return app, nil, err
	}
	return app, frames, nil
}

// busErr maps a failure of a call to the bus itself: the bus is unreachable.
func (c *Client) busErr(err error, bus *wireConn, ctx context.Context) error {
	if ctx.Err() != nil {
		return wrapFailure(KindUnavailable, err, "the accessibility bus did not answer in time")
	}
	return wrapFailure(KindUnavailable, err, "the accessibility registry did not answer")
}

// Frames lists an app's top-level windows (children of its application
// object whose role is frame, window, dialog, alert or a chooser), with
// their titles, states and screen extents.
func (c *Client) Frames(ctx context.Context, app App) ([]Frame, error) {
	conn, err := c.connFor(ctx, app.Bus)
	if err != nil {
		return nil, mapErr(err, nil, ctx, targetApp)
	}
	rep, err := conn.call(ctx, app.Bus, rootPath, "org.a11y.atspi.Accessible", "GetChildren")
	if err != nil {
		return nil, mapErr(err, conn, ctx, targetApp)
	}
	tag := c.genTag()
	d := rep.decoder()
	end := d.array(8)
	var frames []Frame
	var paths []string
	for d.more(end) {
		b, path := d.ref()
		if path == nullPath || b == "" {
			continue
		}
		frames = append(frames, Frame{ID: c.mintID(tag, b, path), Bus: b, Path: path, Pid: app.Pid, AppName: app.Name})
		paths = append(paths, path)
	}
	if d.err != nil {
		return nil, mapErr(d.err, conn, ctx, targetApp)
	}
	// A frame is asked in the client's coordinate type without asking the
	// app's toolkit (coordType): listing stays one round of calls, and
	// what a Wayland listing uses, the frame's size, every toolkit gives
	// right in window coordinates (Qt's are wrong for what lies away from
	// the window's corner, not for the window itself, at its own 0,0).
	coords := coordScreen
	if c.opts.WindowCoordinates {
		coords = coordWindow
	}
	p := newPipe(ctx)
	defer p.close()
	for i, f := range frames {
		w := conn
		if f.Bus != app.Bus {
			if w, err = c.connFor(ctx, f.Bus); err != nil {
				return nil, mapErr(err, nil, ctx, targetApp)
			}
		}
		path := paths[i]
		p.add(w, call{target: i, kind: kindRole}, f.Bus, path, "org.a11y.atspi.Accessible", "GetRole")
		p.add(w, call{target: i, kind: kindState}, f.Bus, path, "org.a11y.atspi.Accessible", "GetState")
		p.add(w, call{target: i, kind: kindName}, f.Bus, path, "org.freedesktop.DBus.Properties", "Get", "org.a11y.atspi.Accessible", "Name")
		p.add(w, call{target: i, kind: kindExtents}, f.Bus, path, "org.a11y.atspi.Component", "GetExtents", coords)
	}
	p.flush()
	gone := make([]bool, len(frames))
	for r, err := range p.answers() {
		if err != nil {
			return nil, mapErr(err, conn, ctx, targetApp)
		}
		f := &frames[r.target]
		if r.err != nil {
			if isGone(r.err) {
				gone[r.target] = true
				continue
			}
			if r.kind != kindExtents { // a window without extents is still a window
				return nil, mapErr(r.err, conn, ctx, targetApp)
			}
			continue
		}
		d := r.decoder()
		switch r.kind {
		case kindRole:
			f.Role = RoleName(d.uint32())
		case kindState:
			f.States = stateNames(decodeStates(d))
		case kindName:
			if d.sig() == "s" {
				f.Name = d.str()
			}
		case kindExtents:
			d.align(8)
			x, y, w, h := d.int32(), d.int32(), d.int32(), d.int32()
			if d.err == nil {
				f.Extents = Rect{X: int(x), Y: int(y), W: int(w), H: int(h)}
			}
		}
	}
	out := frames[:0]
	for i, f := range frames {
		if !gone[i] && topLevelRoles[f.Role] {
			out = append(out, f)
		}
	}
	return out, nil
}

// AllFrames lists the windows of every app, asking the apps concurrently.
// An app that does not answer within a short bound contributes no windows
// and is returned in the app list with Err set.
func (c *Client) AllFrames(ctx context.Context) ([]Frame, []App, error) {
	apps, err := c.Apps(ctx)
	if err != nil {
		return nil, nil, err
	}
	lists := make([][]Frame, len(apps))
	var wg sync.WaitGroup
	for i := range apps {
		if apps[i].Err != nil {
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			actx, cancel := context.WithTimeout(ctx, listBound)
			defer cancel()
			fr, err := c.Frames(actx, apps[i])
			if err != nil {
				apps[i].Err = err
				if listingMissed(ctx, err) {
					c.markSilent(apps[i].Bus)
				}
				return
			}
			lists[i] = fr
		}(i)
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, nil, mapErr(ctx.Err(), nil, ctx, targetApp)
	}
	var all []Frame
	for _, l := range lists {
		all = append(all, l...)
	}
	return all, apps, nil
}

// decodeStates reads a state set (au, low word first).
func decodeStates(d *decoder) stateSet {
	end := d.array(4)
	var words [2]uint32
	for i := 0; d.more(end); i++ {
		w := d.uint32()
		if i < 2 {
			words[i] = w
		}
	}
	return stateSet(words[0]) | stateSet(words[1])<<32
}

// FrameIsBare reports whether a window's frame has no child a client can
// reach: none at all, or only null references (Chromium started without
// renderer accessibility lists one null child). One
// Accessible.GetChildren call, which reads no app text.
func (c *Client) FrameIsBare(ctx context.Context, frame ID) (bool, error) {
	conn, bus, path, _, err := c.reach(ctx, frame, targetFrame)
	if err != nil {
		return false, err
	}
	rep, err := conn.call(ctx, bus, path, "org.a11y.atspi.Accessible", "GetChildren")
	if err != nil {
		return false, mapErr(err, conn, ctx, targetFrame)
	}
	d := rep.decoder()
	end := d.array(8)
	bare := true
	for d.more(end) {
		if b, p := d.ref(); b != "" && p != nullPath {
			bare = false
		}
	}
	if d.err != nil {
		return false, mapErr(d.err, conn, ctx, targetFrame)
	}
	return bare, nil
}
