package atspi

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The fake app's sheet (fakeNode.sheet): its size, which is also its
// visible block (every cell shows), and its cells' paths, "/cell/ROW/COL".
const (
	sheetRows    = 4
	sheetColumns = 3
)

// fakeCell reads a fake sheet cell's row and column from its path.
func fakeCell(path string) (row, col int, ok bool) {
	n, err := fmt.Sscanf(path, "/cell/%d/%d", &row, &col)
	return row, col, err == nil && n == 2
}

// TestBlockReadIsWholeOrFails reads a fake sheet's visible block: every
// cell answered, the cells are the table's children and its size spans
// them; a call of the block the app never answers (a corner's name, a
// cell, a cell's states) fails the read as not responding, never a block
// without that cell under a size that claims it.
func TestBlockReadIsWholeOrFails(t *testing.T) {
	sheet := func(path string) fakeNode {
		switch path {
		case "/n":
			return fakeNode{count: 1, kids: 1}
		case "/n/0":
			return fakeNode{count: 1<<31 - 1, manages: true, sheet: true}
		}
		return fakeNode{}
	}
	cases := []struct {
		name   string
		silent func(path, member string) bool
	}{
		{"every call answered", nil},
		{"a corner's name", func(path, member string) bool { return path == "/cell/3/2" && member == "Name" }},
		{"a cell", func(path, member string) bool { return member == "GetAccessibleAt 2 1" }},
		{"a cell's states", func(path, member string) bool { return path == "/cell/2/1" && member == "GetState" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := fakeClient(t, &fakeApp{nodes: sheet, silent: c.silent})
			// The bound is the read's whole call bound: a silent call
			// ends it.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			r := &reader{c: cl, ctx: ctx, app: ":1.9", known: map[string]*elem{}, budget: Budget{MaxElements: 1000, MaxDepth: 10}}
			r.root = newElem(":1.9", "/n")
			r.known[r.root.key()] = r.root
			err := r.fill()
			if c.silent != nil {
				if KindOf(err) != KindNotResponding {
					t.Fatalf("a read with a call never answered returned %v, want it to fail as not responding", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tree, _ := r.assemble()
			var table *Node
			cells := 0
			for i := range tree.Nodes {
				if n := &tree.Nodes[i]; n.Table != nil {
					table = n
				} else if n.Depth == 2 {
					cells++
				}
			}
			want := TableSize{Rows: sheetRows, Columns: sheetColumns, FirstRow: 1, LastRow: sheetRows, FirstColumn: 1, LastColumn: sheetColumns}
			if table == nil || *table.Table != want || cells != sheetRows*sheetColumns || !tree.Truncated {
				t.Fatalf("the sheet read as %+v with %d cells (truncated %v), want %+v with %d", table, cells, tree.Truncated, want, sheetRows*sheetColumns)
			}
		})
	}
}
