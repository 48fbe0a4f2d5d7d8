package atspi

import "testing"

// TestCaretHolder: the child typing into a document goes to, from its
// children's caret offsets (-1: no caret, as Writer answers for every
// paragraph but the caret's) and focused states.
func TestCaretHolder(t *testing.T) {
	cases := []struct {
		name    string
		carets  []int32
		focused []bool
		want    int
	}{
		{"the one with a caret", []int32{-1, 12, -1}, []bool{false, false, false}, 1},
		{"a caret at the start counts", []int32{-1, -1, 0}, []bool{false, false, false}, 2},
		{"a focused one with a caret first", []int32{0, 5, -1}, []bool{false, true, false}, 1},
		{"focus without a caret does not count", []int32{-1, 3, -1}, []bool{true, false, false}, 1},
		{"the first of several with a caret", []int32{4, 0, -1}, []bool{false, false, false}, 0},
		{"no caret: the last shown", []int32{-1, -1, -1}, []bool{false, false, false}, 2},
		{"one child", []int32{-1}, []bool{false}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := caretHolder(c.carets, c.focused); got != c.want {
				t.Fatalf("caretHolder(%v, %v) = %d, want %d", c.carets, c.focused, got, c.want)
			}
		})
	}
}
