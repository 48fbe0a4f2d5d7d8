package native_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The sheet's size in every read shape, and a cell read by drill-down:
// called from TestCalcReadsTheVisibleBlock on each sheet, so Calc is
// started once for all of it.

// checkSheetSize checks that the sheet's row carries the row and column
// counts Calc reports (ref, the reference client's account) and the block
// of cells the read holds, from row 1 and column 1 to the last visible
// ones, in a full read, a skeleton read and a drill-down on the sheet, and
// that its tree_text line says them.
func checkSheetSize(t *testing.T, h *harness, a *desktopApp, ref sheetFacts, full map[string]any) {
	t.Helper()
	tableToken, _ := rowWith(t, full, "Sheet", "table")
	want := map[string]float64{
		"rows": float64(ref.Rows), "columns": float64(ref.Columns),
		"first_row": 1, "last_row": float64(ref.VisibleRows),
		"first_column": 1, "last_column": float64(ref.VisibleColumns),
	}
	line := fmt.Sprintf(" rows=%d columns=%d shown_rows=1-%d shown_columns=1-%d", ref.Rows, ref.Columns, ref.VisibleRows, ref.VisibleColumns)
	shapes := []struct {
		name string
		read map[string]any
	}{
		{"full read", full},
		{"skeleton read", calcRead(t, h, a, map[string]any{"pid": a.pid, "skeleton": true, "max_elements": 200, "max_depth": 20})},
		{"drill-down on the sheet", calcRead(t, h, a, map[string]any{"root": tableToken, "max_elements": 5})},
	}
	for _, s := range shapes {
		_, row := rowWith(t, s.read, "Sheet", "table")
		got, _ := row["table"].(map[string]any)
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("%s: the sheet's row says %v, want %v", s.name, row["table"], want)
			}
		}
		if !strings.Contains(asString(s.read["tree_text"]), line+"\n") {
			t.Fatalf("%s: no tree_text line ends with %q:\n%.2000s", s.name, line, s.read["tree_text"])
		}
	}
}

// checkCellDrillDown reads a cell by drill-down on its token from a read
// of the sheet: the one row is the cell, named by its address, its value
// the cell's text, and the drill-down's text is that text too.
func checkCellDrillDown(t *testing.T, h *harness, a *desktopApp, full map[string]any, address, text string) {
	t.Helper()
	token, _ := rowWith(t, full, address, "table_cell")
	down := calcRead(t, h, a, map[string]any{"root": token})
	rows := testkit.Rows(t, down)
	if len(rows) != 1 {
		t.Fatalf("a drill-down on cell %s returned %d rows:\n%s", address, len(rows), down["tree_text"])
	}
	cell := rows[0]
	if cell["label"] != address || cell["value"] != text || down["root"] != token {
		t.Fatalf("a drill-down on cell %s returned %v (root %v)", address, cell, down["root"])
	}
	if down["text"] != text {
		t.Fatalf("the drill-down on cell %s has text %v, want %q", address, down["text"], text)
	}
}
