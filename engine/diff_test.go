package engine

import (
	"slices"
	"testing"
)

// TestDiffFieldByField: the diff of two reads of one element names each
// field the model sees change, and nothing when the element shows alike
// (shownAlike lets most rows skip the redaction the comparison needs).
func TestDiffFieldByField(t *testing.T) {
	base := Node{ID: "e", Parent: -1, Role: "label", Name: "Status", States: []string{"sensitive", "showing"},
		Value: "ready", HasValue: true, Detailed: true}
	cases := []struct {
		name   string
		change func(n *Node)
		want   []string
	}{
		{"nothing", func(*Node) {}, nil},
		{"its name", func(n *Node) { n.Name = "State" }, []string{"label"}},
		{"its description, when the name is empty", func(n *Node) { n.Name, n.Description = "", "Described" }, []string{"label"}},
		{"its value", func(n *Node) { n.Value = "done" }, []string{"value"}},
		{"its value, no longer held", func(n *Node) { n.HasValue = false }, []string{"value"}},
		{"its value, unread after", func(n *Node) { n.Value, n.Detailed = "done", false }, nil},
		{"its value, now secret", func(n *Node) { n.Value, n.Secure = "done", true }, nil},
		{"a shown state", func(n *Node) { n.States = append(slices.Clone(n.States), "focused") }, []string{"states"}},
		{"a state rows do not show", func(n *Node) { n.States = append(slices.Clone(n.States), "focusable") }, nil},
		{"no longer sensitive", func(n *Node) { n.States = []string{"showing"} }, []string{"states"}},
		{"a name and a value", func(n *Node) { n.Name, n.Value = "State", "done" }, []string{"label", "value"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := base
			c.change(&after)
			pre := &snapshot{tree: tree(1, base), rows: []int{1}, pos: map[int]int{1: 0}}
			post := &snapshot{tree: tree(1, after), rows: []int{1}, pos: map[int]int{1: 0}}
			d := diffSnapshots(pre, post)
			var got []string
			for _, ch := range d.Changed {
				got = append(got, ch.Fields...)
			}
			if !slices.Equal(got, c.want) || len(d.Added)+len(d.Removed) != 0 {
				t.Fatalf("diff %+v, want changed fields %v", d, c.want)
			}
		})
	}
}
