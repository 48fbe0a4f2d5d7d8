package atspi

// Some toolkits never report the showing state on anything but their
// windows: GTK 4 up to 4.8 (Debian 12's) sets visible on a widget that is
// not hidden, and showing on top-level windows only. To the engine an
// element that is not showing cannot be seen or acted on (a closed menu's
// items, a hidden page), and its frame is not read; taken literally, every
// widget of such an app would be unclickable and frameless, and a secure
// field's frame would be missing from a screenshot's black-out.
//
// So the client learns, per app, whether the app reports showing at all:
// a read of a window that is itself showing and holds visible elements but
// no showing one below the window marks the app, and from then on an
// element of that app that is visible counts as showing, in reads, refreshes
// and live checks alike. An app that is seen to report showing below a
// window is unmarked. A hidden element (no visible state) stays not showing
// either way.

// learnShowing looks at a read's elements (root is the window's frame)
// and remembers whether the app reports showing below its windows.
func (c *Client) learnShowing(app string, root *elem, elems map[string]*elem) {
	if !root.states.has(stateShowing) {
		return // a window not on screen says nothing either way
	}
	visible, showing := 0, 0
	for _, e := range elems {
		if e == root || e.bus != app || !e.hasProps {
			continue
		}
		if e.states.has(stateShowing) {
			showing++
		}
		if e.states.has(stateVisible) {
			visible++
		}
	}
	if visible == 0 && showing == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.noShowing == nil {
		c.noShowing = map[string]bool{}
	}
	c.noShowing[app] = showing == 0
}

// showingFor returns a state set as the engine should see it: for an app
// that never reports showing below its windows, visible implies showing.
func (c *Client) showingFor(app string, s stateSet) stateSet {
	if !s.has(stateVisible) || s.has(stateShowing) {
		return s
	}
	c.mu.Lock()
	unreported := c.noShowing[app]
	c.mu.Unlock()
	if unreported {
		s |= 1 << stateShowing
	}
	return s
}
