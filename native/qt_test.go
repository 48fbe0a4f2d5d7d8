package native_test

import (
	"bytes"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Qt apps: KeePassXC and FeatherPad read as completely as a
// pyatspi walk; KeePassXC's master password field is a secure row that is
// never read, blacked out and refused for typing, and what a person types
// there never comes back; the driver acts on KeePassXC's buttons, fields
// and entry list.

// qtCanary is what the simulated person types into the master password
// field: it must never appear in anything the driver returns.
const qtCanary = "qtcanary7b4e"

// TestQtReadsAreComplete reads KeePassXC's unlock view and FeatherPad
// through the engine: each read holds every element a pyatspi walk of the
// window finds (within 2 %), and, being complete, carries no
// accessibility hint.
func TestQtReadsAreComplete(t *testing.T) {
	onDesktop(t)
	for _, c := range qtApps {
		t.Run(c.name, func(t *testing.T) {
			a := c.start(t)
			defer a.alive(t)
			h, _ := grantedRead(t, a)
			qtReadComplete(t, h, a, c)
		})
	}
}

// qtApp is a Qt app of the tests and what a complete read of its first
// view holds.
type qtApp struct {
	name    string
	start   func(testing.TB) *desktopApp
	hasRole string
	secure  int // secure rows (KeePassXC's view holds password fields)
}

var qtApps = []qtApp{
	{"KeePassXC", startKeePassXC, "password_text", 2},
	{"FeatherPad", startFeatherPad, "menu_bar", 0},
}

// qtReadComplete checks a Qt app's registration and a read of its window
// through the session of h: as complete as a pyatspi walk, without a
// hint, with the app's telling role, and its password fields secure rows
// without a value. It returns the read.
func qtReadComplete(t *testing.T, h *harness, a *desktopApp, c qtApp) map[string]any {
	t.Helper()
	if a.app.Name != c.name {
		t.Fatalf("on the bus as %q, want %q", a.app.Name, c.name)
	}
	r := completeAsWalk(t, h, a, c.name)
	if h, has := r.read["accessibility_hint"]; has {
		t.Fatalf("a complete read of a Qt app carries a hint: %v", h)
	}
	if rolesOf(r.read)[c.hasRole] == 0 {
		t.Fatalf("no %s row: %v", c.hasRole, rolesOf(r.read))
	}
	secure := 0
	for _, e := range r.read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] == "password_text" {
			if row["secure"] != true {
				t.Fatalf("a password field is not secure: %v", row)
			}
			if _, has := row["value"]; has {
				t.Fatalf("a password field carries a value: %v", row)
			}
		}
		if row["secure"] == true && hasArea(row) {
			secure++
		}
	}
	if secure < c.secure {
		t.Fatalf("%d secure rows on screen, want at least %d", secure, c.secure)
	}
	return r.read
}

