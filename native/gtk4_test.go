package native_test

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestGTK4ButtonsActHeadless: GTK 4.8 (Debian 12) reports showing on its
// windows only, and runs a button's accessible click 250 ms after the call.
// Read literally, no widget of a GTK 4 app could be acted on (not showing),
// none would have a frame, and a click's settle would end before the click.
// gnome-calculator's keypad must be clickable headless, with frames, and
// every click must report the display's new value in its diff.
func TestGTK4ButtonsActHeadless(t *testing.T) {
	onDesktop(t)
	ap := startApp(t, "gnome-calculator", "gnome-calculator")
	h := newHarness(t, consentWait)
	grant(t, h, ap.cmd.Process.Pid)
	pid := ap.cmd.Process.Pid

	for _, want := range []string{"7", "77"} {
		clickCalculatorKey(t, h, pid, "7", want)
	}
}

// clickCalculatorKey reads gnome-calculator's window (pid), clicks the
// keypad button whose label starts with key, headless, and checks that
// the click is confirmed and its diff shows the display reading want. It
// returns the read before the click.
func clickCalculatorKey(t *testing.T, h *harness, pid int, key, want string) map[string]any {
	t.Helper()
	read := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	var button map[string]any
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] == "push_button" && strings.HasPrefix(asString(row["label"]), key) {
			button = row
			break
		}
	}
	if button == nil {
		t.Fatalf("no %s button:\n%s", key, read["tree_text"])
	}
	if f := button["frame"].(map[string]any); f["w"].(float64) <= 0 || f["h"].(float64) <= 0 {
		t.Fatalf("the %s button has no frame (read as not showing): %v", key, button)
	}
	res := h.ok("click", map[string]any{"element_token": button["element_token"]})
	if res["effect"] != "changed" && res["effect"] != "confirmed" {
		t.Fatalf("click %s: effect %v (the settle ended before GTK 4's late click?): %v", key, res["effect"], res)
	}
	if diff := testkit.JSON(t, res["diff"]); !strings.Contains(diff, `"value":"`+want+`"`) {
		t.Fatalf("click %s: the diff does not show the display reading %q: %s", key, want, diff)
	}
	return read
}
