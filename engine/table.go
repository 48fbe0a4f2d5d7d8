package engine

import (
	"strconv"
	"strings"
)

// Tables read in part. A spreadsheet's sheet, or a list or tree too big to
// list, is a table that makes its cells on demand; a backend reads only
// the block of cells on screen (docs/qt-and-libreoffice.md), and the read
// says truncated. truncated alone does not say how much is missing: a
// model that sees forty rows of a sheet cannot tell a 40-row sheet from a
// million-row one. So the table's row carries the table's own counts and
// which of its rows and columns the read holds.

// TableSize is what a table read in part says of itself: its row and
// column counts as the table reports them, and the block of cells the read
// holds, as one-based row and column numbers, first and last inclusive
// (zero when it holds none). Counts are what the app claims: LibreOffice
// Calc reports every sheet as 1,048,576 rows by 16,384 columns, whatever
// the file holds.
type TableSize struct {
	Rows        int `json:"rows"`
	Columns     int `json:"columns"`
	FirstRow    int `json:"first_row,omitempty"`
	LastRow     int `json:"last_row,omitempty"`
	FirstColumn int `json:"first_column,omitempty"`
	LastColumn  int `json:"last_column,omitempty"`
}

// Shown reports whether the read holds any of the table's cells.
func (s *TableSize) Shown() bool { return s.FirstRow > 0 && s.FirstColumn > 0 }

// tableSizeOf is a node's table size for a row, a copy so a row never
// shares the snapshot's memory; nil for an element that is no table read
// in part.
func tableSizeOf(n *Node) *TableSize {
	if n.Table == nil {
		return nil
	}
	s := *n.Table
	return &s
}

// writeTableSize appends a table row's counts to its tree_text line:
// " rows=1048576 columns=16384 shown_rows=1-40 shown_columns=1-24", in the
// key=value form of a skeleton line's children= and descendants=.
func writeTableSize(b *strings.Builder, s *TableSize) {
	if s == nil {
		return
	}
	b.WriteString(" rows=")
	b.WriteString(strconv.Itoa(s.Rows))
	b.WriteString(" columns=")
	b.WriteString(strconv.Itoa(s.Columns))
	if !s.Shown() {
		return
	}
	b.WriteString(" shown_rows=")
	writeSpan(b, s.FirstRow, s.LastRow)
	b.WriteString(" shown_columns=")
	writeSpan(b, s.FirstColumn, s.LastColumn)
}

// writeSpan writes first-last, or one number when they are the same.
func writeSpan(b *strings.Builder, first, last int) {
	b.WriteString(strconv.Itoa(first))
	if last != first {
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(last))
	}
}
