package native_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
	"github.com/nish-driver/nish-driver/schema"
)

// The browsers are the apps people use most, and the ones a careless
// accessibility client can kill (docs/native.md, "Calls the driver sends to
// apps"). These tests run both on the local fixture page
// (atspi/testdata/web/form.html) through the engine, as a host's calls
// would, and check after each that the browser still runs.

// browserPage is the fixture's title, the prefix of the window's title.
const browserPage = "Form Fixture"

// browser is a started browser showing the fixture.
type browser struct {
	kind sandbox.Browser
	cmd  interface{ Kill() error }
	pid  int
}

// startBrowser starts kind on the fixture page with accessibility on and
// waits until the page's heading is on the accessibility bus.
func startBrowser(t testing.TB, kind sandbox.Browser) *browser {
	t.Helper()
	return startBrowserAt(t, kind, "")
}

// grantedBrowser starts a browser on the fixture page and a harness (with
// opts; consent answered within 20 s unless opts says otherwise) whose
// session the person granted it, and waits for the page: the start the
// browser tests share. It returns the page's first full read.
func grantedBrowser(t testing.TB, kind sandbox.Browser, opts engine.Options) (*browser, *harness, map[string]any) {
	t.Helper()
	b := startBrowser(t, kind)
	if opts.ConsentTimeout == 0 {
		opts.ConsentTimeout = consentWait
	}
	h := newHarnessWith(t, opts)
	grant(t, h, b.pid)
	return b, h, waitPage(t, h, b)
}

