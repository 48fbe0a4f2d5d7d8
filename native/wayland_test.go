package native_test

import (
	"bytes"
	"fmt"
	"github.com/nish-driver/nish-driver/engine"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// On a Wayland desktop (headless mutter with Xwayland, sandbox's Wayland
// lane) the windows come from the accessibility bus: GTK 3 and GTK 4 apps
// that are Wayland clients and a GTK 3 app on Xwayland are each listed
// once, with the driver's own window ids, and every headless tool works on
// them as on X11, with frames relative to each window. The consent dialog
// is an X11 window on Xwayland, clicked there by the person.

// waylandWindow is one approved window row of list_windows.
type waylandWindow struct {
	id    float64
	pid   int
	title string
	row   map[string]any
}

// approvedWindows lists the session's windows by pid, failing on a row
// that invents a place (frame or stacking) or lacks what a row must say.
func approvedWindows(t *testing.T, h *harness) map[int][]waylandWindow {
	t.Helper()
	lw := h.ok("list_windows", nil)
	out := map[int][]waylandWindow{}
	for _, w := range lw["windows"].([]any) {
		row := w.(map[string]any)
		if row["approved"] != true {
			continue
		}
		for _, invented := range []string{"frame", "stacking"} {
			if _, has := row[invented]; has {
				t.Fatalf("a Wayland window is listed with a %s it cannot know: %v", invented, row)
			}
		}
		id, _ := row["window_id"].(float64)
		if id <= 0 || asString(row["app"]) == "" || row["focused"] == nil {
			t.Fatalf("a window row without id, app or focus: %v", row)
		}
		pid := int(row["pid"].(float64))
		out[pid] = append(out[pid], waylandWindow{id: id, pid: pid, title: asString(row["title"]), row: row})
	}
	return out
}

func TestWaylandWindowsReadsAndActs(t *testing.T) {
	onWaylandDesktop(t)
	d := deskOf(t)
	form := startSynthetic(t, 6).cmd.Process.Pid
	calc := startApp(t, "gnome-calculator", "gnome-calculator").cmd.Process.Pid
	onX := startReady(t, "the synthetic fixture on Xwayland",
		d.UseX11(d.Command("/usr/bin/python3", testkit.Fixture(t, "synthetic.py"), "3"))).Process.Pid

	h := newHarness(t, consentWait)
	p := newPerson(t)
	// Xwayland holds the one X11 app, not the Wayland ones.
	xPids := xwaylandPids(t, p)
	if !xPids[onX] || xPids[form] || xPids[calc] {
		t.Fatalf("Xwayland's windows belong to pids %v; want the X11 app %d and neither Wayland app (%d, %d)", xPids, onX, form, calc)
	}

	wg := p.answer("allow")
	h.ok("start_session", map[string]any{"apps": []any{form, calc, onX}})
	wg.Wait()

	first := listedOnce(t, h, form, calc, onX)
	for pid, title := range map[int]string{form: "Synthetic 6 rows", calc: "Calculator", onX: "Synthetic 3 rows"} {
		if first[pid].title != title {
			t.Fatalf("pid %d's title is %q, want %q", pid, first[pid].title, title)
		}
	}

	t.Run("form", func(t *testing.T) { waylandForm(t, h, form, first[form].id) })
	t.Run("gtk4", func(t *testing.T) { waylandCalculator(t, h, calc) })
	t.Run("xwayland", func(t *testing.T) { waylandXwayland(t, h, onX) })
}

// xwaylandPids are the pids of the X11 windows on the desktop's Xwayland,
// as the person's X connection sees them: a Wayland client has none.
func xwaylandPids(t *testing.T, p *person) map[int]bool {
	t.Helper()
	tops, err := p.p.Display().TopLevels()
	if err != nil {
		t.Fatal(err)
	}
	pids := map[int]bool{}
	for _, w := range tops {
		pids[w.Pid] = true
	}
	return pids
}

// listedOnce lists the session's windows twice and checks that each of
// pids has exactly one window, with the same id both times and no id
// shared with another's; it returns each pid's window.
func listedOnce(t *testing.T, h *harness, pids ...int) map[int]waylandWindow {
	t.Helper()
	first := approvedWindows(t, h)
	second := approvedWindows(t, h)
	out := map[int]waylandWindow{}
	var ids []float64
	for _, pid := range pids {
		a, b := first[pid], second[pid]
		if len(a) != 1 || len(b) != 1 {
			t.Fatalf("pid %d is listed %d and %d times, want once: %v", pid, len(a), len(b), first)
		}
		if a[0].id != b[0].id {
			t.Fatalf("pid %d's window id changed between two lists: %v then %v", pid, a[0].id, b[0].id)
		}
		out[pid] = a[0]
		ids = append(ids, a[0].id)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(pids) {
		t.Fatalf("%d windows share ids: %v", len(pids), ids)
	}
	return out
}

// waylandRead reads a window whole and checks what every Wayland read
// says: window-relative frames, each inside the window.
func waylandRead(t *testing.T, h *harness, args map[string]any) map[string]any {
	t.Helper()
	args["max_elements"] = 5000
	r := h.call("get_window_state", args)
	if r.Err != nil {
		t.Fatal(r.Text)
	}
	noCanary(t, "a Wayland read", r)
	read := testkit.Decode(t, r.Structured)
	windowRelative(t, read)
	return read
}

// windowRelative checks what every Wayland read says: it names its
// coordinates "window", the window's frame is its size at 0,0, and no
// element lies wholly outside it.
func windowRelative(t *testing.T, read map[string]any) {
	t.Helper()
	if read["coordinates"] != "window" {
		t.Fatalf("a Wayland read does not say its frames are window-relative: coordinates=%v", read["coordinates"])
	}
	win := read["window"].(map[string]any)["frame"].(map[string]any)
	ww, wh := win["w"].(float64), win["h"].(float64)
	if win["x"] != 0.0 || win["y"] != 0.0 || ww <= 0 || wh <= 0 {
		t.Fatalf("the window's frame is not its size at 0,0: %v", win)
	}
	for _, e := range read["elements"].([]any) {
		f := e.(map[string]any)["frame"].(map[string]any)
		x, y, w, hh := f["x"].(float64), f["y"].(float64), f["w"].(float64), f["h"].(float64)
		if w < 0 || hh < 0 {
			t.Fatalf("a frame of negative size: %v", e)
		}
		if w > 0 && (x < -1 || y < -1 || x+w > ww+1 || y+hh > wh+1) {
			// A row partly outside could be a scrolled child; one wholly
			// outside the window is not window-relative.
			if x >= ww || y >= wh || x+w <= 0 || y+hh <= 0 {
				t.Fatalf("a frame lies outside its %vx%v window: %v", ww, wh, e)
			}
		}
	}
}

// waylandForm: the GTK 3 form as a Wayland client, read as completely as
// a pyatspi walk, found, waited on and acted on headless.
func waylandForm(t *testing.T, h *harness, pid int, id float64) {
	read := waylandRead(t, h, map[string]any{"pid": pid})
	if got := read["window"].(map[string]any)["window_id"].(float64); got != id {
		t.Fatalf("the read is of window %v, the list said %v", got, id)
	}
	// As complete as a pyatspi walk of the same window (within 2%).
	walked := walkCount(t, pid, "Synthetic")
	n := int(read["element_count"].(float64))
	t.Logf("the form: %d elements read, %d walked by pyatspi", n, walked)
	if diff := n - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the read has %d elements, a pyatspi walk %d", n, walked)
	}
	// By window id, and by app: the same window.
	byID := waylandRead(t, h, map[string]any{"window_id": id})
	if byID["window"].(map[string]any)["pid"].(float64) != float64(pid) {
		t.Fatalf("window_id %v reads pid %v", id, byID["window"])
	}
	skel := h.ok("get_window_state", map[string]any{"pid": pid, "skeleton": true})
	if skel["coordinates"] != "window" {
		t.Fatalf("a skeleton read does not say its coordinates: %v", skel["coordinates"])
	}

	find := h.call("find_elements", map[string]any{"window_id": id, "role": "push_button", "label": "Click me"})
	if find.Err != nil {
		t.Fatal(find.Text)
	}
	noCanary(t, "find", find)
	found := testkit.Decode(t, find.Structured)
	if found["coordinates"] != "window" || found["match_count"] != 1.0 {
		t.Fatalf("find_elements: %v", found)
	}
	wait := h.ok("wait_for", map[string]any{"pid": pid, "timeout_ms": 5000,
		"condition": map[string]any{"kind": "appears", "role": "push_button", "label": "Click me"}})
	if wait["met"] != true || wait["coordinates"] != "window" {
		t.Fatalf("wait_for: %v", wait)
	}

	clickTypeAndSet(t, h, pid)

	// A wait heard through the app's change reports: the status label
	// changes after a click sent while the wait is on.
	read = waylandRead(t, h, map[string]any{"pid": pid})
	click := testkit.Token(t, read, "push_button", "Click me")
	done := make(chan map[string]any, 1)
	go func() {
		done <- h.ok("wait_for", map[string]any{"pid": pid, "timeout_ms": 10000,
			"condition": map[string]any{"kind": "appears", "label": "clicked 2"}})
	}()
	time.Sleep(200 * time.Millisecond) // let the wait read first; it is met either way
	h.ok("click", map[string]any{"element_token": click})
	if w := <-done; w["met"] != true {
		t.Fatalf("wait_for the status label: %v", w)
	}
}

// waylandCalculator: GTK 4 reports 0,0 for every element in screen
// coordinates; in window coordinates its keys lie apart. Read as completely
// as a pyatspi walk; a click on a key shows in the display, which is found,
// typed into headless and waited on.
func waylandCalculator(t *testing.T, h *harness, pid int) {
	read := waylandRead(t, h, map[string]any{"pid": pid})
	places := map[string]bool{}
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] == "push_button" {
			f := row["frame"].(map[string]any)
			places[fmt.Sprint(f["x"], ",", f["y"])] = true
		}
	}
	if len(places) < 10 {
		t.Fatalf("the calculator's buttons lie at %d places; its keypad alone has over 10:\n%s", len(places), read["tree_text"])
	}
	walked := walkCount(t, pid, "Calculator")
	n := int(read["element_count"].(float64))
	t.Logf("gnome-calculator: %d elements read, %d walked by pyatspi", n, walked)
	if diff := n - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the read has %d elements, a pyatspi walk %d", n, walked)
	}
	clickCalculatorKey(t, h, pid, "7", "7")

	// Found: the display, an editable text holding the 7.
	found := h.ok("find_elements", map[string]any{"pid": pid, "role": "text", "states": []any{"editable"}})
	if found["coordinates"] != "window" || found["match_count"] != 1.0 {
		t.Fatalf("find_elements for the display: %v", found)
	}
	display := found["elements"].([]any)[0].(map[string]any)
	if asString(display["value"]) != "7" {
		t.Fatalf("the display holds %q, want 7", display["value"])
	}
	// Typed into headless, and waited on: the display comes to hold the sum.
	res := h.ok("type_text", map[string]any{"element_token": display["element_token"], "text": "+2"})
	if !strings.Contains(testkit.JSON(t, res["diff"]), "7+2") {
		t.Fatalf("typing into the display: the diff does not show 7+2: %v", res)
	}
	wait := h.ok("wait_for", map[string]any{"pid": pid, "timeout_ms": 5000,
		"condition": map[string]any{"kind": "text", "element_token": res["snapshot_id"].(string) + ":" + strings.SplitN(display["element_token"].(string), ":", 2)[1], "text": "7+2"}})
	if wait["met"] != true || wait["coordinates"] != "window" {
		t.Fatalf("wait_for the display's 7+2: %v", wait)
	}
}

