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
