package atspi

import (
	"context"
	"sort"
	"strings"
	"time"
)

// Details selects what a read fetches beyond the structure (ids, roles,
// names, descriptions, states, child counts), which comes from the app's
// cache reply and costs no per-element call. Each detail costs one call per
// element that has it; the engine can read the structure of a whole window
// and ask for details of only the rows it returns (Client.Details).
type Details uint8

const (
	// DetailExtents reads Frame for elements that are showing. An element
	// that is not showing (scrolled out, in a closed menu, on a hidden page)
	// has a zero Frame: it cannot be seen or clicked, and its extents cost
	// one call each, with an X round trip inside the app.
	DetailExtents Details = 1 << iota
	// DetailHiddenExtents reads Frame for elements that are not showing too.
	DetailHiddenExtents
	// DetailActions reads action names.
	DetailActions
	// DetailValues reads Value/HasValue/Numeric: the Value interface's
	// number and range, or the text of an element whose text is its value
	// (entries, text views, documents, terminals; not labels, whose text is
	// their name). It also runs the attribute check for secure fields.
	DetailValues

	// DetailsNone reads the structure only.
	DetailsNone Details = 0
	// DetailsAll is what a full read needs.
	DetailsAll = DetailExtents | DetailActions | DetailValues
)

// ReadOptions shape one window read.
type ReadOptions struct {
	// Budget bounds the read (zero fields: DefaultBudget's).
	Budget Budget
	// Details selects the per-element details to read.
	Details Details
	// DetailLimit, when positive, reads details only for the first
	// DetailLimit nodes in pre-order (the rows the engine will return);
	// the rest get structure only. Client.Details can fill more later.
	DetailLimit int
	// Stats, when set, receives the read's phase timings.
	Stats *ReadStats
}

// ReadStats are one read's measurements.
type ReadStats struct {
	PeerToPeer  bool          // the app was reached on its private socket
	CacheItems  int           // elements in the app's cache reply
	CacheTime   time.Duration // the cache call, decoding included
	FillRounds  int           // rounds of calls for what the cache left out
	FillCalls   int           // calls made in those rounds
	FillTime    time.Duration // time spent in them and in building the tree
	BlockCells  int           // cells read of tables' visible blocks (tables.go)
	BlockTime   time.Duration // time spent reading those blocks
	DetailCalls int           // per-element detail calls
	DetailTime  time.Duration // time spent reading details
	Elements    int           // nodes returned
	Total       time.Duration
}

// maxFillRounds bounds the rounds of fill-in calls; each round descends at
// least one level, so the depth budget bounds it too.
const maxFillRounds = 256

// ReadTree reads a window's accessibility tree: frame is the window's
// top-level accessible (see Frames). The result is in pre-order with
// Nodes[0] the frame, cut by the budget (Truncated set when anything was
// left out). It is complete: every element a live walk of the window
// finds, including what the app's cache reply leaves out (children of
// containers that manage their descendants, menus, some title-bar buttons),
// which is read with extra calls.
//
// A secure element (role password_text, or attributes marking a password
// input) never has its value read: Secure is set and Value is empty.
func (c *Client) ReadTree(ctx context.Context, frame ID, opts ReadOptions) (*Tree, error) {
	start := time.Now()
	var stats ReadStats
	if opts.Budget.MaxElements <= 0 {
		opts.Budget.MaxElements = DefaultBudget.MaxElements
	}
	if opts.Budget.MaxDepth <= 0 {
		opts.Budget.MaxDepth = DefaultBudget.MaxDepth
	}
	conn, bus, path, tag, err := c.reach(ctx, frame, targetFrame)
	if err != nil {
		return nil, err
	}
	stats.PeerToPeer = conn.peer
	r := &reader{c: c, ctx: ctx, app: bus, tag: tag, known: map[string]*elem{}, budget: opts.Budget}

	t0 := time.Now()
	items, err := r.cache(conn)
	if err != nil {
		return nil, mapErr(err, conn, ctx, targetFrame)
	}
	stats.CacheItems = len(items)
	stats.CacheTime = time.Since(t0)
	for _, it := range items {
		if it.bus == bus {
			r.known[it.key()] = it
		}
	}
	for _, it := range items {
		if it.bus != bus {
			continue
		}
		if p := r.known[it.parentBus+it.parentPath]; p != nil && p != it {
			p.cached = append(p.cached, it)
		}
	}
	root := r.known[bus+path]
	if root == nil {
		root = newElem(bus, path)
		r.known[root.key()] = root
	}
	r.root = root

	t1 := time.Now()
	if err := r.fill(); err != nil {
		return nil, err
	}
	c.learnShowing(bus, root, r.known)
	for _, e := range r.known {
		e.states = c.showingFor(e.bus, e.states)
	}
	r.writesText = c.WritesText(ctx, bus)
	r.placeKids = remakesChildren(c.ToolkitName(ctx, bus))
	tree, elems := r.assemble()
	stats.FillRounds, stats.FillCalls = r.rounds, r.calls
	stats.BlockCells, stats.BlockTime = r.blockCells, r.blockTime
	stats.FillTime = time.Since(t1)

	t2 := time.Now()
	if opts.Details != DetailsNone {
		n := len(elems)
		if opts.DetailLimit > 0 && opts.DetailLimit < n {
			n = opts.DetailLimit
		}
		targets := make([]detailTarget, n)
		for i, e := range elems[:n] {
			targets[i] = detailTarget{node: &tree.Nodes[i], bus: e.bus, path: e.path, ifaces: e.ifaces, states: e.states, textValue: e.inBlock, inPage: e.inPage}
		}
		n, err := c.details(ctx, targets, opts.Details)
		stats.DetailCalls = n
		if err != nil {
			return nil, err
		}
	}
	c.remember(tag, elems)
	stats.DetailTime = time.Since(t2)
	stats.Elements = len(tree.Nodes)
	stats.Total = time.Since(start)
	if opts.Stats != nil {
		*opts.Stats = stats
	}
	return tree, nil
}

