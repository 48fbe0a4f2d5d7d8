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

// TestCellAddresses: a sheet's cell names read as zero-based rows and
// columns; anything else is no address.
func TestCellAddresses(t *testing.T) {
	cases := []struct {
		name     string
		row, col int32
		ok       bool
	}{
		{"A1", 0, 0, true},
		{"B12", 11, 1, true},
		{"Z3", 2, 25, true},
		{"AA1", 0, 26, true},
		{"XFD1048576", 1048575, 16383, true},
		{"Sheet1", 0, 0, false},
		{"12", 0, 0, false},
		{"A", 0, 0, false},
		{"A0", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			row, col, ok := parseCellAddress(c.name)
			if ok != c.ok || (ok && (row != c.row || col != c.col)) {
				t.Fatalf("parseCellAddress(%q) = %d, %d, %v", c.name, row, col, ok)
			}
		})
	}
}
