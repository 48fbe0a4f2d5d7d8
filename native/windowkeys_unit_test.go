package native

import "testing"

// TestRaised: the window_keys path's check that the field's window was
// not raised: it counts only a window that was above it, is still mapped
// and is now below it.
func TestRaised(t *testing.T) {
	const win = 5
	cases := []struct {
		name          string
		before, after []uint64 // topmost first
		want          bool
	}{
		{"unchanged", []uint64{1, 2, win, 3}, []uint64{1, 2, win, 3}, false},
		{"raised to the top", []uint64{1, 2, win, 3}, []uint64{win, 1, 2, 3}, true},
		{"raised past one", []uint64{1, 2, win, 3}, []uint64{1, win, 2, 3}, true},
		{"a window below it raised", []uint64{1, win, 3}, []uint64{3, 1, win}, false},
		{"a new window on top", []uint64{1, win}, []uint64{7, 1, win}, false},
		{"the window above it went away", []uint64{1, 2, win}, []uint64{2, win}, false},
		{"already on top", []uint64{win, 1}, []uint64{win, 1}, false},
		{"the window unmapped", []uint64{1, win}, []uint64{1}, false},
	}
	for _, c := range cases {
		if got := raised(windowsAbove(c.before, win), c.after, win); got != c.want {
			t.Errorf("%s: raised = %v, want %v", c.name, got, c.want)
		}
	}
}
