package atspi

import (
	"strconv"
)

// Tables that manage their descendants: the visible block.
//
// A spreadsheet's sheet is one table of every cell it could hold
// (LibreOffice Calc: 1,048,576 rows by 16,384 columns, ChildCount
// 2^31 - 1), made on demand: asking for its children makes the app build
// them all (docs/qt-and-libreoffice.md). Such a table is never asked for its
// children. The reader reads what a person sees of it instead, in a few
// pipelined rounds:
//
//  1. its row and column counts (the Table interface's NRows, NColumns)
//     and its extents;
//  2. the cells at its top-left and bottom-right corners
//     (Component.GetAccessibleAtPoint), and their names: a sheet names a
//     cell by its address ("B12"), which gives the block's first and last
//     row and column (when a name is no address, the block is the whole
//     table, from its first cell);
//  3. every cell of that block within the bounds below and the read's
//     budget (fitBlock) by row and column (Table.GetAccessibleAt);
//  4. each cell's role, states and name (its interfaces once, from the
//     first cell: a sheet's cells are all alike).
//
// Cells that are not showing are left out. A read may leave out cells
// that show and still say it holds every element on screen that could be
// a secure field (Tree.BlocksOnly, which lets a screenshot skip its search
// for secure fields, engine/capture.go): a sheet's cells are all alike (the
// reader already takes their interfaces from the first one), so the cells
// it read stand for the ones of the block it left out while they are
// known and none is a password field. The table is blockCut, and the read
// not BlocksOnly, when:
//
//   - the bounds below or the read's element budget left (room) hold fewer
//     rows or columns than the corners say show (a zoomed-out sheet on a
//     big screen, a read with a small max_elements), or the corners did
//     not say (the block is then the whole table, from its first cell),
//     and either no cell that shows was read or one read is a password
//     field;
//   - no cell was read: the counts or the extents did not come, or say
//     nothing shows, or the budget was spent (a table whose cells were
//     not read counts as any element whose children were not);
//   - a cell the app did not give (an error answer or no object for its
//     place, states that did not come) ends the block at the row before
//     it: the read holds whole rows. The size it reports (blockSize)
//     spans no cell it lacks, also when the element budget cuts the
//     block as the tree is laid out (assemble).
//
// The size the table reports spans the cells the read holds, so a cut
// block says which rows and columns it kept. A call not answered in time
// fails the read. The cells become the table's
// children in the read, with place ids by row and column (places.go); the
// table keeps the child count it reports, and the read says truncated.

// Bounds of one table's block: a screen of cells, never more.
const (
	maxBlockRows    = 200
	maxBlockColumns = 64
	maxBlockCells   = 2000
)

// needsBlock reports whether an element is a table whose visible block is
// read instead of its children.
func needsBlock(e *elem) bool {
	return e.ifaces&ifTable != 0 && e.states.has(stateManagesDescendants) && !e.blockRead
}

// block is what rounds 1 and 2 learn of a table.
type block struct {
	rows, cols     int32
	x, y, w, h     int32
	r0, c0, r1, c1 int32
	corner         [2]string // paths of the corner cells
}

// fitBlock is how many rows and columns of a block of rows by cols cells
// a read asks for: at most maxBlockRows rows, maxBlockColumns columns and
// limit cells in all (maxBlockCells at most): whole rows while one row
// fits, else the first limit cells of one row, none when limit is spent.
func fitBlock(rows, cols int32, limit int) (int32, int32) {
	rows, cols = min(rows, maxBlockRows), min(cols, maxBlockColumns)
	limit = min(limit, maxBlockCells)
	if limit <= 0 || rows <= 0 || cols <= 0 {
		return 0, 0
	}
	if int(rows)*int(cols) > limit {
		rows = max(int32(limit)/cols, 1)
		cols = min(cols, int32(limit))
	}
	return rows, cols
}

