package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// find_elements (docs/contract.md#find-elements): the rows of a window
// that match a role, a label fragment and states, each with its token and
// a short path of its ancestors' labels. It reads the whole window like a
// full read (the same snapshot, so its tokens act and go stale exactly as
// a read's do) but replies with the matches only: a model that wants one
// button pays for one row, not for the window.

// Find limits.
const (
	defaultMaxResults = 20
	maxMaxResults     = 100
	pathLabels        = 4  // ancestors' labels in a path, nearest kept
	pathLabelMax      = 40 // bytes of each label in a path
)

// elementQuery is what a find or a wait condition asks of an element;
// an empty query matches every element.
type elementQuery struct {
	role   string
	label  string // lower case
	states []string
}

// parseQuery reads role, label and states from a find's arguments or a
// wait condition. Roles are the reads' names, the structured rows' AT-SPI
// role or tree_text's short one; states are the ones rows show.
func parseQuery(a *Args) (elementQuery, *Error) {
	var q elementQuery
	var err *Error
	if q.role, _, err = a.String("role", 64); err != nil {
		return q, err
	}
	var label string
	if label, _, err = a.String("label", 200); err != nil {
		return q, err
	}
	q.label = strings.ToLower(label)
	if items, ok := a.Array("states"); ok {
		for _, raw := range items {
			var st string
			if json.Unmarshal(raw, &st) != nil || !rowStates[st] {
				return q, Errf(CodeInvalidArguments, "states must name row states (focused, checked, disabled, ...)")
			}
			q.states = append(q.states, st)
		}
	}
	return q, nil
}

func (q elementQuery) empty() bool { return q.role == "" && q.label == "" && len(q.states) == 0 }

// matches tells whether a node answers the query.
func (q elementQuery) matches(n *Node) bool {
	if q.role != "" && n.Role != q.role && textRole(n.Role) != q.role {
		return false
	}
	if q.label != "" && !strings.Contains(strings.ToLower(labelOf(n)), q.label) {
		return false
	}
	if len(q.states) > 0 {
		shown := displayStates(n)
		for _, st := range q.states {
			if !containsString(shown, st) {
				return false
			}
		}
	}
	return true
}

// find lists the positions of the first max matching nodes, in tree
// order, and how many match in all.
func (q elementQuery) find(t *Tree, max int) ([]int, int) {
	var out []int
	total := 0
	for i := range t.Nodes {
		if q.matches(&t.Nodes[i]) {
			total++
			if len(out) < max {
				out = append(out, i)
			}
		}
	}
	return out, total
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pathOf names a node's place by its nearest labelled ancestors, outermost
// first, leaving out the window's own frame (its title is the window's).
func pathOf(t *Tree, pos int) string {
	var labels []string
	for p := t.Nodes[pos].Parent; p > 0 && len(labels) < pathLabels; p = t.Nodes[p].Parent {
		if l := labelOf(&t.Nodes[p]); strings.TrimSpace(l) != "" {
			l, _ = cutEscape(l, pathLabelMax)
			labels = append(labels, l)
		}
	}
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, " > ")
}

// foundRow renders one matching node; its details must have been read.
// A secure row never carries a value.
func foundRow(sn *snapshot, pos int, win Rect) FoundRow {
	n := &sn.tree.Nodes[pos]
	row := FoundRow{
		ElementIndex: sn.rows[pos],
		ElementToken: sn.token(pos),
		Role:         n.Role,
		Label:        labelOf(n),
		Secure:       n.Secure,
		States:       displayStates(n),
		Actions:      n.Actions,
		Path:         pathOf(sn.tree, pos),
		Frame:        relFrame(n.Frame, win),
	}
	if shown, ok := shownValue(n); ok {
		v, _ := cutEscape(shown, valueMax)
		row.Value = &v
	}
	return row
}

// foundText renders found rows as tree_text-like lines, each with its
// path.
func foundText(rows []FoundRow) string {
	var b strings.Builder
	for i := range rows {
		r := &rows[i]
		writeRowHead(&b, 0, r.ElementIndex, r.Role, r.Label)
		if r.Secure {
			b.WriteString(" secure")
		} else if r.Value != nil && *r.Value != "" && *r.Value != r.Label {
			b.WriteString(" =")
			b.WriteString(quote(*r.Value))
		}
		for _, st := range r.States {
			if textStates[st] {
				b.WriteByte(' ')
				b.WriteString(st)
			}
		}
		if r.Path != "" {
			b.WriteString(" in ")
			b.WriteString(quote(r.Path))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func findElements(ctx context.Context, c *Conn, a *Args) Result {
	target, err := parseTarget(a)
	if err != nil {
		return Failure(err)
	}
	q, err := parseQuery(a)
	if err != nil {
		return Failure(err)
	}
	max, err := a.IntOr("max_results", 1, maxMaxResults, defaultMaxResults)
	if err != nil {
		return Failure(err)
	}
	s, err := c.sessionFor()
	if err != nil {
		return Failure(err)
	}
	w, err := s.resolveWindow(ctx, target)
	if err != nil {
		return Failure(err)
	}
	if _, err = c.requireReadable(ctx, "find_elements", fmt.Sprintf("find elements in window %d", w.ID)); err != nil {
		return Failure(err)
	}
	// An unchanged window's find keeps its snapshot, as a read does: the
	// same tokens, and no read of the app but the matches' frames.
	sn, kept, err := s.readWindow(ctx, w.ID)
	if err != nil {
		return Failure(err)
	}
	positions, total := q.find(sn.tree, int(max))
	if err := sn.details(ctx, c.d, kept, positions); err != nil {
		return Failure(err)
	}
	res := FindElementsResult{OK: true, SnapshotID: sn.id, Window: windowInfo(w), Coordinates: w.FrameSpace, Elements: make([]FoundRow, 0, len(positions)),
		MatchCount: total, Truncated: total > len(positions) || sn.tree.Truncated}
	for _, p := range positions {
		res.Elements = append(res.Elements, foundRow(sn, p, w.Frame))
	}
	more := ""
	if res.Truncated {
		more = " truncated"
	}
	text := fmt.Sprintf("%s window=%d matches=%d/%d%s token=%s:N\n", sn.id, w.ID, len(res.Elements), total, more, sn.id) +
		foundText(res.Elements)
	if len(res.Elements) == 0 {
		text += "no match\n"
	}
	text = strings.TrimRight(text, "\n")
	if res.AccessibilityHint = c.d.accessibilityHint(ctx, sn.tree); res.AccessibilityHint != nil {
		text += hintText(res.AccessibilityHint)
	}
	return Result{Structured: &res, Text: text}
}
