package engine_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestATableReadInPartSaysItsSize: a table whose cells the read holds only
// in part (a sheet's visible block) carries its row and column counts and
// the block it shows in every read shape, in the structured row and in its
// tree_text line; an ordinary table carries neither.
func TestATableReadInPartSaysItsSize(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	root := h.demo.Form.Window.Root()
	sheet := root.Add("table", "Sheet1").SetTableSize(&engine.TableSize{
		Rows: 1048576, Columns: 16384, FirstRow: 1, LastRow: 2, FirstColumn: 1, LastColumn: 2})
	for _, name := range []string{"A1", "B1", "A2", "B2"} {
		sheet.Add("table_cell", name).SetHasText(true).SetValue("text of " + name)
	}
	blank := root.Add("table", "Nothing shown").SetTableSize(&engine.TableSize{Rows: 500, Columns: 3})
	blank.Add("label", "placeholder")
	plain := root.Add("table", "Small")
	plain.Add("table_cell", "only cell")

	read := h.readForm(map[string]any{"max_elements": 5000})
	sheetToken := testkit.Token(t, read, "table", "Sheet1")
	cases := []struct {
		name  string
		args  map[string]any
		label string
		want  map[string]any // the row's table object; nil: none
		line  string         // what its tree_text line ends with; "" for no counts
	}{
		{"full read", nil, "Sheet1",
			map[string]any{"rows": 1048576.0, "columns": 16384.0, "first_row": 1.0, "last_row": 2.0, "first_column": 1.0, "last_column": 2.0},
			` rows=1048576 columns=16384 shown_rows=1-2 shown_columns=1-2`},
		{"skeleton read", map[string]any{"skeleton": true}, "Sheet1",
			map[string]any{"rows": 1048576.0, "columns": 16384.0, "first_row": 1.0, "last_row": 2.0, "first_column": 1.0, "last_column": 2.0},
			` rows=1048576 columns=16384 shown_rows=1-2 shown_columns=1-2`},
		{"drill-down on the table", map[string]any{"root": sheetToken}, "Sheet1",
			map[string]any{"rows": 1048576.0, "columns": 16384.0, "first_row": 1.0, "last_row": 2.0, "first_column": 1.0, "last_column": 2.0},
			` rows=1048576 columns=16384 shown_rows=1-2 shown_columns=1-2`},
		{"a table that shows no cell", nil, "Nothing shown",
			map[string]any{"rows": 500.0, "columns": 3.0}, ` rows=500 columns=3`},
		{"an ordinary table", nil, "Small", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"max_elements": 200}
			for k, v := range c.args {
				args[k] = v
			}
			r := h.readForm(args)
			row := testkit.Row(t, r, "table", c.label)
			got, has := row["table"].(map[string]any)
			switch {
			case c.want == nil && has:
				t.Fatalf("an ordinary table's row carries a size: %v", row)
			case c.want != nil && !sameMap(got, c.want):
				t.Fatalf("the table's row says %v, want %v", row["table"], c.want)
			}
			line := textLine(t, r, testkit.Int(t, row, "element_index"))
			if c.line != "" && !strings.HasSuffix(line, c.line) {
				t.Fatalf("tree_text line %q does not end with %q", line, c.line)
			}
			if c.line == "" && strings.Contains(line, "rows=") {
				t.Fatalf("an ordinary table's line %q carries counts", line)
			}
		})
	}
	// A cell's token from a read of the table drills down to the cell,
	// with its whole text.
	cell := testkit.Token(t, read, "table_cell", "B2")
	down := h.ok("get_window_state", map[string]any{"root": cell})
	if rows := down["elements"].([]any); len(rows) != 1 || rows[0].(map[string]any)["label"] != "B2" {
		t.Fatalf("a drill-down on a cell's token returns the cell: %v", down["elements"])
	}
	if down["text"] != "text of B2" {
		t.Fatalf("a drill-down on a cell returns its text: %v", down["text"])
	}
}

// textLine is the tree_text line of the row with element index idx.
func textLine(t *testing.T, read map[string]any, idx int) string {
	t.Helper()
	want := "[" + strconv.Itoa(idx) + "] "
	for _, line := range strings.Split(testkit.Field[string](t, read, "tree_text"), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), want) {
			return line
		}
	}
	t.Fatalf("no tree_text line for row %d:\n%s", idx, read["tree_text"])
	return ""
}

func sameMap(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}
