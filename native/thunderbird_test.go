package native_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
)

// Thunderbird (Debian's thunderbird, Gecko): its three-pane window on a
// local folder of 1,000 messages (desktop.ThunderbirdMail, made in a new
// profile at test time) reads as completely as a pyatspi walk; a message
// is selected headless, by its row's accessible action, and its body read
// from the message pane; a compose window opened by a headless click on
// New Message is read and typed into. Every step leaves Thunderbird
// running.

// The message the tests select: one of those in view when the folder
// opens (the newest are at the top).
const tbMessage = desktop.MailMessages - 2

// grantedThunderbird starts Thunderbird on the fixture folder and a
// harness whose session the person granted it, and waits until the
// three-pane window shows the folder's messages; it returns that read.
func grantedThunderbird(t *testing.T) (*desktopApp, *harness, map[string]any) {
	t.Helper()
	cmd, err := desktop.ThunderbirdMail(deskOf(t))
	if err != nil {
		t.Fatal(err)
	}
	a := startOwnApp(t, "Thunderbird", cmd)
	if a.app.Name != sandbox.ThunderbirdAppName {
		t.Fatalf("on the bus as %q, want %q", a.app.Name, sandbox.ThunderbirdAppName)
	}
	h := newHarness(t, consentWait)
	grant(t, h, a.pid)
	read := waitRead(t, h, a, "the fixture folder's messages", func(read map[string]any) bool {
		return hasRow(read, "list_item", desktop.MailSubject(tbMessage))
	})
	return a, h, read
}

// TestThunderbirdReadsComplete reads the three-pane window on the
// 1,000-message folder: as complete as a pyatspi walk of the window
// (within 2 %, untruncated within the read budget), without a hint, with
// the folder in the folder pane, the message list and the rows it has
// made. The list makes rows only for the messages in and near its view,
// so the walk and the read hold those alike, far fewer than 1,000.
func TestThunderbirdReadsComplete(t *testing.T) {
	onDesktop(t)
	a, h, _ := grantedThunderbird(t)
	defer a.alive(t)
	r := completeAsWalk(t, h, a, "Thunderbird's three-pane window")
	if hint, has := r.read["accessibility_hint"]; has {
		t.Fatalf("a complete read of Thunderbird carries a hint: %v", hint)
	}
	rowWith(t, r.read, desktop.MailFolder, "tree_item")
	rowWith(t, r.read, desktop.MailFolder, "list_box")
	rowWith(t, r.read, "New Message", "push_button")
	rows := rolesOf(r.read)["list_item"]
	if rows < 10 || rows >= desktop.MailMessages {
		t.Fatalf("%d message rows: the list makes those in and near its view, at least 10 and fewer than %d", rows, desktop.MailMessages)
	}
	for _, i := range []int{desktop.MailMessages, tbMessage} {
		if !hasRow(r.read, "list_item", desktop.MailSubject(i)) {
			t.Fatalf("no row for message %d in:\n%s", i, r.read["tree_text"])
		}
	}
	t.Logf("Thunderbird: %d message rows of %d messages", rows, desktop.MailMessages)
}

// TestThunderbirdSelectsAMessage selects a message headless (its row's
// accessible action, no pointer), and reads its body from the message
// pane: the pane's document is titled with the message's subject and a
// drill-down into it holds the body's text.
func TestThunderbirdSelectsAMessage(t *testing.T) {
	onDesktop(t)
	a, h, _ := grantedThunderbird(t)
	defer a.alive(t)
	subject := desktop.MailSubject(tbMessage)
	res := okResult(t, "selecting the message", actFresh(t, h, map[string]any{"pid": a.pid}, subject, []string{"list_item"}, "click", nil))
	if res["path"] != "atspi_action" || res["took_cursor"] != false {
		t.Fatalf("selecting the message headless: %v", res)
	}
	a.alive(t)
	shown := waitRead(t, h, a, "the message in the message pane", func(read map[string]any) bool {
		return hasRow(read, "document_web", subject)
	})
	_, row := rowWith(t, shown, subject, "list_item")
	if !hasState(row, "selected") {
		t.Fatalf("the message's row is not selected: %v", row)
	}
	body := okResult(t, "reading the message pane", actFresh(t, h, map[string]any{"pid": a.pid}, subject, []string{"document_web"}, "get_window_state", map[string]any{"max_elements": 5000}))
	if !strings.Contains(testkit.JSON(t, body), desktop.MailBody(tbMessage)) {
		t.Fatalf("the message pane does not hold the message's body:\n%s", body["tree_text"])
	}
	a.alive(t)
}

