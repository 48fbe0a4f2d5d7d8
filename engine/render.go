package engine

import (
	"strconv"
	"strings"
)

// Row rendering: the structured rows and tree_text of full, drill-down and
// skeleton reads. tree_text is what most models actually read, so it is
// compact: one line per row, one space of indent per level,
// [N] role "label" ="value" and only the states that change what a model
// would do.

// rowStates are the states a row reports; the rest are noise to a model.
var rowStates = map[string]bool{
	"focused": true, "focusable": true, "selected": true, "checked": true, "indeterminate": true,
	"pressed": true, "expanded": true, "expandable": true, "editable": true, "disabled": true,
	"required": true, "invalid_entry": true, "modal": true, "read_only": true,
}

// textStates are the states tree_text shows.
var textStates = map[string]bool{
	"focused": true, "selected": true, "checked": true, "indeterminate": true, "pressed": true,
	"expanded": true, "disabled": true,
}

// insensitive: AT-SPI has no "disabled" state; an element that cannot be
// used lacks "sensitive".
func insensitive(n *Node) bool { return !n.HasState("sensitive") }

// displayStates are the row states: the listed AT-SPI states plus
// "disabled" for an insensitive element.
func displayStates(n *Node) []string {
	var out []string
	for _, st := range n.States {
		if rowStates[st] {
			out = append(out, st)
		}
	}
	if insensitive(n) {
		out = append(out, "disabled")
	}
	return out
}

// subtreeEnd returns the position after the last descendant of pos (nodes
// are in pre-order, so a subtree is contiguous).
func subtreeEnd(t *Tree, pos int) int {
	d := t.Nodes[pos].Depth
	i := pos + 1
	for i < len(t.Nodes) && t.Nodes[i].Depth > d {
		i++
	}
	return i
}

func relFrame(f, win Rect) Rect {
	return Rect{X: f.X - win.X, Y: f.Y - win.Y, W: f.W, H: f.H}
}

// fullPositions selects the rows of a full or drill-down read from root,
// within the limits, in pre-order.
func fullPositions(sn *snapshot, root, maxRows, maxDepth int) ([]int, bool) {
	t := sn.tree
	end := subtreeEnd(t, root)
	base := t.Nodes[root].Depth
	out := make([]int, 0, min(end-root, maxRows))
	truncated := false
	for i := root; i < end; i++ {
		if t.Nodes[i].Depth-base > maxDepth {
			truncated = true
			continue
		}
		if len(out) == maxRows {
			truncated = true
			break
		}
		out = append(out, i)
	}
	return out, truncated
}

// elementRows renders a full or drill-down read from root, within limits.
// The selected nodes' details must have been read (fillDetails).
func elementRows(sn *snapshot, root, maxRows, maxDepth int, win Rect) ([]ElementRow, bool) {
	t := sn.tree
	base := t.Nodes[root].Depth
	positions, truncated := fullPositions(sn, root, maxRows, maxDepth)
	rows := make([]ElementRow, 0, len(positions))
	for _, i := range positions {
		n := &t.Nodes[i]
		row := ElementRow{
			ElementIndex: sn.rows[i],
			ElementToken: sn.token(i),
			Role:         n.Role,
			Label:        labelOf(n),
			Secure:       n.Secure,
			Actions:      n.Actions,
			Depth:        n.Depth - base,
			ChildCount:   n.ChildCount,
			Frame:        relFrame(n.Frame, win),
			Table:        tableSizeOf(n),
		}
		if i != root && n.Parent >= 0 {
			p := sn.rows[n.Parent]
			row.ParentIndex = &p
		}
		row.States = displayStates(n)
		if shown, ok := shownValue(n); ok {
			v, cut := cutEscape(shown, valueMax)
			row.Value = &v
			row.ValueTruncated = cut
		}
		rows = append(rows, row)
	}
	return rows, truncated
}

// textRole is a role's short name in tree_text: the structured rows keep
// the AT-SPI role, the text spends fewer bytes on the commonest long ones.
func textRole(role string) string {
	if short, ok := shortRoles[role]; ok {
		return short
	}
	return role
}

var shortRoles = map[string]string{
	"push_button": "button", "toggle_button": "toggle", "check_box": "check", "radio_button": "radio",
	"page_tab_list": "tabs", "page_tab": "tab", "table_column_header": "colhdr", "table_row_header": "rowhdr",
	"table_cell": "cell", "table_row": "row", "list_item": "item", "menu_item": "menuitem",
	"check_menu_item": "checkitem", "radio_menu_item": "radioitem", "password_text": "password",
	"spin_button": "spin", "combo_box": "combo", "scroll_pane": "scroll", "document_text": "doc",
	"document_frame": "doc", "document_web": "webdoc", "tree_item": "treeitem",
}

// writeRowHead writes the start every tree_text line shares: one space of
// indent per level, [N], the role's short name and the quoted label.
func writeRowHead(b *strings.Builder, depth, index int, role, label string) {
	b.WriteString(strings.Repeat(" ", min(depth, 40)))
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(index))
	b.WriteString("] ")
	b.WriteString(textRole(role))
	if label != "" {
		b.WriteByte(' ')
		b.WriteString(quote(label))
	}
}

