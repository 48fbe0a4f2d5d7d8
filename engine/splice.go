package engine

// Tree surgery for a patched read (patch.go): a subtree read on its own is
// put into a read of the whole window, or a subtree taken out of it,
// leaving the tree in pre-order with every Parent pointing where it did.

// placed makes a subtree's nodes (Parent counted within it) nodes of a
// tree where its root sits at position at under parent.
func placed(sub []Node, parent, at int) []Node {
	for i := range sub {
		if i == 0 {
			sub[i].Parent = parent
		} else {
			sub[i].Parent += at
		}
	}
	return sub
}

// replaceRange returns t with the nodes at [from, to) (a whole subtree,
// or nothing) replaced by with, whose Parent fields are already the new
// tree's; the parents of the nodes after the range are moved along.
func replaceRange(t *Tree, from, to int, with []Node) *Tree {
	delta := len(with) - (to - from)
	out := &Tree{Window: t.Window, Truncated: t.Truncated, Nodes: make([]Node, 0, len(t.Nodes)+delta)}
	out.Nodes = append(out.Nodes, t.Nodes[:from]...)
	out.Nodes = append(out.Nodes, with...)
	for _, n := range t.Nodes[to:] {
		if n.Parent >= to {
			n.Parent += delta
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out
}

// positionOf is the position of the element id in t, -1 when absent.
func positionOf(t *Tree, id ElementID) int {
	for i := range t.Nodes {
		if t.Nodes[i].ID == id {
			return i
		}
	}
	return -1
}

// childPositions lists the positions of the children of the node at p.
func childPositions(t *Tree, p int) []int {
	var out []int
	end := subtreeEnd(t, p)
	for q := p + 1; q < end; q++ {
		if t.Nodes[q].Parent == p {
			out = append(out, q)
		}
	}
	return out
}

// renumberChildren sets the IndexInParent of the children of the node at
// p in order, and returns how many there are.
func renumberChildren(t *Tree, p int) int {
	kids := childPositions(t, p)
	for i, q := range kids {
		t.Nodes[q].IndexInParent = i
	}
	return len(kids)
}

// indexOf maps each element of t to its position. An element in two
// places keeps one, so the map is then shorter than the tree.
func indexOf(t *Tree) map[ElementID]int {
	at := make(map[ElementID]int, len(t.Nodes))
	for i := range t.Nodes {
		at[t.Nodes[i].ID] = i
	}
	return at
}