// reader is one read's working state.
type reader struct {
	c      *Client
	ctx    context.Context
	app    string
	tag    string // the bus generation's id tag
	known  map[string]*elem
	root   *elem
	budget Budget
	rounds int
	calls  int
	walk   int // the current walk's mark
	// writesText is false for an app whose editable text ignores what is
	// written through accessibility (WritesText): its fields are not
	// Editable, so typing there asks for a takeover instead.
	writesText bool
	// tables are the tables the last plan found whose visible block is
	// to be read (tables.go).
	tables []*elem
	// blockCells and blockTime measure the blocks read (ReadStats).
	blockCells int
	blockTime  time.Duration
	// placeKids: the app remakes the children of containers that manage
	// their descendants on every ask, so they get place ids (places.go).
	placeKids bool
	// subtree: the read is of one element's subtree (ReadSubtree), whose
	// root's failures are about that element, not the window; rootUp
	// stands in for the root's parent (nil in a window read).
	subtree bool
	rootUp  *elem
}

// documentStates returns an element's states with enabled and sensitive
// added where a document says it is editable but not sensitive: LibreOffice
// (measured with Writer 7.4, gtk3) gives its document and every paragraph
// editable and enabled but never sensitive, so they read as disabled and
// typing into the document was refused. Inside an editable document (and
// for the document itself) an editable element is taken as usable;
// nowhere else, since GTK keeps editable on a field a person cannot use.
func documentStates(e, up *elem, role string) stateSet {
	st := e.states
	inDoc := up != nil && up.inEditableDoc
	if strings.HasPrefix(role, "document_") && st.has(stateEditable) {
		inDoc = true
	}
	e.inEditableDoc = inDoc
	if inDoc {
		st = usableInDocument(st)
	}
	return st
}

// usableInDocument adds enabled and sensitive to the states of an editable
// element of an editable document (documentStates).
func usableInDocument(st stateSet) stateSet {
	if st.has(stateEditable) && !st.has(stateSensitive) {
		st |= 1<<stateEnabled | 1<<stateSensitive
	}
	return st
}

// remakesChildren reports whether apps of a toolkit make a new object for
// a managed container's child each time it is asked for (places.go): Qt.
func remakesChildren(toolkit string) bool {
	return strings.EqualFold(toolkit, "Qt")
}

// idOf mints an element's id: by place when its parent is a container
// that remakes its children, else by path.
func (r *reader) idOf(e, parent *elem) ID {
	if e.inBlock && parent != nil {
		place := cellPlace(parent.path, e.cellRow, e.cellCol)
		r.c.rememberPlace(e.bus, place, e.path)
		return r.c.mintID(r.tag, e.bus, place)
	}
	if r.placeKids && parent != nil && parent.states.has(stateManagesDescendants) && e.index >= 0 {
		place := childPlace(parent.path, e.index)
		r.c.rememberPlace(e.bus, place, e.path)
		return r.c.mintID(r.tag, e.bus, place)
	}
	return r.c.mintID(r.tag, e.bus, e.path)
}

