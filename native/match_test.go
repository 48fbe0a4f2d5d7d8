package native

import (
	"testing"

	"github.com/nish-driver/nish-driver/native/atspi"
	"github.com/nish-driver/nish-driver/native/xlib"
)

func frame(id string, pid int, name string, x, y, w, h int, showing bool) atspi.Frame {
	f := atspi.Frame{ID: atspi.ID(id), Pid: pid, Name: name, Extents: atspi.Rect{X: x, Y: y, W: w, H: h}}
	if showing {
		f.States = []string{"showing"}
	}
	return f
}

func TestMatchFrame(t *testing.T) {
	win := xlib.Window{ID: 1, Pid: 100, Title: "Report.txt — Mousepad", Frame: xlib.Rect{X: 10, Y: 20, W: 800, H: 600}}
	cases := []struct {
		name   string
		frames []atspi.Frame
		want   string
	}{
		{"same title and place", []atspi.Frame{
			frame("a", 100, "Other", 900, 20, 400, 300, true),
			frame("b", 100, "Report.txt — Mousepad", 10, 20, 800, 600, true)}, "b"},
		{"title differs, geometry decides", []atspi.Frame{
			frame("a", 100, "x", 900, 900, 10, 10, true),
			frame("b", 100, "y", 0, 0, 830, 640, true)}, "b"},
		{"only frame of the process", []atspi.Frame{frame("a", 100, "", 0, 0, 0, 0, false)}, "a"},
		{"other process only", []atspi.Frame{frame("a", 200, "Report.txt — Mousepad", 10, 20, 800, 600, true)}, ""},
		{"a tie is no match", []atspi.Frame{
			frame("a", 100, "Report.txt — Mousepad", 10, 20, 800, 600, true),
			frame("b", 100, "Report.txt — Mousepad", 10, 20, 800, 600, true)}, ""},
		{"nothing in common", []atspi.Frame{
			frame("a", 100, "x", 2000, 2000, 5, 5, false),
			frame("b", 100, "y", 3000, 3000, 5, 5, false)}, ""},
	}
	for _, c := range cases {
		got, ok := matchFrame(win, c.frames)
		if (c.want == "") == ok || (ok && string(got.ID) != c.want) {
			t.Errorf("%s: got %q ok=%v, want %q", c.name, got.ID, ok, c.want)
		}
	}
}