// rowsText renders rows as tree_text lines.
func rowsText(rows []ElementRow) string {
	var b strings.Builder
	b.Grow(len(rows) * 28)
	for i := range rows {
		r := &rows[i]
		writeRowHead(&b, r.Depth, r.ElementIndex, r.Role, r.Label)
		if r.Secure {
			b.WriteString(" secure")
		} else if r.Value != nil && *r.Value != "" && *r.Value != r.Label {
			b.WriteString(" =")
			b.WriteString(quote(*r.Value))
			if r.ValueTruncated {
				b.WriteString("…")
			}
		}
		for _, st := range r.States {
			if textStates[st] {
				b.WriteByte(' ')
				b.WriteString(st)
			}
		}
		writeTableSize(&b, r.Table)
		b.WriteByte('\n')
	}
	return b.String()
}

// Skeleton roles (docs/contract.md#skeleton).
var landmarkRoles = map[string]bool{
	"tool_bar": true, "menu_bar": true, "status_bar": true, "tablist": true, "page_tab_list": true,
	"list": true, "list_box": true, "tree": true, "table": true, "tree_table": true, "document": true,
	"document_frame": true, "document_web": true, "document_text": true, "document_email": true,
	"split_pane": true, "scroll_pane": true, "landmark": true, "navigation": true, "form": true,
	"article": true, "header": true, "footer": true, "info_bar": true, "notification": true, "dialog": true,
}

var containerRoles = map[string]bool{
	"panel": true, "filler": true, "section": true, "group": true, "grouping": true,
	"layered_pane": true, "internal_frame": true, "viewport": true, "tab": true, "page_tab": true,
}

func inSkeleton(n *Node) bool {
	if n.Secure || n.ChildCount <= 0 {
		return false
	}
	if landmarkRoles[n.Role] {
		return true
	}
	return containerRoles[n.Role] && strings.TrimSpace(n.Name) != ""
}

// skelPick is one selected skeleton row: its node, its skeleton depth and
// the position of its nearest listed ancestor (-1 for none).
type skelPick struct{ pos, depth, near int }

// skeletonSelect picks the containers and landmarks under root.
func skeletonSelect(sn *snapshot, root, maxRows, maxDepth int) ([]skelPick, bool) {
	t := sn.tree
	end := subtreeEnd(t, root)
	listedDepth := make(map[int]int)
	nearest := make([]int, end-root)
	var picks []skelPick
	truncated := false
	for i := root; i < end; i++ {
		n := &t.Nodes[i]
		near := -1
		if i != root && n.Parent >= root {
			p := n.Parent
			if _, ok := listedDepth[p]; ok {
				near = p
			} else {
				near = nearest[p-root]
			}
		}
		nearest[i-root] = near
		if i != root && !inSkeleton(n) {
			continue
		}
		depth := 0
		if near >= 0 {
			depth = listedDepth[near] + 1
		}
		if depth > maxDepth {
			truncated = true
			continue
		}
		if len(picks) == maxRows {
			truncated = true
			break
		}
		listedDepth[i] = depth
		picks = append(picks, skelPick{pos: i, depth: depth, near: near})
	}
	return picks, truncated
}

// skeletonPositions lists the nodes a skeleton read shows.
func skeletonPositions(sn *snapshot, root, maxRows, maxDepth int) ([]int, bool) {
	picks, trunc := skeletonSelect(sn, root, maxRows, maxDepth)
	out := make([]int, len(picks))
	for i, p := range picks {
		out[i] = p.pos
	}
	return out, trunc
}

// skeletonRows renders the containers and landmarks under root.
func skeletonRows(sn *snapshot, root, maxRows, maxDepth int, win Rect) ([]SkeletonRow, bool) {
	t := sn.tree
	picks, truncated := skeletonSelect(sn, root, maxRows, maxDepth)
	rows := make([]SkeletonRow, 0, len(picks))
	for _, pk := range picks {
		n := &t.Nodes[pk.pos]
		row := SkeletonRow{
			ElementIndex:    sn.rows[pk.pos],
			ElementToken:    sn.token(pk.pos),
			Role:            n.Role,
			Label:           labelOf(n),
			Depth:           pk.depth,
			ChildCount:      n.ChildCount,
			DescendantCount: subtreeEnd(t, pk.pos) - pk.pos - 1,
			Frame:           relFrame(n.Frame, win),
			Table:           tableSizeOf(n),
		}
		if pk.near >= 0 {
			p := sn.rows[pk.near]
			row.ParentIndex = &p
		}
		rows = append(rows, row)
	}
	return rows, truncated
}

func skeletonText(rows []SkeletonRow) string {
	var b strings.Builder
	for i := range rows {
		r := &rows[i]
		writeRowHead(&b, r.Depth, r.ElementIndex, r.Role, r.Label)
		b.WriteString(" children=")
		b.WriteString(strconv.Itoa(r.ChildCount))
		b.WriteString(" descendants=")
		b.WriteString(strconv.Itoa(r.DescendantCount))
		writeTableSize(&b, r.Table)
		b.WriteByte('\n')
	}
	return b.String()
}

// quote wraps already-escaped text in double quotes, escaping the quote
// and backslash so a label cannot close its own quotes.
func quote(s string) string {
	if !strings.ContainsAny(s, `"\`) {
		return `"` + s + `"`
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

func itoa(i int) string { return strconv.Itoa(i) }
