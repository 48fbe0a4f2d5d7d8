package native_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// On a real entry, a credential split over set_value and type_text is
// refused at the write that completes it, and the entry keeps its text.
// The check reads the entry's live text and where the insertion goes
// (ReadField): the entry was never clicked, so type_text adds at the end.
func TestASecretSplitOverWritesIsRefusedOnARealEntry(t *testing.T) {
	onDesktop(t)
	pid, h := grantedSynthetic(t, 6)
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
	if res := h.ok("set_value", map[string]any{"element_token": entry, "value": "AKIAQWERTY"}); res["readback"] != "match" {
		t.Fatalf("set_value: %v", res)
	}
	entry = entryHolding("AKIAQWERTY")
	h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"element_token": entry, "text": "UIOPASDFGH"})
	entry = entryHolding("AKIAQWERTY") // nothing was inserted
	h.ok("type_text", map[string]any{"element_token": entry, "text": " ok"})
	entryHolding("AKIAQWERTY ok")
}
