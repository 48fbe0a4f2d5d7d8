package main

import (
	"fmt"
	"strings"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// lane is the kind of desktop a row was measured on. The same app on the
// two lanes differs only in how the driver finds its window (X's window
// list on X11; the accessibility bus's frames on Wayland, with frames in
// window coordinates), so rows of the same subject on both lanes show what
// that costs.
type lane int

const (
	// x11 is the private Xvfb desktop every subject is measured on.
	x11 lane = iota
	// wayland is the headless GNOME desktop (mutter, Xwayland for the
	// consent dialog), on which the subjects marked wayland run as Wayland
	// clients.
	wayland
)

func (l lane) String() string {
	if l == wayland {
		return "wayland"
	}
	return "x11"
}

// options are the sandbox options of the lane's desktop: the same screen
// size on both, so that the apps lay out alike.
func (l lane) options() sandbox.Options {
	return sandbox.Options{Wayland: l == wayland}
}

// parseLanes reads -lanes: comma-separated lane names, each once, in the
// order given.
func parseLanes(s string) ([]lane, error) {
	var out []lane
	seen := map[lane]bool{}
	for _, part := range strings.Split(s, ",") {
		var l lane
		switch strings.TrimSpace(part) {
		case "x11":
			l = x11
		case "wayland":
			l = wayland
		default:
			return nil, fmt.Errorf("unknown lane %q (x11, wayland)", part)
		}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out, nil
}

// laneSubjects are the subjects a lane measures: every subject on X11;
// on Wayland those marked for it, without the MCP client phase (the
// transport does not depend on the display, and is measured on X11).
func laneSubjects(all []subject, l lane) []subject {
	if l == x11 {
		return all
	}
	var out []subject
	for _, s := range all {
		if s.wayland {
			s.mcp = false
			out = append(out, s)
		}
	}
	return out
}

// besideX11 orders rows so that each subject's rows on other lanes follow
// its X11 row; rows without an X11 row keep their place at the end.
func besideX11(rows []row) []row {
	out := make([]row, 0, len(rows))
	placed := make([]bool, len(rows))
	for i, r := range rows {
		if r.lane != x11 {
			continue
		}
		out, placed[i] = append(out, r), true
		for j, o := range rows {
			if !placed[j] && o.lane != x11 && o.subject.name == r.subject.name {
				out, placed[j] = append(out, o), true
			}
		}
	}
	for i, r := range rows {
		if !placed[i] {
			out = append(out, r)
		}
	}
	return out
}

// title names a row in the verdict: the subject, and its lane when it is
// not X11.
func (r row) title() string {
	if r.lane == x11 {
		return r.subject.name
	}
	return r.subject.name + " (" + r.lane.String() + ")"
}
