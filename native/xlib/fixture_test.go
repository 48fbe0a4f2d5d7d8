//go:build cgo

package xlib

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
)

// gtkFixture is a GTK 3 window (python3-gi) with one text entry. It prints
// "ready" once shown and "text:<entry text>" on every change.
const gtkFixture = `
import sys
from gi.repository import GLib
title, prgname = sys.argv[1], sys.argv[2]
x, y, w, h = (int(v) for v in sys.argv[3:7])
GLib.set_prgname(prgname)
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
win = Gtk.Window(title=title)
win.set_default_size(w, h)
win.move(x, y)
entry = Gtk.Entry()
entry.connect("changed", lambda e: print("text:" + e.get_text(), flush=True))
win.add(entry)
win.connect("destroy", Gtk.main_quit)
def shown(*_):
    print("ready", flush=True)
win.connect("map-event", shown)
win.show_all()
Gtk.main()
`

// gtkApp is a running fixture.
type gtkApp struct {
	cmd   *exec.Cmd
	lines *desktop.Lines
	id    uint64 // its top-level window
}

// startGTK starts the fixture on the test desktop and waits for its window.
func startGTK(t *testing.T, title, prgname string, frame Rect) *gtkApp {
	t.Helper()
	cmd := desk.Command("/usr/bin/python3", "-c", gtkFixture, title, prgname,
		strconv.Itoa(frame.X), strconv.Itoa(frame.Y), strconv.Itoa(frame.W), strconv.Itoa(frame.H))
	app := &gtkApp{cmd: cmd, lines: desktop.Run(t, desk, cmd)}
	if err := app.waitLine("ready", 15*time.Second); err != nil {
		t.Fatalf("the GTK fixture did not come up: %v", err)
	}
	// Found by class rather than through TopLevels, which hides windows
	// claiming the driver's class.
	testkit.Eventually(t, 10*time.Second, "the GTK fixture's window appears with its pid", func() bool {
		ids, err := xt.FindByClass(prgname)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if w, err := dpy.Describe(id); err == nil && w.Pid == cmd.Process.Pid && w.Mapped {
				app.id = id
				return true
			}
		}
		return false
	})
	return app
}

// waitLine waits for an output line equal to want.
func (a *gtkApp) waitLine(want string, limit time.Duration) error {
	return a.lines.Wait(limit, func(l string) bool { return l == want })
}

// lastText waits until the entry's text has stayed the same for a moment.
func (a *gtkApp) lastText(limit time.Duration) string {
	timeout := time.Now().Add(limit)
	text := ""
	for time.Now().Before(timeout) {
		l, ok := a.lines.Next(300 * time.Millisecond)
		if !ok {
			return text
		}
		if s, ok := strings.CutPrefix(l, "text:"); ok {
			text = s
		}
	}
	return text
}
