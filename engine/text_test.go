package engine

import (
	"strings"
	"testing"
)

func TestCutEscape(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Slack", "Slack"},
		{"a\nb", `a\nb`},
		{"bell\a", `bell\u0007`},
		{"evil\u202etxt", `evil\u202etxt`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{strings.Repeat("x", 100), strings.Repeat("x", 64)},
		{"\xff", `\ufffd`},
	}
	for _, c := range cases {
		if got := CutEscape(c.in, 64); got != c.want {
			t.Errorf("CutEscape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestQuoteCannotBeClosedByALabel(t *testing.T) {
	if got := quote(`a" [9] button "OK`); got != `"a\" [9] button \"OK"` {
		t.Fatalf("quote: %s", got)
	}
}

// TestShownNameIsCutAt64Characters: an app's name is cut to 64 of its
// characters (docs/contract.md, candidates), counted in characters, not
// bytes, each escaped whole: an escape is never split by the cut.
func TestShownNameIsCutAt64Characters(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"short", "Mousepad", "Mousepad"},
		{"64 two-byte characters", strings.Repeat("é", 64), strings.Repeat("é", 64)},
		{"65 two-byte characters", strings.Repeat("é", 65), strings.Repeat("é", 64)},
		{"a line break escaped", "Evil\nApp", `Evil\nApp`},
		{"an escape as the 64th character", strings.Repeat("a", 63) + "\nb", strings.Repeat("a", 63) + `\n`},
	}
	for _, c := range cases {
		if got := shownName(c.in); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
