package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// belowFold is a settings window of the Form Demo app with long scrolled
// content: a list of 30 rows (5 in view) with a button and an entry each,
// a second tab's page that is not selected, a tree with a collapsed
// branch, and an invisible button among the rows.
type belowFold struct {
	win     *mock.Window
	list    *mock.Element // the scroll pane of the General page
	status  *mock.Element
	ghost   *mock.Element // in row 20, not visible
	leaf    *mock.Element // under the collapsed branch
	hiddenP *mock.Element // on the unselected tab's page
}

func newBelowFold(h *harness) *belowFold {
	app := h.demo.Form.Window.App()
	w := app.AddWindow("Settings", engine.Rect{X: 40, Y: 40, W: 700, H: 500})
	root := w.Root()
	b := &belowFold{win: w}
	b.status = root.Add("label", "nothing opened")
	tabs := root.Add("page_tab_list", "Pages")
	general := tabs.Add("page_tab", "General").AddStates("selected")
	b.list = general.Add("scroll_pane", "")
	for i := 0; i < 30; i++ {
		row := b.list.Add("list_item", fmt.Sprintf("Row %d", i))
		n := i
		row.Add("push_button", fmt.Sprintf("Open %d", i)).OnAction("click", func(c *mock.ActionContext) {
			b.status.SetName(fmt.Sprintf("opened %d", n))
		})
		row.Add("entry", fmt.Sprintf("Note %d", i))
		if i == 20 {
			b.ghost = row.Add("push_button", "Ghost")
		}
	}
	b.list.MakeScrolled(5)
	b.ghost.RemoveStates("visible", "showing")

	advanced := tabs.Add("page_tab", "Advanced")
	pane := advanced.Add("scroll_pane", "")
	for i := 0; i < 10; i++ {
		pane.Add("push_button", fmt.Sprintf("Advanced %d", i))
	}
	pane.MakeScrolled(3)
	for _, e := range append([]*mock.Element{advanced}, advanced.FindAll("", "")...) {
		e.RemoveStates("showing")
	}
	b.hiddenP = advanced.Find("push_button", "Advanced 8")

	tree := root.Add("scroll_pane", "")
	branch := tree.Add("tree_item", "Branch").AddStates("expandable")
	b.leaf = branch.Add("tree_item", "Leaf")
	for i := 0; i < 8; i++ {
		tree.Add("tree_item", fmt.Sprintf("Item %d", i))
	}
	tree.MakeScrolled(4)
	b.leaf.RemoveStates("showing")
	return b
}

// read reads the settings window whole.
func (b *belowFold) read(h *harness) map[string]any {
	h.t.Helper()
	return h.ok("get_window_state", map[string]any{"window_id": uint64(b.win.ID()), "max_elements": 1000})
}