// TestKeePassXCMasterPassword checks the master password field end to end:
// a canary the person types there is in no read, skeleton, drill-down
// or screenshot; the field's pixels are black in a screenshot; typing into it
// is refused as a secure field; and after the person unlocks the database
// the driver reads the entry list and acts on it.
func TestKeePassXCMasterPassword(t *testing.T) {
	onDesktop(t)
	a := startKeePassXC(t)
	defer a.alive(t)
	h := newHarness(t, consentWait)
	grant(t, h, a.pid)
	read := h.ok("get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000})
	win := windowOf(t, read)
	p := newPerson(t)
	x := p.p.Display()

	// The person types the canary into the focused master password field.
	if err := x.Raise(win); err != nil {
		t.Fatal(err)
	}
	typeAsPerson(t, p, qtCanary)
	waitSecureLength(t, a, len(qtCanary))

	// Never returned: not in a full read, a skeleton, a drill-down, nor in
	// the text of a screenshot read.
	for _, c := range []struct {
		what string
		tool string
		args map[string]any
	}{
		{"full read", "get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000}},
		{"skeleton", "get_window_state", map[string]any{"pid": a.pid, "skeleton": true}},
	} {
		r := h.call(c.tool, c.args)
		if r.Err != nil {
			t.Fatalf("%s: %s", c.what, r.Text)
		}
		noCanaryIn(t, c.what, r, qtCanary)
	}
	read = h.ok("get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000})
	pwTok, _ := focusedPasswordRow(t, read)
	region := h.call("get_window_state", map[string]any{"root": pwTok})
	noCanaryIn(t, "drill-down", region, qtCanary)

	// The screenshot blacks the field out.
	shot := h.call("get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000, "include_screenshot": true})
	if shot.Err != nil || shot.Image == nil {
		t.Fatalf("screenshot: %s", shot.Text)
	}
	noCanaryIn(t, "screenshot read", shot, qtCanary)
	img, err := png.Decode(bytes.NewReader(shot.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	pwTok, pw := focusedPasswordRow(t, asMap(t, shot.Structured))
	f := pw["frame"].(map[string]any)
	cx, cy := int(f["x"].(float64))+int(f["w"].(float64))/2, int(f["y"].(float64))+int(f["h"].(float64))/2
	if r, g, b, _ := img.At(cx, cy).RGBA(); r != 0 || g != 0 || b != 0 {
		t.Fatalf("the master password field's pixels are not blacked out at %d,%d", cx, cy)
	}

	// Typing into it is refused, headless and by token.
	h.fail(engine.CodeSecureField, "type_text", map[string]any{"element_token": pwTok, "text": "hunter2"})
	h.fail(engine.CodeSecureField, "set_value", map[string]any{"element_token": pwTok, "value": "hunter2"})
	waitSecureLength(t, a, len(qtCanary)) // untouched by the refused acts

	// The person replaces the canary with the master password and unlocks.
	if err := x.Raise(win); err != nil {
		t.Fatal(err)
	}
	pressAsPerson(t, p, "Control_L", "a")
	typeAsPerson(t, p, masterPassword)
	pressAsPerson(t, p, "Return")
	list := waitRead(t, h, a, "the entry list", func(read map[string]any) bool {
		return hasRow(read, "table_cell", "Mail account") || hasRow(read, "list_item", "Mail account")
	})
	noCanaryIn(t, "the unlocked view", engine.Result{Structured: list}, qtCanary)
	noCanaryIn(t, "the unlocked view", engine.Result{Structured: list}, masterPassword)
	actOnEntries(t, h, a, list)
}

// actOnEntries acts on the unlocked database: selecting an entry in the
// list shows its details, the search field takes text with a readback in
// the diff, a toolbar button opens the entry editor and its Cancel button
// closes it.
func actOnEntries(t *testing.T, h *harness, a *desktopApp, list map[string]any) {
	t.Helper()
	// The list may still be settling from the unlock when the read that
	// found it was made: a stale token means reading again, as the
	// contract says, then clicking by the fresh one.
	var res map[string]any
	for attempt := 0; ; attempt++ {
		mail, _ := rowWith(t, list, "Mail account", "table_cell", "list_item")
		r := h.call("click", map[string]any{"element_token": mail})
		if r.Err == nil {
			res = asMap(t, r.Structured)
			break
		}
		if r.Err.Code != engine.CodeStaleElementToken || attempt == 2 {
			t.Fatalf("clicking the Mail account entry: %s", r.Text)
		}
		list = h.ok("get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000})
	}
	if res["ok"] != true {
		t.Fatalf("clicking the Mail account entry: %v", res)
	}
	after := h.ok("get_window_state", map[string]any{"pid": a.pid, "max_elements": 5000})
	_, row := rowWith(t, after, "Mail account", "table_cell", "list_item")
	if !hasState(row, "selected") {
		t.Fatalf("the Mail account entry is not selected after the click: %v", row)
	}

	completeAsWalk(t, h, a, "the entry list")

	search, _ := rowWith(t, after, "Search", "entry", "text")
	res = h.ok("type_text", map[string]any{"element_token": search, "text": "Mail"})
	if !strings.Contains(testkit.JSON(t, res["diff"]), "Mail") {
		t.Fatalf("typing into the search field shows no readback: %v", res)
	}
	a.alive(t)

	res = clickFresh(t, h, a, "New Entry", "push_button")
	if res["ok"] != true {
		t.Fatalf("clicking the add-entry button: %v", res)
	}

	editor := waitRead(t, h, a, "the entry editor", func(read map[string]any) bool {
		return hasShownRow(read, "label", "Title:") && hasShownRow(read, "push_button", "Cancel")
	})
	completeAsWalk(t, h, a, "the entry editor")
	cancel, _ := rowWith(t, editor, "Cancel", "push_button")
	if res := h.ok("click", map[string]any{"element_token": cancel}); res["ok"] != true {
		t.Fatalf("cancelling the entry editor: %v", res)
	}
}

// completeAsWalk checks that a read of the app's window holds what a
// pyatspi walk of it visits (within 2 %), whatever view the test has
// opened, and returns the read.
func completeAsWalk(t *testing.T, h *harness, a *desktopApp, what string) timedRead {
	t.Helper()
	walked, ms, ok := walkWindow(t, a.pid, 60*time.Second)
	if !ok {
		t.Fatalf("the pyatspi walk of %s did not finish", what)
	}
	r := readOnce(t, h, a.pid)
	t.Logf("%s: walk %d elements in %.0f ms; read: %s", what, walked, ms, r.summary())
	if r.read == nil || r.read["truncated"] != false {
		t.Fatalf("the read of %s: %s", what, r.summary())
	}
	if diff := r.count() - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the read of %s has %d elements, a pyatspi walk %d", what, r.count(), walked)
	}
	return r
}

// focusedPasswordRow returns the focused password_text row of a read.
func focusedPasswordRow(t testing.TB, read map[string]any) (string, map[string]any) {
	t.Helper()
	for _, row := range testkit.Rows(t, read) {
		if row["role"] == "password_text" && hasState(row, "focused") {
			return testkit.Field[string](t, row, "element_token"), row
		}
	}
	t.Fatalf("no focused password field in:\n%s", read["tree_text"])
	return "", nil
}

// noCanaryIn fails when s appears anywhere in a result.
func noCanaryIn(t testing.TB, what string, r engine.Result, s string) {
	t.Helper()
	if strings.Contains(testkit.JSON(t, r.Structured), s) || strings.Contains(r.Text, s) {
		t.Fatalf("%s: the secret typed into the password field came back", what)
	}
}

// typeAsPerson types text with XTEST from the person's own X connection.
func typeAsPerson(t testing.TB, p *person, text string) {
	t.Helper()
	x := p.p.Display()
	for _, r := range text {
		if err := x.FakeChar(r, true); err != nil {
			t.Fatal(err)
		}
		if err := x.FakeChar(r, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
}

// pressAsPerson presses keys together (a chord), then lets them go.
func pressAsPerson(t testing.TB, p *person, keys ...string) {
	t.Helper()
	x := p.p.Display()
	for _, k := range keys {
		if err := x.FakeKey(k, true); err != nil {
			t.Fatal(err)
		}
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if err := x.FakeKey(keys[i], false); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
}

// waitSecureLength waits until the focused password field of the app
// holds n characters (secure_lengths.py: counts only, never the text).
func waitSecureLength(t testing.TB, a *desktopApp, n int) {
	t.Helper()
	want := "focused " + strconv.Itoa(n)
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, _ := pyatspi(t, 15*time.Second, "secure_lengths.py", strconv.Itoa(a.pid))
		for _, line := range strings.Split(string(out), "\n") {
			if line == want {
				return
			}
		}
		a.alive(t)
		if time.Now().After(deadline) {
			t.Fatalf("the focused password field never held %d characters: %q", n, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitRead reads the app's window until ready says the read shows what
// the test waits for.
func waitRead(t testing.TB, h *harness, a *desktopApp, what string, ready func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := readOnce(t, h, a.pid)
		if r.read != nil && ready(r.read) {
			return r.read
		}
		a.alive(t)
		if time.Now().After(deadline) {
			t.Fatalf("%s never showed: %s\n%v", what, r.summary(), r.read["tree_text"])
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// hasShownRow reports whether a read has a row of role labelled label with
// an area on screen (KeePassXC keeps its hidden pages in the tree; a read
// without rows has none).
func hasShownRow(read map[string]any, role, label string) bool {
	rows, _ := read["elements"].([]any)
	for _, e := range rows {
		row, _ := e.(map[string]any)
		if row["role"] == role && asString(row["label"]) == label && hasArea(row) {
			return true
		}
	}
	return false
}

// clickFresh reads the app's window and clicks the element labelled label,
// reading again when the click's token went stale (KeePassXC applies a
// search filter a moment after the text changes), as the contract's
// after_refresh says; at most three tries.
func clickFresh(t *testing.T, h *harness, a *desktopApp, label string, roles ...string) map[string]any {
	t.Helper()
	return okResult(t, "clicking "+label, actFresh(t, h, map[string]any{"pid": a.pid}, label, roles, "click", nil))
}

// actFresh reads the window target names (a pid or a window_id), finds
// the element labelled label (rowWith) and calls tool with its token (as
// root for get_window_state, a drill-down; else as element_token) and
// args; a token gone stale (the window changed between the read and the
// call) means reading again, as the contract's after_refresh says; at
// most three tries. It returns the last call's result.
func actFresh(t *testing.T, h *harness, target map[string]any, label string, roles []string, tool string, args map[string]any) engine.Result {
	t.Helper()
	for attempt := 0; ; attempt++ {
		read := h.ok("get_window_state", mergeArgs(target, map[string]any{"max_elements": 5000}))
		tok, _ := rowWith(t, read, label, roles...)
		key := "element_token"
		if tool == "get_window_state" {
			key = "root"
		}
		r := h.call(tool, mergeArgs(args, map[string]any{key: tok}))
		if r.Err == nil || r.Err.Code != engine.CodeStaleElementToken || attempt == 2 {
			return r
		}
	}
}

// okResult is a call's structured result, failing the test with what the
// call answered when it failed.
func okResult(t *testing.T, what string, r engine.Result) map[string]any {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("%s: %s", what, r.Text)
	}
	return asMap(t, r.Structured)
}

// mergeArgs is a tool's arguments: a's and b's (b's win), in a new map.
func mergeArgs(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for _, m := range []map[string]any{a, b} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
