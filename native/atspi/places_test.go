package atspi

import "testing"

// TestPlacePaths: a place path names a container's child by index or a
// table's cell by row and column, and reads back the same; a plain object
// path or a malformed place is not a place.
func TestPlacePaths(t *testing.T) {
	cases := []struct {
		name       string
		path       string
		container  string
		index, col int32
		ok         bool
	}{
		{"a child", childPlace("/org/a11y/atspi/accessible/17", 3), "/org/a11y/atspi/accessible/17", 3, -1, true},
		{"a cell", cellPlace("/org/a11y/atspi/accessible/9", 40, 23), "/org/a11y/atspi/accessible/9", 40, 23, true},
		{"a plain path", "/org/a11y/atspi/accessible/17", "", 0, 0, false},
		{"no index", "/a#", "", 0, 0, false},
		{"a negative index", "/a#-1", "", 0, 0, false},
		{"a bad column", "/a#1,x", "", 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			container, index, col, ok := parsePlace(c.path)
			if ok != c.ok || container != c.container || (ok && (index != c.index || col != c.col)) {
				t.Fatalf("parsePlace(%q) = %q %d %d %v", c.path, container, index, col, ok)
			}
		})
	}
}
