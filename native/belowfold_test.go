package native_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Most of the 200-row synthetic window is below the fold: its rows sit in
// a scrolled window whose clipped widgets GTK 3 reports visible but not
// showing. A headless click on one scrolls it into view by accessibility
// calls (GTK 3 declines Component.ScrollTo, so through the scroll bar's
// value) and then clicks; each row's button reports its click in the
// status label ("pressed row N").

// readAll reads the whole synthetic window.
func readAll(h *harness, pid int) map[string]any {
	h.t.Helper()
	return h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
}

func TestHeadlessClickBelowTheFold(t *testing.T) {
	onDesktop(t)
	pid, h := grantedSynthetic(t, 200)

	for _, row := range []int{150, 199, 3, 120} {
		tok := testkit.Token(t, readAll(h, pid), "push_button", fmt.Sprintf("Button %d", row))
		res := h.ok("click", map[string]any{"element_token": tok})
		if res["path"] != "atspi_action" || res["took_cursor"] != false {
			t.Fatalf("row %d: the click is headless: %v", row, res)
		}
		if !strings.Contains(testkit.JSON(t, res["diff"]), fmt.Sprintf("pressed row %d", row)) {
			t.Fatalf("row %d: the fixture reports the click in the diff: %v", row, res)
		}
		// Row 3 is above the fold when the window opens, but the clicks
		// before it scrolled the view far down.
		if res["scrolled_into_view"] != true {
			t.Fatalf("row %d was below or above the fold and was scrolled to: %v", row, res)
		}
	}
}

// TestClicksSpreadOverALongWindow clicks 24 buttons spread over the 200
// rows (about every eighth), in an order that goes back and forth, and
// counts how many clicks succeed (before scrolling into view, only those
// on rows in view did: 39 of 120 in a run of 120; every click costs a
// settle, so the test keeps a fifth of that run).
func TestClicksSpreadOverALongWindow(t *testing.T) {
	onDesktop(t)
	pid, h := grantedSynthetic(t, 200)

	const clicks = 24
	ok, scrolled := 0, 0
	var failures []string
	for i := 0; i < clicks; i++ {
		// 7 and 24 are coprime: every button of the spread once, in
		// jumps up and down the window.
		row := (i * 7 % clicks) * 200 / clicks
		tok := testkit.Token(t, readAll(h, pid), "push_button", fmt.Sprintf("Button %d", row))
		r := h.call("click", map[string]any{"element_token": tok})
		if r.Err != nil {
			failures = append(failures, fmt.Sprintf("row %d: %s", row, r.Text))
			continue
		}
		res := testkit.Decode(t, r.Structured)
		if !strings.Contains(testkit.JSON(t, res["diff"]), fmt.Sprintf("pressed row %d", row)) {
			failures = append(failures, fmt.Sprintf("row %d: no click in the diff: %v", row, res["diff"]))
			continue
		}
		ok++
		if res["scrolled_into_view"] == true {
			scrolled++
		}
	}
	t.Logf("%d of %d clicks on buttons spread over 200 rows succeeded (%d scrolled into view first)", ok, clicks, scrolled)
	if ok != clicks {
		t.Fatalf("%d of %d clicks failed:\n%s", clicks-ok, clicks, strings.Join(failures, "\n"))
	}
}