// TestThunderbirdCompose opens a compose window by a headless click on
// New Message, reads it as completely as a pyatspi walk, and types into
// its To, Subject and body with type_text, each read back.
//
// Gecko answers EditableText's InsertText and SetTextContents with true
// and drops the text (measured here on Thunderbird 153's compose fields,
// focused or not, as on Firefox's page fields), so the driver offers no
// accessibility path for typing into any of the three: they wait on the
// quiet typing of keys sent to the app's window (measured by hand: after
// GrabFocus on the field, key events sent with XSendEvent to the compose
// window's X window type into each of the three, and the window's title
// follows the Subject). Until then the typing subtest fails with the
// driver's not_actionable.
func TestThunderbirdCompose(t *testing.T) {
	onDesktop(t)
	a, h, _ := grantedThunderbird(t)
	defer a.alive(t)
	res := okResult(t, "clicking New Message", actFresh(t, h, map[string]any{"pid": a.pid}, "New Message", []string{"push_button"}, "click", nil))
	if res["path"] != "atspi_action" || res["took_cursor"] != false {
		t.Fatalf("clicking New Message headless: %v", res)
	}
	win := composeWindow(t, h, a)
	// The window shows before its message body's document is built.
	var compose map[string]any
	testkit.Eventually(t, 30*time.Second, "the compose window's message body", func() bool {
		compose = h.ok("get_window_state", map[string]any{"window_id": win, "max_elements": 5000})
		a.alive(t)
		return hasRow(compose, "document_web", "Message body")
	})
	walked := walkCount(t, a.pid, "Write")
	n := int(testkit.Field[float64](t, compose, "element_count"))
	if compose["truncated"] != false {
		t.Fatalf("the compose window's read is truncated: %v", compose["truncated"])
	}
	if diff := n - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the compose window's read has %d elements, a pyatspi walk %d", n, walked)
	}
	t.Logf("Thunderbird's compose window: %d elements read, %d walked by pyatspi", n, walked)
	for _, want := range []struct{ label, role string }{
		{"To", "entry"}, {"Subject", "entry"}, {"Message body", "document_web"}, {"Send", "push_button"},
	} {
		rowWith(t, compose, want.label, want.role)
	}
	a.alive(t)

	// The person works in another window meanwhile: the compose window's
	// fields take keys sent to that window alone (window_keys), and the
	// person's window receives none of them and keeps the focus.
	p := sitDown(t)
	t.Run("types", func(t *testing.T) {
		for _, f := range []struct{ label, role, text string }{
			{"To", "entry", "bob@example.invalid"},
			{"Subject", "entry", "Minutes of the meeting"},
			{"Message body", "document_web", "Typed headless into the body."},
		} {
			r := actFresh(t, h, map[string]any{"window_id": win}, f.label, []string{f.role}, "type_text", map[string]any{"text": f.text})
			a.alive(t)
			if r.Err != nil {
				t.Errorf("type_text into the compose window's %s: %s", f.label, r.Text)
				continue
			}
			if res := asMap(t, r.Structured); res["path"] != "window_keys" {
				t.Errorf("type_text into the compose window's %s took the path %v, want window_keys", f.label, res["path"])
			}
			testkit.Eventually(t, 10*time.Second, "the compose window's "+f.label+" holding the typed text", func() bool {
				return strings.Contains(testkit.JSON(t, h.ok("get_window_state", map[string]any{"window_id": win, "max_elements": 5000})), f.text)
			})
			p.untouched(t, "typing into the compose window's "+f.label)
		}
	})
}

// composeWindow waits until Thunderbird (a) has a compose window ("Write:
// ..." in its title), and returns its id.
func composeWindow(t *testing.T, h *harness, a *desktopApp) float64 {
	t.Helper()
	var id float64
	testkit.Eventually(t, 30*time.Second, "a compose window of Thunderbird", func() bool {
		for _, w := range h.ok("list_windows", nil)["windows"].([]any) {
			row := w.(map[string]any)
			if int(row["pid"].(float64)) == a.pid && strings.HasPrefix(asString(row["title"]), "Write:") {
				id = row["window_id"].(float64)
				return true
			}
		}
		a.alive(t)
		return false
	})
	return id
}
