package engine

import "testing"

// TestFirstActionIgnoresCase: an act finds the action a toolkit spells its
// own way (Qt's "Press", "Toggle") and acts by that spelling.
func TestFirstActionIgnoresCase(t *testing.T) {
	cases := []struct {
		name    string
		actions []string
		want    string
	}{
		{"GTK's lower case", []string{"click"}, "click"},
		{"Qt's press", []string{"SetFocus", "Press"}, "Press"},
		{"Qt's toggle on a cell", []string{"Toggle"}, "Toggle"},
		{"the first of the list wins", []string{"Toggle", "Click"}, "Click"},
		{"none", []string{"SetFocus"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := firstAction(&Node{Actions: c.actions}, clickActions); got != c.want {
				t.Fatalf("firstAction(%v) = %q, want %q", c.actions, got, c.want)
			}
		})
	}
}
