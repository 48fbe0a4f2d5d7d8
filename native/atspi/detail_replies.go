package atspi

import (
	"strconv"
	"strings"

	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// The handlers of a detail read's answers, one per kind of call
// (detailRead.dispatch), and the decoding and cutting they share.

// actionRead gathers one element's action names, one GetName reply each.
type actionRead struct {
	localized, names []string
	left             int
	kind             actionKind
	// waiting are the targets of the same kind that take these names
	// when they are in (actionkinds.go), with their localized names.
	waiting []kindWaiter
}

// kindWaiter is a target waiting for another of its kind to learn the
// kind's names.
type kindWaiter struct {
	target    int
	localized []string
}

// extents stores a GetExtents reply as the node's frame.
func (r *detailRead) extents(i int, d *decoder) {
	d.align(8)
	x, y, w, h := d.int32(), d.int32(), d.int32(), d.int32()
	if d.err == nil {
		r.targets[i].node.Frame = Rect{X: int(x), Y: int(y), W: int(w), H: int(h)}
	}
}

// actionList takes GetActions' localized names. The names a caller acts
// by ("click") come from GetName, one call per action, unless an earlier
// read already learnt them for these localized names, or another element
// of the same kind gives them (actionkinds.go: the first of a kind asks,
// the others of the read wait for its answer). An element with the Action
// interface that lists none has none when its app's lists are live;
// otherwise it is asked once more (attempt 1) when every first question of
// the read is answered (actionlists.go: Firefox answers its first
// questions about actions with none).
func (r *detailRead) actionList(i, attempt int, d *decoder) {
	t := &r.targets[i]
	localized := decodeActionNames(d)
	if len(localized) > maxActions {
		localized = localized[:maxActions]
	}
	defer r.answeredFirst(attempt)
	if len(localized) > 0 && t.inPage {
		seen := r.pageActions[t.bus]
		r.pageActions[t.bus] = pageActions{any: true, first: seen.first || attempt == 0}
	}
	if names, ok := r.c.recallActions(t.node.ID, localized); ok {
		t.node.Actions = append([]string(nil), names...)
		return
	}
	if len(localized) == 0 {
		switch {
		case d.err != nil:
		case r.live[t.bus], attempt == 1 && r.pageActions[t.bus].first:
			// Asked while the lists were live: it has none.
			r.c.rememberActions(t.node.ID, []string{}, []string{}, nil)
		case attempt == 0:
			r.reask = append(r.reask, i)
		}
		return
	}
	kind := kindOf(t.bus, t.node.Role, t.ifaces, localized)
	if names, ok := r.c.kindActions(kind); ok {
		t.node.Actions = append([]string(nil), names...)
		r.c.rememberActions(t.node.ID, localized, append([]string(nil), names...), &kind)
		return
	}
	if asker, ok := r.asking[kind]; ok && r.c.trustsKind(kind) {
		a := r.actions[asker]
		a.waiting = append(a.waiting, kindWaiter{target: i, localized: localized})
		return
	}
	r.askNames(i, localized, kind, nil)
}

// askNames asks target i for the name of each of its actions; waiting are
// targets of its kind that take the names too.
func (r *detailRead) askNames(i int, localized []string, kind actionKind, waiting []kindWaiter) {
	t := &r.targets[i]
	r.actions[i] = &actionRead{localized: localized, names: make([]string, len(localized)), left: len(localized), kind: kind, waiting: waiting}
	if r.asking == nil {
		r.asking = map[actionKind]int{}
	}
	r.asking[kind] = i
	w := r.conns[t.bus]
	for k := range localized {
		r.p.add(w, call{target: i, kind: kindActionName, sub: k}, t.bus, t.path, "org.a11y.atspi.Action", "GetName", int32(k))
	}
	r.queued = true
}

// answeredFirst counts one answer to a question about actions; attempt
// 0 is a first question. When the last first question is answered, the
// elements that listed none while their app's lists may not have been
// live are asked again.
func (r *detailRead) answeredFirst(attempt int) {
	if attempt != 0 {
		return
	}
	r.firstAsks--
	if r.firstAsks > 0 {
		return
	}
	for _, i := range r.reask {
		t := &r.targets[i]
		r.p.add(r.conns[t.bus], call{target: i, kind: kindActions, sub: 1}, t.bus, t.path, "org.a11y.atspi.Action", "GetActions")
	}
	r.queued = r.queued || len(r.reask) > 0
	r.reask = nil
}

// actionName stores action k's name; with the last one in, the node and
// the targets waiting for its kind get them all, and the client remembers
// them.
func (r *detailRead) actionName(i, k int, d *decoder) {
	a := r.actions[i]
	if a == nil {
		return
	}
	a.names[k] = d.str()
	a.left--
	if a.left > 0 {
		return
	}
	if d.err != nil {
		r.namesFailed(i)
		return
	}
	delete(r.actions, i)
	delete(r.asking, a.kind)
	t := &r.targets[i]
	t.node.Actions = a.names
	r.c.rememberActions(t.node.ID, a.localized, append([]string(nil), a.names...), &a.kind)
	r.c.learnKind(a.kind, append([]string(nil), a.names...))
	for _, w := range a.waiting {
		n := r.targets[w.target].node
		n.Actions = append([]string(nil), a.names...)
		r.c.rememberActions(n.ID, w.localized, append([]string(nil), a.names...), &a.kind)
	}
}

// namesFailed gives up on target i's action names (a GetName failed or did
// not decode): it reports none, and the first target waiting for its kind
// asks for its own instead, the others waiting on it.
func (r *detailRead) namesFailed(i int) {
	a := r.actions[i]
	delete(r.actions, i)
	if a == nil {
		return
	}
	delete(r.asking, a.kind)
	if len(a.waiting) > 0 {
		w := a.waiting[0]
		r.askNames(w.target, w.localized, a.kind, a.waiting[1:])
	}
}

// value stores one of the Value interface's properties.
func (r *detailRead) value(i int, kind callKind, d *decoder) {
	v := r.values[i]
	if v == nil {
		v = &valueRead{}
		r.values[i] = v
	}
	v.set(kind, d)
}

// roleChecked is the live role re-check of a text element: the role is
// stored, and a secure one (or one that does not decode) fails the check.
func (r *detailRead) roleChecked(i int, d *decoder) {
	role := RoleName(d.uint32())
	r.targets[i].node.Role = role
	r.checked(i, secureRole(role) || d.err != nil)
}

// checked records one security check of a text element: a secure element
// is marked so and its text never read; otherwise the check passed.
func (r *detailRead) checked(i int, secure bool) {
	if !secure {
		r.passed(i)
		return
	}
	n := r.targets[i].node
	n.Secure = true
	n.Value, n.HasValue = "", false
	r.checks[i] = -1
}

// textLength stores the text's length (what GetText will ask up to).
func (r *detailRead) textLength(i int, d *decoder) {
	if d.sig() == "i" {
		if n := d.int32(); d.err == nil && n >= 0 {
			r.lengths[i] = n
		}
	}
	r.passed(i)
}

// passed counts one check of element i done; after the last, its text is
// asked for (an empty text is stored without asking).
func (r *detailRead) passed(i int) {
	if r.checks[i] <= 0 {
		return
	}
	r.checks[i]--
	if r.checks[i] > 0 {
		return
	}
	t := &r.targets[i]
	end := min(r.lengths[i], maxValueBytes)
	if end <= 0 {
		t.node.Value, t.node.HasValue = "", true
		r.cellNumber(i)
		return
	}
	r.p.add(r.conns[t.bus], call{target: i, kind: kindText}, t.bus, t.path, "org.a11y.atspi.Text", "GetText", int32(0), end)
	r.queued = true
}

// text stores a GetText reply as the node's value, child marks dropped
// and cut to the bound.
func (r *detailRead) text(i int, d *decoder) {
	n := r.targets[i].node
	if n.Secure {
		return
	}
	s := d.str()
	if d.err == nil {
		n.Value, _ = utf8cut.Cut(dropEmbeds(s), maxValueBytes)
		n.HasValue = true
		r.cellNumber(i)
	}
}

// cellNumber marks a sheet's cell that holds a number, or nothing, as
// taking a number through its Value interface (Calc's cells offer no
// EditableText; set_value of a number writes the cell by Value's
// CurrentValue). The range is left open: a cell takes any number.
func (r *detailRead) cellNumber(i int) {
	t := &r.targets[i]
	if !t.textValue || t.ifaces&ifValue == 0 {
		return
	}
	v := strings.TrimSpace(t.node.Value)
	if _, err := strconv.ParseFloat(v, 64); err == nil || v == "" {
		t.node.Numeric = &Range{}
	}
}

// errConnGone reports whether a reply failed because its connection
// closed (rather than the element refusing the call).
func errConnGone(err error) bool {
	return err == errConnClosed
}

// isTextValue reports whether an element's text is its value: it is
// editable, or its role is one whose text is content (not a label), or it
// is a block of a page with no name of its own, whose text is what it
// shows (see unnamedTextRoles).
func isTextValue(role, name string, ifaces ifaceSet, states stateSet) bool {
	if ifaces&ifText == 0 {
		return false
	}
	return editableText(ifaces, states) || textValueRoles[role] || (name == "" && unnamedTextRoles[role])
}

// decodeActionNames reads GetActions' a(sss) (name, localized name, key
// binding) and keeps the names.
func decodeActionNames(d *decoder) []string {
	end := d.array(8)
	var names []string
	for d.more(end) {
		d.align(8)
		name := d.str()
		d.strBytes()
		d.strBytes()
		names = append(names, name)
	}
	if d.err != nil {
		return nil
	}
	return names
}

// valueCalls is how many calls read an element's Value properties: one
// Properties.Get each for the current value and the step (appcalls.go
// says why never GetAll). The bounds are not read: nothing shows them.
const valueCalls = 2

// valueRead gathers one element's Value properties as their replies come.
type valueRead struct {
	cur, step float64
	have      bool // the current value was read
}

// set stores one property's reply (a variant holding a double); a reply
// of another shape leaves it unset.
func (v *valueRead) set(kind callKind, d *decoder) {
	if d.sig() != "d" {
		return
	}
	x := d.float64()
	if d.err != nil {
		return
	}
	switch kind {
	case kindValue:
		v.cur, v.have = x, true
	case kindValueStep:
		v.step = x
	}
}

// store puts what was read into the node: nothing without a current value.
func (v *valueRead) store(n *Node) {
	if !v.have {
		return
	}
	n.Value = formatNumber(v.cur)
	n.HasValue = true
	n.Numeric = &Range{Step: v.step}
}

// formatNumber writes a value the shortest way that reads back the same.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// embedChar is U+FFFC, OBJECT REPLACEMENT CHARACTER: a hypertext (a web
// page's blocks, in both browsers) holds one in its text where each child
// element sits. The children are rows of their own, so the marks are
// dropped from the text: a document's value would otherwise read as a
// string of them.
const embedChar = "\uFFFC"

// dropEmbeds removes the child marks from a text.
func dropEmbeds(s string) string {
	if !strings.Contains(s, embedChar) {
		return s
	}
	return strings.ReplaceAll(s, embedChar, "")
}