// startBrowserAt is startBrowser with a fragment on the page's address
// (#rows=N makes its table N rows long).
func startBrowserAt(t testing.TB, kind sandbox.Browser, fragment string) *browser {
	t.Helper()
	page := testkit.Fixture(t, "web/form.html")
	cmd, err := deskOf(t).BrowserCommand(kind, "file://"+page+fragment)
	if err != nil {
		t.Fatal(err)
	}
	if err := deskOf(t).Start(cmd); err != nil {
		t.Fatalf("starting %s: %v", kind, err)
	}
	b := &browser{kind: kind, cmd: cmd.Process, pid: cmd.Process.Pid}
	t.Cleanup(func() {
		_ = syscall.Kill(-b.pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	})
	// The window comes first, the page's tree a while later.
	ctx := context.Background()
	deadline := time.Now().Add(45 * time.Second)
	for {
		apps, _ := deskOf(t).AccessibleApps(ctx)
		for _, a := range apps {
			if a.Pid == b.pid {
				if err := deskOf(t).WaitForElement(ctx, a, sandbox.RolePushButton, "Far button", time.Until(deadline)); err != nil {
					t.Fatalf("%s: the fixture page is not on the accessibility bus: %v", kind, err)
				}
				return b
			}
		}
		b.alive(t)
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) never joined the accessibility bus", kind, b.pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive fails the test when the browser's main process is gone.
func (b *browser) alive(t testing.TB) {
	t.Helper()
	if err := b.running(); err != nil {
		t.Fatal(err)
	}
}

// running says why the browser's main process is gone, or nil while it
// runs.
func (b *browser) running() error {
	if err := syscall.Kill(b.pid, 0); err != nil {
		return fmt.Errorf("%s (pid %d) is no longer running: %v", b.kind, b.pid, err)
	}
	// A zombie still answers kill 0: read its state.
	if st := testkit.ProcState(b.pid); st == "Z" || st == "X" {
		return fmt.Errorf("%s (pid %d) has exited (state %s)", b.kind, b.pid, st)
	}
	return nil
}

// waitPage reads the window until the fixture's content is in it (the
// browsers build the page's accessible tree after the window appears).
func waitPage(t testing.TB, h *harness, b *browser) map[string]any {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		r := h.call("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000})
		if r.Err == nil {
			read := testkit.Decode(t, r.Structured)
			if hasRow(read, "push_button", "Far button") {
				return read
			}
		}
		b.alive(t)
		if time.Now().After(deadline) {
			t.Fatalf("the fixture page never showed in %s's tree: %s", b.kind, r.Text)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// hasRow reports whether a read has a row of role whose label holds label
// (a read without rows has none).
func hasRow(read map[string]any, role, label string) bool {
	rows, _ := read["elements"].([]any)
	for _, e := range rows {
		row, _ := e.(map[string]any)
		if row["role"] == role && strings.Contains(asString(row["label"]), label) {
			return true
		}
	}
	return false
}

// rowWith returns the token and row of the first element whose role is one
// of roles and whose label (else value) is label; failing that, the first
// whose label or value holds it. A read without rows (a failed one: nil)
// fails the test saying so (testkit.Rows).
func rowWith(t testing.TB, read map[string]any, label string, roles ...string) (string, map[string]any) {
	t.Helper()
	rows := testkit.Rows(t, read)
	for _, exact := range []bool{true, false} {
		for _, row := range rows {
			for _, role := range roles {
				if row["role"] != role {
					continue
				}
				for _, text := range []string{asString(row["label"]), asString(row["value"])} {
					if (exact && text == label) || (!exact && strings.Contains(text, label)) {
						return testkit.Field[string](t, row, "element_token"), row
					}
				}
			}
		}
	}
	t.Fatalf("no %v labelled %q in:\n%s", roles, label, read["tree_text"])
	return "", nil
}

// windowOf is the id of the window a read is of.
func windowOf(t testing.TB, read map[string]any) uint64 {
	t.Helper()
	return uint64(testkit.Field[float64](t, testkit.Field[map[string]any](t, read, "window"), "window_id"))
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}

var browsers = []sandbox.Browser{sandbox.Chromium, sandbox.Firefox}

// inEachBrowser runs check in a subtest per browser, on the fixture page
// in a session the person granted (grantedBrowser, whose first read of
// the page it is given), and fails it when the browser is gone after.
func inEachBrowser(t *testing.T, check func(t *testing.T, b *browser, h *harness, read map[string]any)) {
	for _, kind := range browsers {
		t.Run(kind.String(), func(t *testing.T) {
			b, h, read := grantedBrowser(t, kind, engine.Options{})
			defer b.alive(t)
			check(t, b, h, read)
		})
	}
}

// TestBrowserReads reads the fixture page in each browser (full, skeleton,
// drill-down and screenshot reads, a walk's count, the password canary
// never returned and its pixels black), then clicks the button below the
// fold.
func TestBrowserReads(t *testing.T) {
	onDesktop(t)
	inEachBrowser(t, func(t *testing.T, b *browser, h *harness, read map[string]any) {
		r := h.call("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000})
		if r.Err != nil {
			t.Fatal(r.Text)
		}
		if err := schema.ValidateOutput("get_window_state", r.Structured); err != nil {
			t.Fatal(err)
		}
		noCanary(t, "full read", r)
		read = testkit.Decode(t, r.Structured)
		pageReadWhole(t, b, read)
		// Skeleton and drill-down share the read's tokens.
		skel := h.ok("get_window_state", map[string]any{"pid": b.pid, "skeleton": true, "max_elements": 200})
		docTok, _ := rowWith(t, skel, "", "document_web", "document_frame")
		region := h.ok("get_window_state", map[string]any{"root": docTok, "max_elements": 5000})
		for what, got := range map[string]map[string]any{"skeleton": skel, "drill-down": region} {
			if strings.Contains(testkit.JSON(t, got), testkit.PasswordCanary) {
				t.Fatalf("%s read: the password canary leaked", what)
			}
		}
		if region["root"] != docTok || !hasRow(region, "push_button", "Save") {
			t.Fatalf("drill-down into the page: %v", region["tree_text"])
		}
		saveTok, _ := rowWith(t, region, "Save", "push_button")
		res := h.ok("click", map[string]any{"element_token": saveTok})
		pageAnswered(t, h, b.pid, res, "clicked: Save 1")

		// A screenshot blacks out the password input.
		shot := h.call("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000, "include_screenshot": true})
		if shot.Err != nil || shot.Image == nil {
			t.Fatalf("screenshot: %s", shot.Text)
		}
		noCanary(t, "screenshot read", shot)
		img, err := png.Decode(bytes.NewReader(shot.Image.Data))
		if err != nil {
			t.Fatal(err)
		}
		_, pw := rowWith(t, testkit.Decode(t, shot.Structured), "Password", "password_text")
		f := pw["frame"].(map[string]any)
		x, y := int(f["x"].(float64))+int(f["w"].(float64))/2, int(f["y"].(float64))+int(f["h"].(float64))/2
		if r, g, bl, _ := img.At(x, y).RGBA(); r != 0 || g != 0 || bl != 0 {
			t.Fatalf("the password input's pixels are not blacked out at %d,%d", x, y)
		}

		clickBelowTheFold(t, h, b.pid, h.ok("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000}))
	})
}

// pageReadWhole checks a full read of the fixture page in browser b: not
// truncated, every kind of element the page has with its label, the
// password input one secure row without a value, frames and actions for
// what is shown, and as many elements as a pyatspi walk of the window.
func pageReadWhole(t *testing.T, b *browser, read map[string]any) {
	t.Helper()
	if read["truncated"] != false {
		t.Fatalf("the page fits the budget: truncated=%v", read["truncated"])
	}
	// Every kind of element the page has, with its label.
	for _, want := range []struct {
		label string
		roles []string
	}{
		{"Form Fixture", []string{"heading"}},
		{"Account", []string{"link"}},
		{"Name", []string{"entry"}},
		{"Subscribe", []string{"check_box"}},
		{"Submit", []string{"push_button"}},
		{"Save", []string{"push_button"}},
		{"Apples", []string{"list_item", "static", "text"}},
		{"Item 150", []string{"table_cell", "static", "text"}},
	} {
		rowWith(t, read, want.label, want.roles...)
	}
	// The password input is a secure row with no value.
	var secure int
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["secure"] == true {
			secure++
			if _, has := row["value"]; has {
				t.Fatalf("a secure row carries a value: %v", row)
			}
		}
	}
	if secure != 1 {
		t.Fatalf("%d secure rows, want the one password input", secure)
	}
	// Frames and actions are read for what is shown.
	_, save := rowWith(t, read, "Save", "push_button")
	if f := save["frame"].(map[string]any); f["w"].(float64) <= 0 || f["h"].(float64) <= 0 {
		t.Fatalf("the Save button has no frame: %v", save)
	}
	if !strings.Contains(testkit.JSON(t, save["actions"]), "\"") {
		t.Fatalf("the Save button has no actions: %v", save)
	}

	// As complete as a pyatspi walk of the same window (within 2%).
	walked := walkCount(t, b.pid, browserPage)
	n := int(read["element_count"].(float64))
	if diff := n - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the read has %d elements, a pyatspi walk %d", n, walked)
	}
	t.Logf("%s: %d elements read, %d walked by pyatspi", b.kind, n, walked)
}

// walkCount is how many elements a pyatspi walk (atspi/testdata/walk.py)
// visits in the window of pid whose title starts with prefix.
func walkCount(t *testing.T, pid int, prefix string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	walk, err := pyref.Walk(ctx, deskOf(t).Env(), testkit.Fixture(t, "walk.py"), pid, prefix)
	if err != nil {
		t.Fatalf("the pyatspi walk: %v", err)
	}
	return len(walk)
}

// TestBrowserActs acts headless on the fixture page in each browser:
// find_elements and wait_for on the fresh page first (browser_findwait_test.go),
// then clicks, check boxes, a select, a range and a submit, each read
// back.
func TestBrowserActs(t *testing.T) {
	onDesktop(t)
	inEachBrowser(t, func(t *testing.T, b *browser, h *harness, read map[string]any) {
		full := func() map[string]any {
			return h.ok("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000})
		}
		findAndWaitInBrowser(t, b, h, read)

		clickSaveAgain(t, h, b, full())
		b.alive(t)

		// Ticking a check box is confirmed by its state.
		box, _ := rowWith(t, full(), "Subscribe", "check_box")
		res := h.ok("click", map[string]any{"element_token": box})
		if res["effect"] != "confirmed" || !strings.Contains(testkit.JSON(t, res["diff"]), "checked") {
			t.Fatalf("ticking Subscribe: %v", res)
		}
		// Clicked again, it unticks, though Chromium has renamed its
		// action from "check" to "uncheck" since the read.
		for _, want := range []bool{false, true} {
			box, _ = rowWith(t, full(), "Subscribe", "check_box")
			res = h.ok("click", map[string]any{"element_token": box})
			_, row := rowWith(t, full(), "Subscribe", "check_box")
			if res["effect"] != "confirmed" || hasState(row, "checked") != want {
				t.Fatalf("clicking Subscribe again (checked %v wanted): %v", want, res)
			}
		}
		b.alive(t)

		// A range input takes a number through its Value, read back.
		volume, _ := rowWith(t, full(), "Volume", "slider")
		res = h.ok("set_value", map[string]any{"element_token": volume, "value": 65})
		if res["path"] != "atspi_value" || res["readback"] != "match" || res["effect"] != "confirmed" {
			t.Fatalf("set_value of Volume: %v", res)
		}
		b.alive(t)

		// Picking an option of a <select>. Chromium's options take
		// their "select" action with the list closed; Firefox's closed
		// options ignore it, and its box's "open" action shows the
		// list as a popup whose items take a click, as a person would
		// pick.
		if b.kind == sandbox.Firefox {
			combo, _ := rowWith(t, full(), "Color", "combo_box")
			res = h.ok("click", map[string]any{"element_token": combo})
			if res["action"] != "open" || !strings.Contains(testkit.JSON(t, res["diff"]), "Green") {
				t.Fatalf("opening the select shows its options: %v", res)
			}
		}
		read = full()
		green := ""
		for _, e := range read["elements"].([]any) {
			row := e.(map[string]any)
			if row["role"] == "menu_item" && row["label"] == "Green" && (b.kind == sandbox.Chromium || hasArea(row)) {
				green = row["element_token"].(string)
			}
		}
		if green == "" {
			t.Fatalf("no option Green to pick in:\n%s", read["tree_text"])
		}
		res = h.ok("click", map[string]any{"element_token": green})
		// The diff names Green when the pick showed within the
		// settle; it must show soon after either way (see
		// pageAnswered).
		testkit.Eventually(t, 10*time.Second, "the option Green selected after the pick", func() bool {
			for _, e := range full()["elements"].([]any) {
				row := e.(map[string]any)
				if row["role"] == "menu_item" && row["label"] == "Green" && hasState(row, "selected") {
					return true
				}
			}
			return false
		})
		if !strings.Contains(testkit.JSON(t, res["diff"]), "Green") {
			t.Logf("the pick of Green showed after the act's settle; its diff: %v", res["diff"])
		}
		b.alive(t)

		// A link moves the page to its anchor.
		link, _ := rowWith(t, full(), "Items", "link")
		res = h.ok("click", map[string]any{"element_token": link})
		if res["path"] != "atspi_action" || res["ok"] != true {
			t.Fatalf("click on a link: %v", res)
		}
		b.alive(t)

		// Submitting the form writes into the live region.
		submit, _ := rowWith(t, full(), "Submit", "push_button")
		res = h.ok("click", map[string]any{"element_token": submit})
		pageAnswered(t, h, b.pid, res, "submitted:")
		b.alive(t)

		// Neither browser applies text written through accessibility
		// (Chromium has no EditableText; Firefox accepts it and drops
		// it), so setting a value asks for a takeover, with nothing
		// sent. Their fields take type_text on the window_keys path
		// (quiet_test.go).
		read = full()
		name, _ := rowWith(t, read, "Name", "entry")
		e := h.fail(engine.CodeNotActionable, "set_value", map[string]any{"element_token": name, "value": "Ada"})
		if esc, _ := e["escalation"].(map[string]any); esc["recommend"] != "takeover" {
			t.Fatalf("set_value in a browser field recommends a takeover: %v", e)
		}
		// The password input: never typed into or set.
		pw, _ := rowWith(t, read, "Password", "password_text")
		for _, tool := range []string{"type_text", "set_value"} {
			h.fail(engine.CodeSecureField, tool, map[string]any{"element_token": pw, "text": "x", "value": "x"})
		}
	})
}

// clickSaveAgain clicks the fixture's Save button, a button whose handler
// writes into a live region, headless, after findAndWaitInBrowser clicked
// it once: the page answers with its second click.
func clickSaveAgain(t *testing.T, h *harness, b *browser, read map[string]any) {
	t.Helper()
	tok, _ := rowWith(t, read, "Save", "push_button")
	res := h.ok("click", map[string]any{"element_token": tok})
	if res["path"] != "atspi_action" || res["took_cursor"] != false {
		t.Fatalf("click on Save: %v", res)
	}
	pageAnswered(t, h, b.pid, res, "clicked: Save 2")
}

// TestBrowserTypingInATakeover types into a page's field the way a
// browser takes text: in a takeover, a click into the field, then keys.
func TestBrowserTypingInATakeover(t *testing.T) {
	onDesktop(t)
	for _, kind := range browsers {
		t.Run(kind.String(), func(t *testing.T) {
			b := startBrowser(t, kind)
			w := newTakeover(t)
			w.grantTakeover(b.pid)
			defer b.alive(t)
			read := waitPage(t, w.harness, b)
			win := windowOf(t, read)
			w.ok("bring_to_front", map[string]any{"window_id": win})

			name, _ := rowWith(t, read, "Name", "entry")
			w.ok("click", map[string]any{"element_token": name, "delivery_mode": "foreground"})
			res := w.ok("type_text", map[string]any{"window_id": win, "text": "Ada Lovelace", "delivery_mode": "foreground"})
			if res["path"] != "xtest" {
				t.Fatalf("typing into the Name field: %v", res)
			}
			pageAnswered(t, w.harness, b.pid, res, "Ada Lovelace")
			b.alive(t)

			// The password field: a click may focus it, typing is refused.
			read = w.ok("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000})
			pw, _ := rowWith(t, read, "Password", "password_text")
			w.ok("click", map[string]any{"element_token": pw, "delivery_mode": "foreground"})
			w.fail(engine.CodeSecureField, "type_text", map[string]any{"window_id": win, "text": "hunter2", "delivery_mode": "foreground"})

			// Submitting shows what was typed.
			read = w.ok("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000})
			submit, _ := rowWith(t, read, "Submit", "push_button")
			res = w.ok("click", map[string]any{"element_token": submit})
			pageAnswered(t, w.harness, b.pid, res, "submitted: Ada Lovelace")
		})
	}
}

// hasState reports whether a row lists state.
func hasState(row map[string]any, state string) bool {
	states, _ := row["states"].([]any)
	for _, s := range states {
		if s == state {
			return true
		}
	}
	return false
}

// hasArea reports whether a row's frame has an area (it is drawn).
func hasArea(row map[string]any) bool {
	f, _ := row["frame"].(map[string]any)
	w, _ := f["w"].(float64)
	h, _ := f["h"].(float64)
	return w > 0 && h > 0
}

// clickBelowTheFold clicks the fixture's last button, far below the fold
// of the window, headless (at the end of TestBrowserReads, whose reads
// leave the page where it opened): the page is scrolled to it by
// accessibility (Component.ScrollTo), then it is clicked.
func clickBelowTheFold(t *testing.T, h *harness, pid int, read map[string]any) {
	t.Helper()
	far, row := rowWith(t, read, "Far button", "push_button")
	if hasState(row, "showing") {
		t.Fatalf("the fixture's far button starts out of view: %v", row)
	}
	res := h.ok("click", map[string]any{"element_token": far})
	if res["scrolled_into_view"] != true || res["path"] != "atspi_action" || res["took_cursor"] != false {
		t.Fatalf("a click below the fold scrolls, then clicks headless: %v", res)
	}
	pageAnswered(t, h, pid, res, "far clicked")
}

// pageAnswered checks that the page answered an act with text: in the
// act's diff, or in a read soon after. The settle ends after 50 ms without
// a change (the rule), and a browser's page can answer later than that:
// Firefox hands an action to its content process, which under load may
// report the page's change after a first change (the focus) and a quiet
// spell. The answer must come either way.
func pageAnswered(t *testing.T, h *harness, pid int, res map[string]any, text string) {
	t.Helper()
	if strings.Contains(testkit.JSON(t, res["diff"]), text) {
		return
	}
	testkit.Eventually(t, 10*time.Second, fmt.Sprintf("the page's answer %q", text), func() bool {
		return strings.Contains(testkit.JSON(t, h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})), text)
	})
	t.Logf("the page answered %q after the act's settle; its diff: %v", text, res["diff"])
}

// TestBrowserBigPageIsCutHonestly reads a page bigger than the zoom
// budget: the read stops at 5,000 elements, says it is truncated, and what
// it holds is the page's start in order.
func TestBrowserBigPageIsCutHonestly(t *testing.T) {
	onDesktop(t)
	for _, kind := range browsers {
		t.Run(kind.String(), func(t *testing.T) {
			b := startBrowserAt(t, kind, "#rows=2500")
			h := newHarness(t, consentWait)
			grant(t, h, b.pid)
			defer b.alive(t)
			var read map[string]any
			deadline := time.Now().Add(30 * time.Second)
			for {
				read = h.ok("get_window_state", map[string]any{"pid": b.pid, "max_elements": 5000})
				if read["truncated"] == true || time.Now().After(deadline) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			if read["truncated"] != true || int(read["element_count"].(float64)) != 5000 {
				t.Fatalf("a page of over 10,000 elements reads as 5,000, truncated: count %v truncated %v", read["element_count"], read["truncated"])
			}
			rowWith(t, read, "Form Fixture", "heading")
			rowWith(t, read, "Item 1", "table_cell", "static", "text")
			if hasRow(read, "push_button", "Far button") {
				t.Fatal("the far button lies past the budget and is not in the read")
			}
		})
	}
}
