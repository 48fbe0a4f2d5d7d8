package native_test

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The everyday apps as Wayland clients on the headless GNOME desktop: Qt
// (QT_QPA_PLATFORM=wayland), Chromium (--ozone-platform=wayland) and
// Firefox (MOZ_ENABLE_WAYLAND=1), each started by the same helpers as on
// X11. Each must really be a Wayland client (no window of its on
// Xwayland), be listed once, read as completely as on X11 in window
// coordinates, be found, and take a headless act whose effect shows.

// TestWaylandQtApps: KeePassXC and FeatherPad in one session; typing into
// FeatherPad's text shows in the act's diff.
func TestWaylandQtApps(t *testing.T) {
	onWaylandDesktop(t)
	// A Qt 5 app on Xwayland (the platform Qt 5 picks on GNOME unless told
	// otherwise) finds the bus through Xwayland's root window, as GNOME's
	// Xwayland session script publishes it, and is read the same way.
	onX := startOwnApp(t, "FeatherPad", deskOf(t).UseX11(featherPadCommand(t)))
	// The Wayland apps start after it: the last one has the focus, which
	// the typing below finds it by.
	apps := make([]*desktopApp, len(qtApps))
	pids := make([]any, len(qtApps))
	for i, c := range qtApps {
		apps[i] = c.start(t)
		pids[i] = apps[i].pid
	}
	h := newHarness(t, consentWait)
	grant(t, h, append(pids, onX.pid)...)

	t.Run("FeatherPad on Xwayland", func(t *testing.T) {
		defer onX.alive(t)
		windowRelative(t, qtReadComplete(t, h, onX, qtApps[1]))
	})
	for i, c := range qtApps {
		a := apps[i]
		t.Run(c.name, func(t *testing.T) {
			defer a.alive(t)
			read := qtReadComplete(t, h, a, c)
			windowRelative(t, read)
			waylandClientListedOnce(t, h, a.pid, read)
		})
	}

	// Qt's window coordinates are wrong (native/atspi/hittest.go): the
	// toolbar's buttons would lie on a diagonal, each top at its left.
	t.Run("FeatherPad frames", func(t *testing.T) {
		read := waylandRead(t, h, map[string]any{"pid": apps[1].pid})
		_, open := rowWith(t, read, "Open", "push_button")
		_, newb := rowWith(t, read, "New", "push_button")
		_, menu := rowWith(t, read, "", "menu_bar")
		of, nf, mf := open["frame"].(map[string]any), newb["frame"].(map[string]any), menu["frame"].(map[string]any)
		if of["y"] != nf["y"] || of["h"] != nf["h"] || of["x"].(float64) <= nf["x"].(float64) {
			t.Fatalf("the toolbar's New and Open buttons are not side by side: %v, %v", nf, of)
		}
		if nf["y"].(float64) < mf["y"].(float64)+mf["h"].(float64) {
			t.Fatalf("the toolbar's New button (%v) is not below the menu bar (%v)", nf, mf)
		}
	})

	// Found by role, and typed into headless: the text's new start shows
	// in the diff.
	t.Run("FeatherPad typing", func(t *testing.T) {
		fp := apps[1]
		found := h.ok("find_elements", map[string]any{"pid": fp.pid, "role": "text", "states": []any{"focused"}})
		if found["coordinates"] != "window" || found["match_count"] != 1.0 {
			t.Fatalf("find_elements for FeatherPad's text: %v", found)
		}
		text := found["elements"].([]any)[0].(map[string]any)
		if !strings.HasPrefix(asString(text["value"]), "Line 1 of the notes.") {
			t.Fatalf("the text found is not the notes: %.80q", text["value"])
		}
		res := h.ok("type_text", map[string]any{"element_token": text["element_token"], "text": "Wayland says hello. "})
		if res["took_cursor"] != false || !strings.Contains(testkit.JSON(t, res["diff"]), "Wayland says hello.") {
			t.Fatalf("typing into FeatherPad: %v", res)
		}
		after := waylandRead(t, h, map[string]any{"pid": fp.pid})
		if _, row := rowWith(t, after, "Wayland says hello.", "text"); !strings.Contains(asString(row["value"]), "Line 1 of the notes.") {
			t.Fatalf("the typed text replaced the notes: %.80q", row["value"])
		}
		fp.alive(t)
	})
}

