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

// TestABlockCutAsTheTreeIsLaidOutSaysWhatItHolds lays out a read (assemble)
// whose sheet's block of 3 rows by 2 columns was read whole, under a
// budget that ends among its cells or with cells whose properties never
// came or that went away: the size spans only cells the tree holds (whole
// rows, or the run of the first row's cells), and the read is not
// BlocksOnly when the budget cut it.
func TestABlockCutAsTheTreeIsLaidOutSaysWhatItHolds(t *testing.T) {
	const rows, cols = 3, 2
	size := func(r0, r1, c0, c1 int) *TableSize {
		return &TableSize{Rows: calcRows, Columns: calcColumns, FirstRow: r0, LastRow: r1, FirstColumn: c0, LastColumn: c1}
	}
	none := &TableSize{Rows: calcRows, Columns: calcColumns}
	cases := []struct {
		name   string
		budget int
		// noProps and gone name cells (row*cols+col, zero-based) whose
		// properties never came, or that went away.
		noProps, gone []int
		want          *TableSize
		cells         int
		blocksOnly    bool
	}{
		{"every cell placed", 2 + rows*cols, nil, nil, size(1, 3, 1, 2), 6, true},
		{"the budget ends after two whole rows", 2 + 4, nil, nil, size(1, 2, 1, 2), 4, false},
		{"the budget ends inside the second row", 2 + 3, nil, nil, size(1, 1, 1, 2), 3, false},
		{"the budget ends inside the first row", 2 + 1, nil, nil, size(1, 1, 1, 1), 1, false},
		{"the budget ends at the table", 2, nil, nil, none, 0, false},
		{"a cell of the third row without properties", 2 + rows*cols, []int{5}, nil, size(1, 2, 1, 2), 5, false},
		{"the first cell without properties", 2 + rows*cols, []int{0}, nil, none, 5, false},
		{"a cell of the second row gone", 2 + rows*cols, nil, []int{2}, size(1, 1, 1, 2), 5, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			table := newElem(":1.9", "/n/0")
			table.hasProps, table.role = true, roleNumber("table")
			table.childCount = 1<<31 - 1
			table.blockRead, table.tableRows, table.tableCols = true, calcRows, calcColumns
			table.resolved = true
			for i := 0; i < rows*cols; i++ {
				cell := newElem(":1.9", fmt.Sprintf("/cell/%d/%d", i/cols, i%cols))
				cell.hasProps, cell.role, cell.childCount = true, roleNumber("table_cell"), 0
				cell.inBlock, cell.cellRow, cell.cellCol = true, int32(i/cols), int32(i%cols)
				table.children = append(table.children, cell)
			}
			for _, i := range c.noProps {
				table.children[i].hasProps = false
			}
			for _, i := range c.gone {
				table.children[i].gone = true
			}
			root := newElem(":1.9", "/n")
			root.hasProps, root.role, root.childCount = true, roleNumber("frame"), 1
			root.resolved, root.children = true, []*elem{table}
			// The client only keeps the cells' place ids; nothing is called.
			cl := fakeClient(t, &fakeApp{nodes: func(string) fakeNode { return fakeNode{} }})
			r := &reader{c: cl, app: ":1.9", known: map[string]*elem{}, budget: Budget{MaxElements: c.budget, MaxDepth: 10}, root: root}
			tree, _ := r.assemble()
			if len(tree.Nodes) < 2 {
				t.Fatalf("the read holds no sheet: %+v", tree.Nodes)
			}
			got := tree.Nodes[1].Table
			if got == nil || *got != *c.want || len(tree.Nodes)-2 != c.cells || tree.BlocksOnly != c.blocksOnly || !tree.Truncated {
				t.Fatalf("the sheet read as %+v with %d cells (BlocksOnly %v, truncated %v), want %+v with %d (BlocksOnly %v)",
					got, len(tree.Nodes)-2, tree.BlocksOnly, tree.Truncated, c.want, c.cells, c.blocksOnly)
			}
		})
	}
}
