package native_test

import (
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// On a real entry, a credential split over set_value and type_text is
// refused at the write that completes it, and the entry keeps its text.
// The check reads the entry's live text and caret (ReadField): GTK leaves
// the caret at the start after a set_value (measured: typing "UIOPASDFGH"
// after set_value "AKIAQWERTY" leaves "UIOPASDFGHAKIAQWERTY", no key), so
// here the second half is set first and the first half typed in front of
// it, which a check that took the insertion to go at the end would miss.
func TestASecretSplitOverWritesIsRefusedOnARealEntry(t *testing.T) {
	a := startSynthetic(t, 6)
	pid := a.cmd.Process.Pid
	h := newHarness(t, 20*time.Second)
	grant(t, h, pid)
	entryHolding := func(value string) string {
		t.Helper()
		read := h.ok("get_window_state", map[string]any{"pid": pid})
		for _, e := range read["elements"].([]any) {
			row := e.(map[string]any)
			if row["role"] == "text" && row["value"] == value {
				return row["element_token"].(string)
			}
		}
		t.Fatalf("no entry holding the expected text in:\n%s", read["tree_text"])
		return ""
	}
	entry := entryHolding("value 1")
	if res := h.ok("set_value", map[string]any{"element_token": entry, "value": "UIOPASDFGH"}); res["readback"] != "match" {
		t.Fatalf("set_value: %v", res)
	}
	entry = entryHolding("UIOPASDFGH")
	h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"element_token": entry, "text": "AKIAQWERTY"})
	entry = entryHolding("UIOPASDFGH") // nothing was inserted
	h.ok("type_text", map[string]any{"element_token": entry, "text": "ok "})
	entryHolding("ok UIOPASDFGH")
}
