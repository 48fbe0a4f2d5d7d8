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

// TestBlockReadHoldsWholeRows reads a fake sheet's visible block. Every
// call answered: the cells are the table's children and its size spans
// them, and the read holds every cell that shows (BlocksOnly). A cell the
// app gives no states or no object for (an error answer) ends the block
// before its row: the read holds whole rows, its size says which, and it
// is not BlocksOnly. A call of the block the app never answers (a corner's name,
// a cell, a cell's states) fails the read as not responding: never a
// block without that cell under a size that claims it.
func TestBlockReadHoldsWholeRows(t *testing.T) {
	sheet := func(path string) fakeNode {
		switch path {
		case "/n":
			return fakeNode{count: 1, kids: 1}
		case "/n/0":
			return fakeNode{count: 1<<31 - 1, manages: true, sheet: true}
		}
		return fakeNode{}
	}
	cellAt := func(member string) func(path, m string) bool {
		return func(path, m string) bool { return m == member }
	}
	cellStates := func(path, member string) bool { return path == "/cell/2/1" && member == "GetState" }
	cases := []struct {
		name          string
		silent, fails func(path, member string) bool
		rows          int // the rows the read holds; 0: it fails
	}{
		{"every call answered", nil, nil, sheetRows},
		{"a cell's place answers an error", nil, cellAt("GetAccessibleAt 2 1"), 2},
		{"a cell's states answer an error", nil, cellStates, 2},
		{"the first cell answers an error", nil, cellAt("GetAccessibleAt 0 0"), 0},
		{"a corner's name never answered", func(path, member string) bool { return path == "/cell/3/2" && member == "Name" }, nil, 0},
		{"a cell's place never answered", cellAt("GetAccessibleAt 2 1"), nil, 0},
		{"a cell's states never answered", cellStates, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := fakeClient(t, &fakeApp{nodes: sheet, silent: c.silent, fails: c.fails})
			// The read's whole call bound: a silent call ends it.
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
			want := TableSize{Rows: sheetRows, Columns: sheetColumns}
			if c.rows > 0 {
				want.FirstRow, want.LastRow, want.FirstColumn, want.LastColumn = 1, c.rows, 1, sheetColumns
			}
			if table == nil || *table.Table != want || cells != c.rows*sheetColumns || !tree.Truncated {
				t.Fatalf("the sheet read as %+v with %d cells (truncated %v), want %+v with %d", table, cells, tree.Truncated, want, c.rows*sheetColumns)
			}
			// Every cell that shows is in the read only when the block
			// is whole.
			if whole := c.rows == sheetRows; tree.BlocksOnly != whole {
				t.Fatalf("the read of %d of the %d rows that show says BlocksOnly %v", c.rows, sheetRows, tree.BlocksOnly)
			}
		})
	}
}
