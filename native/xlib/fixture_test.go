//go:build cgo

package xlib

import (
	"bufio"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
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
	lines chan string
	id    uint64 // its top-level window
}

// startGTK starts the fixture on the test desktop and waits for its window.
func startGTK(t *testing.T, title, prgname string, frame Rect) *gtkApp {
	t.Helper()
	cmd := desk.Command("/usr/bin/python3", "-c", gtkFixture, title, prgname,
		strconv.Itoa(frame.X), strconv.Itoa(frame.Y), strconv.Itoa(frame.W), strconv.Itoa(frame.H))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := desk.Start(cmd); err != nil {
		t.Fatalf("python3-gi (GTK 3) fixture: %v", err)
	}
	app := &gtkApp{cmd: cmd, lines: make(chan string, 100)}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			app.lines <- sc.Text()
		}
		close(app.lines)
	}()
	if err := app.waitLine("ready", 15*time.Second); err != nil {
		t.Fatalf("the GTK fixture did not come up: %v", err)
	}
	// Found by class rather than through TopLevels, which hides windows
	// claiming the driver's class.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		ids, err := dpy.FindByClass(prgname)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if w, err := dpy.Describe(id); err == nil && w.Pid == cmd.Process.Pid && w.Mapped {
				app.id = id
				return app
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the GTK fixture's window did not appear with its pid")
	return nil
}

// waitLine waits for an output line equal to want.
func (a *gtkApp) waitLine(want string, limit time.Duration) error {
	timeout := time.After(limit)
	var last string
	for {
		select {
		case l, ok := <-a.lines:
			if !ok {
				return errors.New("the fixture exited")
			}
			if l == want {
				return nil
			}
			last = l
		case <-timeout:
			return fmt.Errorf("no line %q (last: %q)", want, last)
		}
	}
}

// lastText waits until the entry's text has stayed the same for a moment.
func (a *gtkApp) lastText(limit time.Duration) string {
	timeout := time.After(limit)
	text := ""
	for {
		select {
		case l, ok := <-a.lines:
			if !ok {
				return text
			}
			if s, ok := strings.CutPrefix(l, "text:"); ok {
				text = s
			}
		case <-time.After(300 * time.Millisecond):
			return text
		case <-timeout:
			return text
		}
	}
}