// readBlock reads a table's visible block and makes its showing cells the
// table's children. room bounds the cells read (the read's budget left).
func (r *reader) readBlock(e *elem, room int) error {
	e.blockRead, e.blockCut = true, false
	r.c.rememberBlockTable(e.bus, e.path)
	conn, err := r.c.connFor(r.ctx, e.bus)
	if err != nil {
		return mapErr(err, nil, r.ctx, r.targetOf(e))
	}
	var b block
	b.rows, b.cols = -1, -1

	// Round 1: size and extents.
	coords := r.c.coordType(r.ctx, e.bus)
	p := newPipe(r.ctx)
	p.add(conn, call{kind: kindTableRows}, e.bus, e.path, propertiesIface, "Get", "org.a11y.atspi.Table", "NRows")
	p.add(conn, call{kind: kindTableColumns}, e.bus, e.path, propertiesIface, "Get", "org.a11y.atspi.Table", "NColumns")
	p.add(conn, call{kind: kindExtents}, e.bus, e.path, "org.a11y.atspi.Component", "GetExtents", coords)
	if err := r.drain(p, func(a answer) {
		d := a.decoder()
		switch a.kind {
		case kindTableRows, kindTableColumns:
			if d.sig() != "i" {
				return
			}
			if n := d.int32(); d.err == nil {
				if a.kind == kindTableRows {
					b.rows = n
				} else {
					b.cols = n
				}
			}
		case kindExtents:
			d.align(8)
			b.x, b.y, b.w, b.h = d.int32(), d.int32(), d.int32(), d.int32()
		}
	}); err != nil {
		return err
	}
	e.tableRows, e.tableCols = b.rows, b.cols
	if b.rows <= 0 || b.cols <= 0 || b.w <= 0 || b.h <= 0 {
		return nil // nothing on screen to read, or what is not known
	}

	// Round 2: the corner cells, then their names.
	r.corners(conn, e, &b)

	rows, cols := fitBlock(b.r1-b.r0+1, b.c1-b.c0+1, room)
	short := rows < b.r1-b.r0+1 || cols < b.c1-b.c0+1
	if rows == 0 {
		return nil
	}

	// Round 3: the cells by row and column.
	n := int(rows * cols)
	cells := make([]*elem, n)
	p = newPipe(r.ctx)
	for i := 0; i < n; i++ {
		row, col := b.r0+int32(i)/cols, b.c0+int32(i)%cols
		p.add(conn, call{target: i, kind: kindCell}, e.bus, e.path, "org.a11y.atspi.Table", "GetAccessibleAt", row, col)
	}
	if err := r.drain(p, func(a answer) {
		bus, path := a.decoder().ref()
		if path == "" || path == nullPath || bus == "" {
			return
		}
		k := newElem(bus, path)
		k.inBlock = true
		k.cellRow, k.cellCol = b.r0+int32(a.target)/cols, b.c0+int32(a.target)%cols
		k.index = k.cellRow*b.cols + k.cellCol
		cells[a.target] = k
	}); err != nil {
		return err
	}

	// Round 4: each cell's role, states and name; interfaces once.
	p = newPipe(r.ctx)
	first := true
	for i, k := range cells {
		if k == nil {
			continue
		}
		p.add(conn, call{target: i, kind: kindRole}, k.bus, k.path, "org.a11y.atspi.Accessible", "GetRole")
		p.add(conn, call{target: i, kind: kindState}, k.bus, k.path, "org.a11y.atspi.Accessible", "GetState")
		p.add(conn, call{target: i, kind: kindName}, k.bus, k.path, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
		if first {
			p.add(conn, call{target: i, kind: kindIfaces}, k.bus, k.path, "org.a11y.atspi.Accessible", "GetInterfaces")
			first = false
		}
	}
	var ifaces ifaceSet
	stated := make([]bool, n)
	if err := r.drain(p, func(a answer) {
		k := cells[a.target]
		if a.kind == kindIfaces {
			ifaces = decodeIfaces(a.decoder())
			return
		}
		if applyProps(k, a.kind, &a.reply) == nil && a.kind == kindState {
			stated[a.target] = true
		}
	}); err != nil {
		return err
	}
	// The block ends before the row of the first cell not known (whether
	// it shows is not known).
	end := n
	for i, k := range cells {
		if k == nil || !stated[i] {
			end = i - i%int(cols)
			break
		}
	}
	var kids []*elem
	secure := false
	for _, k := range cells[:end] {
		if !k.states.has(stateShowing) {
			continue
		}
		k.ifaces, k.childCount, k.hasProps, k.resolved = ifaces, 0, true, true
		if r.known[k.key()] == nil {
			r.known[k.key()] = k
		}
		kids = append(kids, k)
		secure = secure || secureRole(RoleName(k.role))
	}
	e.children, e.resolved = kids, true
	e.blockCut = end < n || short && (len(kids) == 0 || secure)
	return nil
}

// blockSize is what a table read by its visible block says of its size:
// the counts it reported and the rectangle of cells the read placed (the
// cells assemble put in the tree, marked by its walk). Nil for any other
// element, and for a table whose counts did not come (the read then says
// truncated and nothing more).
//
// The rectangle never spans a cell the read lacks. The block is read in
// whole rows (fitBlock, readBlock), but assemble may still place only
// part of it: the element budget can run out among the cells, and a cell
// whose properties never came is left out. So the rectangle is the first
// row and every following row the read holds whole; when even the first
// row is not whole, the run of its cells the read holds, from the block's
// first column. A row with a hole in it ends the rectangle before it.
func blockSize(e *elem, mark int) *TableSize {
	if !e.blockRead || e.tableRows < 0 || e.tableCols < 0 {
		return nil
	}
	s := &TableSize{Rows: int(e.tableRows), Columns: int(e.tableCols)}
	// The cells are the table's children in row-major order.
	type run struct{ row, first, last, n int32 }
	var rows []run
	c0, c1 := int32(-1), int32(-1)
	for _, k := range e.children {
		if !k.inBlock {
			continue
		}
		if c0 < 0 || k.cellCol < c0 {
			c0 = k.cellCol
		}
		c1 = max(c1, k.cellCol)
		if k.gone || k.mark != mark {
			continue
		}
		if len(rows) == 0 || rows[len(rows)-1].row != k.cellRow {
			rows = append(rows, run{row: k.cellRow, first: k.cellCol, last: k.cellCol})
		}
		r := &rows[len(rows)-1]
		r.first, r.last, r.n = min(r.first, k.cellCol), max(r.last, k.cellCol), r.n+1
	}
	whole := func(r run) bool { return r.first == c0 && r.last == c1 && r.n == c1-c0+1 }
	if len(rows) == 0 {
		return s
	}
	first := rows[0]
	if !whole(first) {
		// Part of the first row: its cells from the block's first
		// column, when they run without a hole.
		if first.first != c0 || first.n != first.last-first.first+1 {
			return s
		}
		s.FirstRow, s.LastRow = int(first.row)+1, int(first.row)+1
		s.FirstColumn, s.LastColumn = int(first.first)+1, int(first.last)+1
		return s
	}
	last := first.row
	for _, r := range rows[1:] {
		if r.row != last+1 || !whole(r) {
			break
		}
		last = r.row
	}
	s.FirstRow, s.LastRow = int(first.row)+1, int(last)+1
	s.FirstColumn, s.LastColumn = int(c0)+1, int(c1)+1
	return s
}

// corners finds the block's first and last row and column from the cells
// at the table's top-left and bottom-right corners. Without them (a table
// that does not answer, names that are no addresses) any cell may show:
// the block is the whole table, of which a read holds the first rows and
// columns (fitBlock) and says it cut the rest.
func (r *reader) corners(conn *wireConn, e *elem, b *block) {
	b.r0, b.c0 = 0, 0
	b.r1, b.c1 = b.rows-1, b.cols-1
	coords := r.c.coordType(r.ctx, e.bus)
	p := newPipe(r.ctx)
	p.add(conn, call{target: 0, kind: kindCell}, e.bus, e.path, "org.a11y.atspi.Component", "GetAccessibleAtPoint", b.x+1, b.y+1, coords)
	p.add(conn, call{target: 1, kind: kindCell}, e.bus, e.path, "org.a11y.atspi.Component", "GetAccessibleAtPoint", b.x+b.w-2, b.y+b.h-2, coords)
	var buses [2]string
	if r.drain(p, func(a answer) {
		bus, path := a.decoder().ref()
		if path != "" && path != nullPath {
			buses[a.target], b.corner[a.target] = bus, path
		}
	}) != nil || b.corner[0] == "" || b.corner[1] == "" {
		return
	}
	var names [2]string
	p = newPipe(r.ctx)
	for i := range b.corner {
		p.add(conn, call{target: i, kind: kindName}, buses[i], b.corner[i], propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
	}
	if r.drain(p, func(a answer) {
		if d := a.decoder(); d.sig() == "s" {
			names[a.target] = d.str()
		}
	}) != nil {
		return
	}
	r0, c0, ok0 := parseCellAddress(names[0])
	r1, c1, ok1 := parseCellAddress(names[1])
	if !ok0 || !ok1 || r1 < r0 || c1 < c0 || r1 >= b.rows || c1 >= b.cols {
		return
	}
	b.r0, b.c0, b.r1, b.c1 = r0, c0, r1, c1
}

// drain sends a pipe's calls and hands each answer that is not an error
// to f. A connection that closed or a context that ended fails the read;
// an element's error answer is skipped.
func (r *reader) drain(p *pipe, f func(answer)) error {
	defer p.close()
	r.calls += p.sent
	p.flush()
	for {
		a, ok, err := p.next()
		if err != nil {
			return mapErr(err, nil, r.ctx, targetFrame)
		}
		if !ok {
			return nil
		}
		if a.err != nil {
			if errConnGone(a.err) {
				return mapErr(a.err, nil, r.ctx, targetFrame)
			}
			continue
		}
		f(a)
	}
}

// parseCellAddress reads a cell address, column letters then a row number
// ("A1", "AB12"), into a zero-based row and column.
func parseCellAddress(s string) (row, col int32, ok bool) {
	i := 0
	c := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		c = c*26 + int(s[i]-'A'+1)
		if c > 1<<24 {
			return 0, 0, false
		}
		i++
	}
	if i == 0 || i == len(s) {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil || n < 1 || n > 1<<30 {
		return 0, 0, false
	}
	return int32(n - 1), int32(c - 1), true
}
