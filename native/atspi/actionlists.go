package atspi

// When an app's action lists can be taken at their word.
//
// Firefox (Gecko) gives every element of a page the Action interface, and
// most list no actions: on the browsers' fixture page 1,224 of 1,313
// elements (text blocks, table cells and rows). Its page content lives in
// another process; the parent answers from its copy, which holds actions
// only once some client has asked for them. So the first questions about
// actions after Firefox starts are answered with none for every element
// of a page, and some time later with the real lists, for every element
// at once: a switch of the whole app, not of an element. The time varies:
// 3–5 ms after the first question on a quiet machine, more than a whole
// read (about 100 ms) on a loaded one, where the read after the first one
// still got none for the page's links and fields.
//
// So an app's lists count as live only once a read has seen an element
// of a web page (role document_web, or inside one) list actions; until
// then an element that lists none is asked once more, after every first
// question of the read is answered (the switch may have flipped by then),
// and its none is learnt only when a page element listed actions to a
// first question of the same read (the switch had flipped before the
// second question was sent). Apps without web pages (GTK, Qt) never
// count as live and are asked as before. From then on an element
// that lists none has none, and the client remembers that as it
// remembers an element's action names (knownActions: a widget's actions
// do not change while it lives), so later reads do not ask it again; an
// act whose read listed none of the actions it wants asks anew
// (Client.ForgetActions, the engine's ReadActions). Before, every read
// asked each such element twice: 2,448 of a read's 2,559 detail calls on
// the fixture page, at about 18 µs of Firefox's main thread each.

// actionListsLive reports whether an app, by bus name, has listed actions
// for an element of a web page in an earlier read, so its lists are live.
func (c *Client) actionListsLive(app string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.liveActions[app]
}

// markActionListsLive records that an app listed actions for an element
// of a web page.
func (c *Client) markActionListsLive(app string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.liveActions == nil || len(c.liveActions) > 1000 {
		c.liveActions = map[string]bool{}
	}
	c.liveActions[app] = true
}