// cache asks the app for its whole cached tree in one call. An app without
// the cache interface returns nothing (the fill-in reads everything).
func (r *reader) cache(conn *wireConn) ([]*elem, error) {
	rep, err := conn.call(r.ctx, r.app, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems")
	if err != nil {
		if isGone(err) && r.ctx.Err() == nil {
			return nil, nil
		}
		return nil, err
	}
	items, err := decodeItems(rep)
	if err == errItemsSig {
		return nil, nil
	}
	return items, err
}

// resolveFromCache orders an element's children from the cache reply when
// they add up: as many as its child count, with indexes 0..n-1.
func resolveFromCache(e *elem) bool {
	if e.resolved {
		return true
	}
	if e.childCount < 0 || int(e.childCount) != len(e.cached) {
		return false
	}
	kids := e.cached
	sort.Slice(kids, func(i, j int) bool { return kids[i].index < kids[j].index })
	for i, k := range kids {
		if int(k.index) != i {
			return false
		}
	}
	e.children, e.resolved = kids, true
	return true
}

// plan walks the tree known so far in pre-order within the budget and
// lists what is missing: elements whose children are not known, and
// elements whose own properties are not known. count is how many elements
// it walked (at most the element budget).
func (r *reader) plan() (needKids, needProps, needCount []*elem, count int) {
	r.walk++
	mark := r.walk
	var visit func(e *elem, depth int)
	visit = func(e *elem, depth int) {
		if count >= r.budget.MaxElements || e.mark == mark || e.gone {
			return
		}
		e.mark = mark
		e.depth = int32(depth)
		count++
		if !e.hasProps {
			needProps = append(needProps, e)
			return
		}
		if depth >= r.budget.MaxDepth {
			return
		}
		switch nextForChildren(e, r.budget) {
		case childrenNone:
			e.resolved = true
			return
		case childrenCountFirst:
			// How many it holds decides whether to list them.
			needCount = append(needCount, e)
			return
		case childrenLeftOut:
			// Never asked: the read says it left them out (assemble).
			// A table among them is read by its visible block.
			if needsBlock(e) {
				r.tables = append(r.tables, e)
			}
			return
		case childrenAsk:
			needKids = append(needKids, e)
			// Look ahead into the children the cache named: they are
			// most likely among the real ones, and what they miss can be
			// asked for in this same round.
			for _, k := range e.cached {
				visit(k, depth+1)
			}
			return
		}
		for _, k := range e.children {
			visit(k, depth+1)
		}
	}
	visit(r.root, 0)
	return needKids, needProps, needCount, count
}

// childrenNext is what the reader does next about an element's children,
// once the element's own properties are known (nextForChildren).
type childrenNext uint8

const (
	childrenKnown      childrenNext = iota // listed already (the cache reply, or an earlier ask)
	childrenNone                           // it has none
	childrenCountFirst                     // ask its child count on its own first
	childrenLeftOut                        // never asked (mayListChildren)
	childrenAsk                            // ask for them (GetChildren)
)

// nextForChildren decides, for an element whose properties are known and
// which lies within the depth budget, how its children are to be known.
// The plan and the fill's follow-up calls (fill.go) share it, so a child
// list is asked for under the same rules whichever finds it missing.
func nextForChildren(e *elem, b Budget) childrenNext {
	switch {
	case resolveFromCache(e):
		return childrenKnown
	case e.childCount == 0 && len(e.cached) == 0:
		return childrenNone
	case e.childCount < 0 && e.states.has(stateManagesDescendants) && !e.counted:
		return childrenCountFirst
	case !mayListChildren(e, b):
		return childrenLeftOut
	}
	return childrenAsk
}

// mayListChildren reports whether the reader may ask an element for its
// children. An app builds an object for every child it lists, and a
// container that manages its descendants makes them on demand: LibreOffice
// Calc's sheet says it has 2^31 - 1 cells, and asking for them made Calc
// grow by gigabytes and stop answering (measured). So an element is asked
// only when its child count fits the read's budget, and never while that
// count is unknown for a container that manages its descendants. What is
// not asked for is left out and the read says truncated.
func mayListChildren(e *elem, b Budget) bool {
	if int64(e.childCount) > int64(b.MaxElements) {
		return false
	}
	return e.childCount >= 0 || !e.states.has(stateManagesDescendants)
}

// addNameAndDescription queues the reads of an element's name and
// description, each its own Properties.Get.
func addNameAndDescription(p *pipe, conn *wireConn, target int, bus, path string) {
	p.add(conn, call{target: target, kind: kindName}, bus, path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
	p.add(conn, call{target: target, kind: kindDesc}, bus, path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Description")
}

// targetOf says whether a failure about e is about the window or one
// element of it.
func (r *reader) targetOf(e *elem) target {
	if e == r.root && !r.subtree {
		return targetFrame
	}
	return targetElement
}

// connOf is the connection an element's calls went to (for error mapping).
func (r *reader) connOf(e *elem) *wireConn {
	conn, err := r.c.connFor(r.ctx, e.bus)
	if err != nil {
		return nil
	}
	return conn
}

// apply stores one fill-in reply.
func (r *reader) apply(e *elem, kind callKind, rep *reply) error {
	d := rep.decoder()
	switch kind {
	case kindChildren:
		end := d.array(8)
		var kids []*elem
		for i := 0; d.more(end); i++ {
			bus, path := d.ref()
			if path == nullPath || bus == "" {
				continue
			}
			k := r.known[bus+path]
			if k == nil {
				k = newElem(bus, path)
				r.known[bus+path] = k
			}
			k.index = int32(i)
			kids = append(kids, k)
		}
		e.children, e.resolved = kids, true
	case kindIfaces:
		e.ifaces = decodeIfaces(d)
	case kindRole, kindState, kindName, kindDesc, kindChildCount:
		return applyProps(e, kind, rep)
	}
	return d.err
}

// assemble lays the tree out in pre-order within the budget.
func (r *reader) assemble() (*Tree, []*elem) {
	size := len(r.known)
	if size > r.budget.MaxElements {
		size = r.budget.MaxElements
	}
	t := &Tree{Nodes: make([]Node, 0, size)}
	elems := make([]*elem, 0, size)
	r.walk++
	mark := r.walk
	states := map[stateSet][]string{}
	cut := false // left out other than by a table's visible block
	var visit func(e, up *elem, parent, index, depth int) bool
	visit = func(e, up *elem, parent, index, depth int) bool {
		if len(t.Nodes) >= r.budget.MaxElements {
			t.Truncated, cut = true, true
			return false
		}
		e.mark = mark
		i := len(t.Nodes)
		childCount := int(e.childCount)
		if e.resolved && !e.blockRead {
			childCount = 0
			for _, k := range e.children {
				if !k.gone {
					childCount++
				}
			}
		}
		if childCount < 0 {
			childCount = 0
		}
		role := RoleName(e.role)
		e.states = documentStates(e, up, role)
		e.inPage = role == "document_web" || (up != nil && up.inPage)
		// Elements with the same state set share one names slice (its
		// capacity is its length, so an append by a caller copies).
		names, ok := states[e.states]
		if !ok {
			names = stateNames(e.states)
			names = names[:len(names):len(names)]
			states[e.states] = names
		}
		e.id = r.idOf(e, up)
		t.Nodes = append(t.Nodes, Node{
			ID:            e.id,
			Parent:        parent,
			IndexInParent: index,
			Depth:         depth,
			Role:          role,
			Name:          e.name,
			Description:   e.desc,
			States:        names,
			ChildCount:    childCount,
			Secure:        secureRole(role),
			Editable:      r.writesText && editableText(e.ifaces, e.states),
			Text:          e.ifaces&ifText != 0,
		})
		elems = append(elems, e)
		if e.blockRead {
			// Its size spans the cells placed below it, known once
			// they are (the budget may end among them).
			defer func() { t.Nodes[i].Table = blockSize(e, mark) }()
			// A table read by its visible block: the cells beyond it
			// are left out, and when the block ended early, some
			// that show.
			t.Truncated = true
			cut = cut || e.blockCut
		}
		if childCount == 0 {
			return true
		}
		if depth >= r.budget.MaxDepth || !e.resolved {
			t.Truncated, cut = true, true
			return true
		}
		k := 0
		for _, ch := range e.children {
			if ch.gone || ch.mark == mark {
				continue
			}
			if !ch.hasProps {
				t.Truncated, cut = true, true // not read: the fill-in stopped early
				continue
			}
			if !visit(ch, e, i, k, depth+1) {
				return false
			}
			k++
		}
		return true
	}
	visit(r.root, r.rootUp, -1, 0, 0)
	t.BlocksOnly = t.Truncated && !cut
	return t, elems
}
