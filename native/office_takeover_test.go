package native_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// calcTakeoverClicks clicks cells of the 100,000-row sheet by token in a
// takeover (after TestCalcReadsTheVisibleBlock's headless reads, in the
// same Calc) and reads back where Calc's cell cursor went (the Name Box,
// whose text is the cursor's address):
//
//   - a first click, on B5: Calc's extents may still lag its layout, and
//     a click that put the cursor elsewhere says so (landed_elsewhere,
//     effect no_change);
//   - the partly visible cell at the block's bottom-right corner: Calc
//     reports its extents clipped to what shows, so the click lands on it
//     and the cursor goes there;
//   - a cell whose token was read before the sheet scrolled: Calc offers
//     no accessibility means to scroll a cell back into view
//     (docs/qt-and-libreoffice.md), so the click is refused before anything
//     is sent, and the cursor stays where it was;
//   - a cell that was below the first block, scrolled into view by the
//     takeover's scroll and clicked by a fresh read's token; then text
//     typed into it (a cell takes text only by typing), read back in the
//     diff.
func calcTakeoverClicks(t *testing.T, a *desktopApp) {
	t.Helper()
	w := newTakeover(t)
	w.grantTakeover(a.pid)
	read := calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
	win := windowOf(t, read)
	w.ok("bring_to_front", map[string]any{"window_id": win})
	nameBox := nameBoxIndex(t, read)

	read = calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
	// Calc's cell extents can lag its layout for a while after its window
	// shows (measured: one or two rows off, docs/qt-and-libreoffice.md), so
	// a first click may land on a neighbour; the result must then say so.
	b5, _ := rowWith(t, read, "B5", "table_cell")
	res := w.ok("click", map[string]any{"element_token": b5, "delivery_mode": "foreground"})
	if res["landed_elsewhere"] == nil {
		// The result says the click landed on B5: Calc's cursor goes there
		// (its Name Box may follow a moment after the act settled).
		waitNameBox(t, w, a, nameBox, "B5")
	} else if res["effect"] != "no_change" {
		t.Fatalf("a click on B5 that landed elsewhere says it changed something: %v", res)
	}
	read = calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
	_, sheet := rowWith(t, read, "Sheet", "table")
	size := testkit.Field[map[string]any](t, sheet, "table")
	firstLast := int(testkit.Field[float64](t, size, "last_row"))
	edge := cellAddress(firstLast, int(testkit.Field[float64](t, size, "last_column")))
	token, cell := rowWith(t, read, edge, "table_cell")
	t.Logf("the corner cell %s: frame %v", edge, cell["frame"])
	res = w.ok("click", map[string]any{"element_token": token, "delivery_mode": "foreground"})
	if res["path"] != "xtest" || res["landed_elsewhere"] != nil {
		t.Fatalf("the click on the corner cell %s: %v", edge, res)
	}
	waitNameBox(t, w, a, nameBox, edge)

	// A token read while B5 showed, then the sheet scrolled down.
	read = calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
	b5, _ = rowWith(t, read, "B5", "table_cell")
	sheetToken, _ := rowWith(t, read, "Sheet", "table")
	w.ok("scroll", map[string]any{"element_token": sheetToken, "direction": "down", "amount": 10})
	testkit.Eventually(t, 10*time.Second, "the sheet scrolled past row 5", func() bool {
		r := calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
		_, s := rowWith(t, r, "Sheet", "table")
		return testkit.Field[float64](t, testkit.Field[map[string]any](t, s, "table"), "first_row") > 5
	})
	r := w.call("click", map[string]any{"element_token": b5, "delivery_mode": "foreground"})
	if r.Err == nil || r.Err.Code != engine.CodeStaleElementToken {
		t.Fatalf("a click by a token of a cell scrolled out of view: %s", r.Text)
	}
	waitNameBox(t, w, a, nameBox, edge)

	// How a model brings a cell into view in Calc: the takeover's scroll
	// moved the sheet, and a fresh read's token of a cell that was below
	// the first block clicks it.
	read = calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
	_, sheet = rowWith(t, read, "Sheet", "table")
	size = testkit.Field[map[string]any](t, sheet, "table")
	row := int(testkit.Field[float64](t, size, "last_row")) - 1
	if row <= firstLast {
		t.Fatalf("after the scroll the block ends at row %d, not below the first block's %d", row+1, firstLast)
	}
	below := cellAddress(row, 2)
	token, _ = rowWith(t, read, below, "table_cell")
	w.ok("click", map[string]any{"element_token": token, "delivery_mode": "foreground"})
	waitNameBox(t, w, a, nameBox, below)

	// Text into that cell: typed in the takeover (Calc's cells take no
	// EditableText) and entered with Return; the diff reads the cell back.
	read = calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
	token, _ = rowWith(t, read, below, "table_cell")
	res = w.ok("type_text", map[string]any{"element_token": token, "text": "Typed 77\n", "delivery_mode": "foreground"})
	if res["path"] != "xtest" {
		t.Fatalf("typing into %s in a takeover: %v", below, res)
	}
	diffShows(t, w.harness, a.pid, res, "typing into "+below+" in a takeover", "Typed 77")
}

// nameBoxIndex is the element index of Calc's Name Box in a read: the
// text row whose value is the cell cursor's address, A1 in a sheet just
// opened.
func nameBoxIndex(t *testing.T, read map[string]any) int {
	t.Helper()
	for _, row := range testkit.Rows(t, read) {
		if row["role"] == "text" && row["value"] == "A1" {
			return int(testkit.Field[float64](t, row, "element_index"))
		}
	}
	t.Fatalf("no Name Box (a text row reading A1) in:\n%.3000s", read["tree_text"])
	return 0
}

// waitNameBox waits until the Name Box reads address.
func waitNameBox(t *testing.T, w *tk, a *desktopApp, nameBox int, address string) {
	t.Helper()
	last := ""
	if !testkit.Poll(10*time.Second, func() bool {
		r := calcRead(t, w.harness, a, map[string]any{"pid": a.pid, "max_elements": 5000})
		for _, row := range testkit.Rows(t, r) {
			if int(testkit.Field[float64](t, row, "element_index")) == nameBox {
				last = asString(row["value"])
			}
		}
		return last == address
	}) {
		t.Fatalf("the Name Box reads %q, want %q", last, address)
	}
}

// cellAddress is a sheet's name of the cell at a one-based row and column
// ("V40").
func cellAddress(row, col int) string {
	letters := ""
	for ; col > 0; col = (col - 1) / 26 {
		letters = string(rune('A'+(col-1)%26)) + letters
	}
	return fmt.Sprintf("%s%d", letters, row)
}
