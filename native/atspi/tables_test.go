package atspi

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// The fake app's usual sheet (fakeNode.sheet): its size, which is also
// its visible block (every cell shows), and its cells' paths,
// "/cell/ROW/COL".
const (
	sheetRows    = 4
	sheetColumns = 3
)

// Calc's sheet: its counts whatever it holds.
const (
	calcRows    = 1 << 20
	calcColumns = 1 << 14
)

// fakeCell reads a fake sheet cell's row and column from its path.
func fakeCell(path string) (row, col int, ok bool) {
	n, err := fmt.Sscanf(path, "/cell/%d/%d", &row, &col)
	return row, col, err == nil && n == 2
}

// TestBlockReadHoldsWholeRows reads a fake sheet's visible block. Every
// call answered and the block within the bounds and the budget: the cells
// are the table's children and its size spans them, and the read holds
// every cell that shows (BlocksOnly). A cell the app gives no states or
// no object for (an error answer) ends the block before its row: the read
// holds whole rows, its size says which, and it is not BlocksOnly. A
// block the bounds (rows, columns, cells) or the read's budget cut says
// which rows and columns it holds and stays BlocksOnly while the cells it
// read are no password fields (a sheet's cells are alike), not when one
// is or none was read; a table whose counts or extents did not come is
// not BlocksOnly. A call of the block the
// app never answers (a corner's name, a cell, a cell's states) fails the
// read as not responding: never a block without that cell under a size
// that claims it.
func TestBlockReadHoldsWholeRows(t *testing.T) {
	usual := fakeSheet{rows: sheetRows, cols: sheetColumns, shownRows: sheetRows, shownCols: sheetColumns}
	calls := func(member string) func(path, m string) bool {
		return func(path, m string) bool { return m == member }
	}
	cellStates := func(path, member string) bool { return path == "/cell/2/1" && member == "GetState" }
	// held is the size a read of sh says when it holds its first rows by
	// cols cells.
	held := func(sh fakeSheet, rows, cols int) *TableSize {
		s := &TableSize{Rows: int(sh.rows), Columns: int(sh.cols)}
		if rows > 0 && cols > 0 {
			s.FirstRow, s.LastRow, s.FirstColumn, s.LastColumn = 1, rows, 1, cols
		}
		return s
	}
	// pwCell is sh with a password field among its cells (row 2, column 2).
	pwCell := func(sh fakeSheet) fakeSheet {
		sh.passwordCell = "/cell/1/1"
		return sh
	}
	screen := func(rows, cols int32) fakeSheet {
		return fakeSheet{rows: calcRows, cols: calcColumns, shownRows: rows, shownCols: cols}
	}
	cases := []struct {
		name          string
		sheet         fakeSheet
		others        int // plain elements after the sheet
		budget        int // the read's MaxElements
		silent, fails func(path, member string) bool
		table         *TableSize // what the read says of the sheet; nil: it fails
		cells         int        // how many cells it holds
		whole         bool       // BlocksOnly: it holds every cell that shows
	}{
		{"every call answered", usual, 0, 1000, nil, nil, held(usual, 4, 3), 12, true},
		{"a screen of Calc's sheet", screen(40, 24), 0, 1000, nil, nil, held(screen(40, 24), 40, 24), 960, true},
		{"a block at every bound", screen(maxBlockRows, 10), 0, maxBlockCells + 2, nil, nil, held(screen(maxBlockRows, 10), maxBlockRows, 10), maxBlockCells, true},
		{"more rows show than a block holds", screen(maxBlockRows+1, 3), 0, 1000, nil, nil, held(screen(maxBlockRows+1, 3), maxBlockRows, 3), maxBlockRows * 3, true},
		{"more rows show than a block holds, a password cell among them", pwCell(screen(maxBlockRows+1, 3)), 0, 1000, nil, nil, held(screen(maxBlockRows+1, 3), maxBlockRows, 3), maxBlockRows * 3, false},
		{"more columns show than a block holds", screen(4, maxBlockColumns+1), 0, 1000, nil, nil, held(screen(4, maxBlockColumns+1), 4, maxBlockColumns), 4 * maxBlockColumns, true},
		{"more cells show than a block holds", screen(50, 41), 0, 5000, nil, nil, held(screen(50, 41), maxBlockCells/41, 41), maxBlockCells / 41 * 41, true},
		{"the budget holds two of the rows", usual, 0, 8, nil, nil, held(usual, 2, 3), 6, true},
		{"the budget holds two of the rows, a password cell among them", pwCell(usual), 0, 8, nil, nil, held(usual, 2, 3), 6, false},
		{"the budget holds part of a row", usual, 0, 4, nil, nil, held(usual, 1, 2), 2, true},
		{"the budget holds no cell", usual, 0, 2, nil, nil, held(usual, 0, 0), 0, false},
		{"the budget spent before the sheet", usual, 1, 2, nil, nil, held(usual, 0, 0), 0, false},
		{"corners that are no addresses, a big table", screen(4, 3), 0, 5000, nil, calls("GetAccessibleAtPoint 1 1"), held(screen(4, 3), maxBlockCells/maxBlockColumns, maxBlockColumns), maxBlockCells / maxBlockColumns * maxBlockColumns, true},
		{"corners that are no addresses, a small table", usual, 0, 1000, nil, calls("GetAccessibleAtPoint 1 1"), held(usual, 4, 3), 12, true},
		{"the counts answer an error", usual, 0, 1000, nil, calls("NRows"), nil, 0, false},
		{"the extents answer an error", usual, 0, 1000, nil, calls("GetExtents"), held(usual, 0, 0), 0, false},
		{"a cell's place answers an error", usual, 0, 1000, nil, calls("GetAccessibleAt 2 1"), held(usual, 2, 3), 6, false},
		{"a cell's states answer an error", usual, 0, 1000, nil, cellStates, held(usual, 2, 3), 6, false},
		{"the first cell answers an error", usual, 0, 1000, nil, calls("GetAccessibleAt 0 0"), held(usual, 0, 0), 0, false},
		{"a corner's name never answered", usual, 0, 1000, func(path, member string) bool { return path == "/cell/3/2" && member == "Name" }, nil, nil, 0, false},
		{"a cell's place never answered", usual, 0, 1000, calls("GetAccessibleAt 2 1"), nil, nil, 0, false},
		{"a cell's states never answered", usual, 0, 1000, cellStates, nil, nil, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // the cases with a call never answered each wait out the 2 s bound
			nodes := func(path string) fakeNode {
				switch path {
				case "/n":
					return fakeNode{count: int32(1 + c.others), kids: 1 + c.others}
				case "/n/0":
					return fakeNode{count: 1<<31 - 1, manages: true, sheet: c.sheet}
				case c.sheet.passwordCell:
					return fakeNode{role: "password_text"}
				}
				return fakeNode{}
			}
			cl := fakeClient(t, &fakeApp{nodes: nodes, silent: c.silent, fails: c.fails})
			// The read's whole call bound: a silent call ends it.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			r := &reader{c: cl, ctx: ctx, app: ":1.9", known: map[string]*elem{}, budget: Budget{MaxElements: c.budget, MaxDepth: 10}}
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
			if len(tree.Nodes) < 2 || tree.Nodes[1].Depth != 1 {
				t.Fatalf("the read holds no sheet: %+v", tree.Nodes)
			}
			table := tree.Nodes[1].Table
			cells := 0
			for i := range tree.Nodes {
				if tree.Nodes[i].Depth == 2 {
					cells++
				}
			}
			if (table == nil) != (c.table == nil) || (table != nil && *table != *c.table) || cells != c.cells || !tree.Truncated {
				t.Fatalf("the sheet read as %+v with %d cells (truncated %v), want %+v with %d", table, cells, tree.Truncated, c.table, c.cells)
			}
			// Every cell that shows is in the read only when the block
			// is whole.
			if tree.BlocksOnly != c.whole {
				t.Fatalf("the read of %d cells of a sheet of which %d by %d show says BlocksOnly %v, want %v", cells, c.sheet.shownRows, c.sheet.shownCols, tree.BlocksOnly, c.whole)
			}
		})
	}
}