// TestWaylandBrowsers: Chromium and Firefox on the fixture page: read
// whole, found, waited on and clicked headless (the page's status line
// answers each click).
func TestWaylandBrowsers(t *testing.T) {
	onWaylandDesktop(t)
	inEachBrowser(t, func(t *testing.T, b *browser, h *harness, read map[string]any) {
		waylandClientListedOnce(t, h, b.pid, read)
		whole := waylandRead(t, h, map[string]any{"pid": b.pid})
		pageReadWhole(t, b, whole)
		pageBelowToolbar(t, whole)

		findAndWaitInBrowser(t, b, h, read)
		clickSaveAgain(t, h, b, waylandRead(t, h, map[string]any{"pid": b.pid}))
	})
}

// TestWaylandWriter: LibreOffice Writer (its GTK 3 interface) on the
// 400-paragraph document: read as completely as a walk, each visible
// paragraph with its text, and typed into at a paragraph's caret.
func TestWaylandWriter(t *testing.T) {
	onWaylandDesktop(t)
	a, h, read := openLongDocument(t)
	defer a.alive(t)
	waylandClientListedOnce(t, h, a.pid, read)
	windowRelative(t, read)
	writerCompleteAsWalk(t, a, h)
	writerParagraphs(t, a, h, waylandRead(t, h, map[string]any{"pid": a.pid}))
}

// TestWaylandCalc: LibreOffice Calc on the 200 x 8 sheet: its visible
// block of cells is found in window coordinates (the cells at the sheet's
// corners) and read as on X11; a number set into a cell is read back.
func TestWaylandCalc(t *testing.T) {
	onWaylandDesktop(t)
	a := startOffice(t, sandbox.Calc, sheet200)
	defer a.alive(t)
	ref := waitSheet(t, a)
	checkSheetFacts(t, ref, "Item")
	h, read := calcVisibleBlock(t, a, ref, "200x8", "Item", "1")
	windowRelative(t, read)
	waylandClientListedOnce(t, h, a.pid, read)
}

// pageBelowToolbar checks that a browser's window-relative frames hold
// together: the page lies below the browser's toolbar, and the Save
// button inside the page.
func pageBelowToolbar(t *testing.T, read map[string]any) {
	t.Helper()
	_, doc := rowWith(t, read, "", "document_web", "document_frame")
	_, save := rowWith(t, read, "Save", "push_button")
	d, s := doc["frame"].(map[string]any), save["frame"].(map[string]any)
	dx, dy, dw, dh := d["x"].(float64), d["y"].(float64), d["w"].(float64), d["h"].(float64)
	sx, sy, sw, sh := s["x"].(float64), s["y"].(float64), s["w"].(float64), s["h"].(float64)
	if dy < 40 || dw <= 0 || dh <= 0 {
		t.Fatalf("the page (%v) does not lie below the toolbar", d)
	}
	if sx < dx || sy < dy || sx+sw > dx+dw || sy+sh > dy+dh {
		t.Fatalf("the Save button (%v) lies outside the page (%v)", s, d)
	}
}

// waylandClientListedOnce checks that the app of pid, approved in h's
// session, is a Wayland client listed once: no window of its is on
// Xwayland, list_windows shows it one window, and read (a read of pid) is
// of that window.
func waylandClientListedOnce(t *testing.T, h *harness, pid int, read map[string]any) {
	t.Helper()
	if xwaylandPids(t, newPerson(t))[pid] {
		t.Fatalf("pid %d has a window on Xwayland: not a Wayland client", pid)
	}
	id := listedOnce(t, h, pid)[pid].id
	if got := windowOf(t, read); float64(got) != id {
		t.Fatalf("the read is of window %v, the list said %v", got, id)
	}
}