// rowState reports whether the row of a token in a read carries a state.
func rowState(t *testing.T, read map[string]any, token string, state string) bool {
	t.Helper()
	for _, row := range testkit.Rows(t, read) {
		if row["element_token"] == token {
			for _, s := range asList(row["states"]) {
				if s == state {
					return true
				}
			}
			return false
		}
	}
	t.Fatalf("no row %s", token)
	return false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestActsBelowTheFoldScrollFirst(t *testing.T) {
	h := newHarness(t, nil)
	b := newBelowFold(h)
	h.start(nil)
	read := b.read(h)

	open := testkit.Token(t, read, "push_button", "Open 25")
	if !b.list.Find("push_button", "Open 25").HasState("visible") || b.list.Find("push_button", "Open 25").HasState("showing") {
		t.Fatal("the fixture's row 25 starts visible and not showing")
	}
	res := h.ok("click", map[string]any{"element_token": open})
	if res["scrolled_into_view"] != true || res["path"] != "atspi_action" || res["took_cursor"] != false {
		t.Fatalf("a click below the fold scrolls, then acts headless: %v", res)
	}
	if b.status.Name() != "opened 25" {
		t.Fatalf("the click reached the button: status %q", b.status.Name())
	}
	if !strings.Contains(fmt.Sprint(res["diff"]), "opened 25") {
		t.Fatalf("the diff shows the act's change: %v", res["diff"])
	}
	if !b.list.Find("push_button", "Open 25").HasState("showing") {
		t.Fatal("the button shows after the act")
	}
	if len(h.desk.Sent()) != 0 {
		t.Fatal("scrolling into view sends no synthetic input")
	}
	if calls := h.desk.CallsOf("ScrollIntoView"); len(calls) != 1 {
		t.Fatalf("one scroll request: %v", calls)
	}

	// An element in view is acted on without a scroll, and the result
	// does not say it scrolled.
	read = b.read(h)
	res = h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Open 26")})
	if _, said := res["scrolled_into_view"]; said {
		t.Fatalf("an element in view is not scrolled to: %v", res)
	}

	// type_text and set_value scroll too (back up to row 2).
	read = b.read(h)
	note := testkit.Token(t, read, "entry", "Note 2")
	if rowState(t, read, note, "showing") {
		t.Fatal("row 2 is out of view after scrolling to row 25")
	}
	res = h.ok("type_text", map[string]any{"element_token": note, "text": "hello"})
	if res["scrolled_into_view"] != true || res["effect"] != "confirmed" {
		t.Fatalf("type_text below the fold: %v", res)
	}
	read = b.read(h)
	res = h.ok("set_value", map[string]any{"element_token": testkit.Token(t, read, "entry", "Note 29"), "value": "last"})
	if res["scrolled_into_view"] != true || res["readback"] != "match" {
		t.Fatalf("set_value below the fold: %v", res)
	}
}

func TestHiddenElementsStayRefused(t *testing.T) {
	h := newHarness(t, nil)
	b := newBelowFold(h)
	h.start(nil)
	cases := []struct {
		name string
		el   func() *mock.Element
	}{
		{"an invisible button among scrolled rows", func() *mock.Element { return b.ghost }},
		{"a tree item under a collapsed branch", func() *mock.Element { return b.leaf }},
		{"a button on an unselected tab's page", func() *mock.Element { return b.hiddenP }},
		{"a disabled button below the fold", func() *mock.Element { return b.list.Find("push_button", "Open 27").Disable() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			el := c.el()
			read := b.read(h)
			h.desk.ResetCalls()
			tok := testkit.Token(t, read, el.Role(), el.Name())
			h.fail(engine.CodeElementDisabled, "click", map[string]any{"element_token": tok})
			if calls := h.desk.CallsOf("ScrollIntoView"); len(calls) != 0 {
				t.Fatalf("nothing is scrolled for it: %v", calls)
			}
			if el.HasState("showing") {
				t.Fatal("it is still not showing")
			}
		})
	}
}

// TestScrollByTheBarOnly: a view that declines an element's own scroll
// request (as GTK 3 does) is scrolled by its scroll bar to the engine's
// estimate of the element's place; on uneven rows the estimate misses
// and the engine narrows it down.
func TestScrollByTheBarOnly(t *testing.T) {
	h := newHarness(t, nil)
	w := h.demo.Form.Window.App().AddWindow("Uneven", engine.Rect{X: 60, Y: 60, W: 600, H: 400})
	pane := w.Root().Add("scroll_pane", "")
	for i := 0; i < 40; i++ {
		row := pane.Add("list_item", fmt.Sprintf("Row %d", i))
		if i < 10 {
			for j := 0; j < 12; j++ {
				row.Add("label", fmt.Sprintf("detail %d.%d", i, j))
			}
			continue
		}
		row.Add("push_button", fmt.Sprintf("Pick %d", i))
	}
	pane.MakeScrolled(5).DeclineScrollTo(true)
	h.start(nil)
	requests := 0
	names := []string{"Pick 12", "Pick 38", "Pick 20"}
	for _, name := range names {
		clickScrolledIntoView(t, h, w, pane, name)
		requests += len(h.desk.CallsOf("ScrollIntoView"))
	}
	if requests <= len(names) {
		t.Fatalf("the uneven rows make a first estimate miss at least once (%d requests for %d clicks)", requests, len(names))
	}
}

// TestScrollPagesThroughContent: rows held in a content element whose
// children run against their places (as a GTK 3 grid lists them, last
// first), in a view that declines an element's own scroll request. The
// document-order estimate lands on the wrong rows; the content's frame is
// known, so the engine pages the view through it until the row shows.
func TestScrollPagesThroughContent(t *testing.T) {
	h := newHarness(t, nil)
	w := h.demo.Form.Window.App().AddWindow("Reversed", engine.Rect{X: 60, Y: 60, W: 600, H: 400})
	pane := w.Root().Add("scroll_pane", "")
	content := pane.Add("panel", "")
	for i := 39; i >= 0; i-- {
		content.Add("push_button", fmt.Sprintf("Pick %d", i)) // the last child is the top row
	}
	pane.MakeScrolledContent(content, 5).DeclineScrollTo(true)
	h.start(nil)
	for _, name := range []string{"Pick 30", "Pick 8", "Pick 22"} {
		clickScrolledIntoView(t, h, w, content, name)
		if n := len(h.desk.CallsOf("ScrollIntoView")); n < 2 {
			t.Fatalf("%s: the estimate by document order misses reversed rows, so the view is paged (%d scroll requests)", name, n)
		}
	}
}

// clickScrolledIntoView reads window w and clicks its button name, which
// lies out of view in container: the click must scroll it into view and
// leave it showing. The desktop's call log starts at the click.
func clickScrolledIntoView(t *testing.T, h *harness, w *mock.Window, container *mock.Element, name string) {
	t.Helper()
	read := h.ok("get_window_state", map[string]any{"window_id": uint64(w.ID()), "max_elements": 1000})
	h.desk.ResetCalls()
	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", name)})
	if res["scrolled_into_view"] != true {
		t.Fatalf("%s: %v", name, res)
	}
	if !container.Find("push_button", name).HasState("showing") {
		t.Fatalf("%s shows after the act", name)
	}
}