// waylandXwayland: a GTK 3 app on Xwayland is read through the same bus,
// with window-relative frames too.
func waylandXwayland(t *testing.T, h *harness, pid int) {
	read := waylandRead(t, h, map[string]any{"pid": pid})
	walked := walkCount(t, pid, "Synthetic")
	n := int(read["element_count"].(float64))
	t.Logf("the Xwayland form: %d elements read, %d walked by pyatspi", n, walked)
	if diff := n - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the read has %d elements, a pyatspi walk %d", n, walked)
	}
	if !strings.Contains(testkit.JSON(t, read["elements"]), "Click me") {
		t.Fatalf("the Xwayland form's read lacks its button:\n%s", read["tree_text"])
	}
}

// A screenshot of a Wayland window comes from mutter's screen cast: the
// focused window's own pixels at its logical size (a GTK 3 form, then GTK
// 4's gnome-calculator), with the password field black where the read's
// window-relative frame says it is. A window that has lost the focus is
// refused with a named screenshot error, never shown with another
// window's pixels.
func TestWaylandScreenshotOfTheFocusedWindow(t *testing.T) {
	onWaylandDesktop(t)
	form := startSynthetic(t, 2).cmd.Process.Pid
	h := newHarness(t, consentWait)
	p := newPerson(t)
	wg := p.answer("allow")
	h.ok("start_session", map[string]any{"apps": []any{form}})
	wg.Wait()

	var shot engine.Result
	testkit.Eventually(t, 10*time.Second, "a screenshot of the focused form", func() bool {
		shot = h.call("get_window_state", map[string]any{"pid": form, "include_screenshot": true})
		return shot.Err == nil && shot.Image != nil
	})
	read := testkit.Decode(t, shot.Structured)
	win := read["window"].(map[string]any)["frame"].(map[string]any)
	img, err := png.Decode(bytes.NewReader(shot.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Size(), image.Pt(int(win["w"].(float64)), int(win["h"].(float64))); got != want {
		t.Fatalf("the screenshot is %v, the window %v", got, want)
	}
	var pw map[string]any
	for _, e := range read["elements"].([]any) {
		if row := e.(map[string]any); row["secure"] == true {
			pw = row
		}
	}
	if pw == nil {
		t.Fatal("the password entry is a secure row")
	}
	f := pw["frame"].(map[string]any)
	x, y := int(f["x"].(float64))+int(f["w"].(float64))/2, int(f["y"].(float64))+int(f["h"].(float64))/2
	if r, g, b, _ := img.At(x, y).RGBA(); r != 0 || g != 0 || b != 0 {
		t.Fatalf("the password field's pixels are not blacked out at %d,%d", x, y)
	}
	// The window's own pixels are there: a button is not black. (Around
	// the window, GTK's client-side shadow is transparent, so black.)
	var button map[string]any
	for _, e := range read["elements"].([]any) {
		if row := e.(map[string]any); row["role"] == "push_button" && row["label"] == "Click me" {
			button = row
		}
	}
	if button == nil {
		t.Fatal("no Click me button in the read")
	}
	bf := button["frame"].(map[string]any)
	bx, by := int(bf["x"].(float64))+int(bf["w"].(float64))/2, int(bf["y"].(float64))+int(bf["h"].(float64))/2
	if r, g, b, _ := img.At(bx, by).RGBA(); r == 0 && g == 0 && b == 0 {
		t.Fatalf("the screenshot is black in the middle of the Click me button (%d,%d)", bx, by)
	}

	// A newer window takes the focus, GTK 4's gnome-calculator: the form
	// can no longer be captured, and the calculator can.
	calc := startApp(t, "gnome-calculator", "gnome-calculator").cmd.Process.Pid
	wg = p.answer("allow")
	h.ok("start_session", map[string]any{"apps": []any{form, calc}})
	wg.Wait()
	testkit.Eventually(t, 10*time.Second, "a screenshot of the focused calculator", func() bool {
		shot = h.call("get_window_state", map[string]any{"pid": calc, "include_screenshot": true})
		return shot.Err == nil && shot.Image != nil
	})
	cwin := testkit.Decode(t, shot.Structured)["window"].(map[string]any)["frame"].(map[string]any)
	cimg, err := png.Decode(bytes.NewReader(shot.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cimg.Bounds().Size(), image.Pt(int(cwin["w"].(float64)), int(cwin["h"].(float64))); got != want {
		t.Fatalf("the calculator's screenshot is %v, its window %v", got, want)
	}
	// The window inside its shadow: the orange "=" key is where the read
	// says it is.
	_, eq := rowWith(t, testkit.Decode(t, shot.Structured), "=", "push_button")
	ef := eq["frame"].(map[string]any)
	ex, ey := int(ef["x"].(float64)+ef["w"].(float64)/2), int(ef["y"].(float64)+ef["h"].(float64)/2)
	if r, g, b, _ := cimg.At(ex, ey).RGBA(); r>>8 < 200 || b>>8 > 100 || g>>8 > 180 {
		t.Fatalf("the = key's middle (%d,%d) is not orange: %d,%d,%d", ex, ey, r>>8, g>>8, b>>8)
	}
	var refused map[string]any
	testkit.Eventually(t, 10*time.Second, "the unfocused form's screenshot is refused", func() bool {
		r := h.call("get_window_state", map[string]any{"pid": form, "include_screenshot": true})
		if r.Err != nil || r.Image != nil {
			return false
		}
		refused, _ = testkit.Decode(t, r.Structured)["screenshot_error"].(map[string]any)
		return refused != nil
	})
	if refused["code"] != string(engine.CodeUnsupported) {
		t.Fatalf("screenshot_error %v, want unsupported", refused)
	}
}
