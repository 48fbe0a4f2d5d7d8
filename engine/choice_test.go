package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestOptionOfAClosedChoice picks an option of a closed combo box (its
// options hidden, as a browser's <select> keeps them) by clicking it, and
// checks that other hidden elements stay refused.
func TestOptionOfAClosedChoice(t *testing.T) {
	h := newHarness(t, nil)
	f := h.demo.Form
	for _, item := range f.LanguageMenu.Children() {
		item.Hide()
	}
	h.start(nil)
	read := h.readForm(map[string]any{"max_elements": 5000})
	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "menu_item", "Deutsch")})
	if res["path"] != "atspi_action" || f.Language.Name() != "Deutsch" {
		t.Fatalf("picking a hidden option of a showing combo box: %v (combo %q)", res, f.Language.Name())
	}
	if _, said := res["scrolled_into_view"]; said {
		t.Fatalf("a pick is not a scroll: %v", res)
	}

	// Only a click picks: other acts on the hidden option stay refused.
	read = h.readForm(map[string]any{"max_elements": 5000})
	h.fail("element_disabled", "right_click", map[string]any{"element_token": testkit.Token(t, read, "menu_item", "Español")})

	// A combo box that is not showing itself hides its options for good.
	f.Language.Hide()
	read = h.readForm(map[string]any{"max_elements": 5000})
	h.fail("element_disabled", "click", map[string]any{"element_token": testkit.Token(t, read, "menu_item", "Español")})
}
