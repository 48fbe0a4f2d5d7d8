package native_test

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// press_key with element_token on the window_keys path
// (docs/contract.md#window-keys), beside the person at work in their own
// window (quiet_test.go): Chromium confirms its field's focus inside the
// focus bracket and takes the key; Firefox confirms nothing and is
// refused, nothing sent.

// TestWindowKeysPressKeyInChromium: BackSpace after a typing removes the
// last character; Return in the Name field submits the fixture's form,
// and the act's diff shows the page's status saying so (or, the page
// answering after the settle under load, a read soon after). Each press is one
// bracket (the page hears its window focused, then blurred), and the
// person's window keeps the focus, its place and its text.
func TestWindowKeysPressKeyInChromium(t *testing.T) {
	onDesktop(t)
	b, h, p := besideTheBrowser(t, sandbox.Chromium)
	defer b.alive(t)
	page := p.pageFocus(t, h, b.pid, -1)
	bracket := focusEventsPerTyping[sandbox.Chromium]

	onName(t, h, b.pid, "", "type_text", map[string]any{"text": "Ada!"})
	p.fieldHolds(t, "Ada!")
	page = p.pageFocus(t, h, b.pid, page+bracket)

	res := onName(t, h, b.pid, "", "press_key", map[string]any{"key": "BackSpace"})
	if res["path"] != string(engine.PathWindowKeys) || res["took_cursor"] != false {
		t.Fatalf("press_key BackSpace on the window_keys path: %v", res)
	}
	p.fieldHolds(t, "Ada")
	pageAnswered(t, h, b.pid, res, `"value":"Ada"`)
	page = p.pageFocus(t, h, b.pid, page+bracket)
	p.untouched(t, "press_key BackSpace")

	res = onName(t, h, b.pid, "", "press_key", map[string]any{"key": "Return"})
	if res["path"] != string(engine.PathWindowKeys) {
		t.Fatalf("press_key Return on the window_keys path: %v", res)
	}
	// The diff shows the page's answer when it comes within the settle;
	// under load a read soon after does (pageAnswered).
	pageAnswered(t, h, b.pid, res, "submitted: Ada")
	p.fieldHolds(t, "Ada")
	p.pageFocus(t, h, b.pid, page+bracket)
	p.untouched(t, "press_key Return")

	// A key with a modifier's place stays takeover-only, nothing sent.
	onName(t, h, b.pid, engine.CodeRequiresTakeover, "press_key", map[string]any{"key": "Control_L"})
	p.fieldHolds(t, "Ada")
}

// TestWindowKeysPressKeyRefusedInFirefox: Firefox's field reports no focus
// while its window is inactive, so press_key into it is refused with a
// takeover recommended and the field keeps what it held.
func TestWindowKeysPressKeyRefusedInFirefox(t *testing.T) {
	onDesktop(t)
	b, h, p := besideTheBrowser(t, sandbox.Firefox)
	defer b.alive(t)
	onName(t, h, b.pid, "", "type_text", map[string]any{"text": "Ada!"})
	p.fieldHolds(t, "Ada!")
	e := onName(t, h, b.pid, engine.CodeNotActionable, "press_key", map[string]any{"key": "BackSpace"})
	if esc, _ := e["escalation"].(map[string]any); esc["recommend"] != "takeover" || !strings.Contains(testkit.JSON(t, e), "confirms") {
		t.Fatalf("press_key into Firefox's field is refused saying why, a takeover recommended: %v", e)
	}
	p.fieldHolds(t, "Ada!")
	p.untouched(t, "the refused press_key")
}
