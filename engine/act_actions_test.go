package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestActionsReadAgainWhenTheReadListedNone: a read that found no actions
// on an element (Firefox answers its first question about a page
// element's actions with none) does not refuse a click that the element
// takes by now; the act reads the element's actions again, live.
func TestActionsReadAgainWhenTheReadListedNone(t *testing.T) {
	h := newHarness(t, nil)
	add := h.demo.Form.AddRow
	// The mock gives an element without actions its role's; one that is
	// not a click stands for "none yet".
	add.SetActions("describe")
	h.start(nil)
	// A first act starts the app's change reports, so the next act can
	// take the model's read as it is (engine/reuse.go).
	read := h.readForm(nil)
	h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Remember me")})
	read = h.readForm(nil)
	tok := testkit.Token(t, read, "push_button", "Add row")
	add.SetActions("click") // as the app now answers; no change is reported

	res := h.ok("click", map[string]any{"element_token": tok})
	if res["action"] != "click" || len(h.demo.Form.Items.Children()) != 4 {
		t.Fatalf("the click went through the action read again: %v", res)
	}

	// An element that really has no click action is still refused.
	add.SetActions("describe")
	read = h.readForm(nil)
	h.fail("not_actionable", "click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Add row")})
}
