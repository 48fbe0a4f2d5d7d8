package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
)

// walk runs walk.py (the pyatspi baseline) on the app's window whose title
// starts with title, b.walks times in one interpreter, and returns each
// walk's milliseconds and the elements it visited. Some apps (the widget
// factory, zenity) leave their accessible frame unnamed while X shows a
// fallback title; then the walk takes the app's first top-level window,
// which for these one-window apps is the one the driver read (the table's
// "walked" column beside "elements" shows whether the two agree).
func (b *bench) walk(pid int, title string) ([]float64, int, error) {
	out, err := b.runWalk(pid, title)
	if errors.Is(err, errNoFrame) && title != "" {
		out, err = b.runWalk(pid, "")
	}
	if err != nil {
		return nil, 0, err
	}
	return desktop.ParseWalkTimes(out, b.walks)
}

// errNoFrame is walk.py's exit status 2: no window with that title.
var errNoFrame = errors.New("walk.py found no window of the app with the driver's title")

func (b *bench) runWalk(pid int, title string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/python3", filepath.Join(b.testdata, "walk.py"),
		strconv.Itoa(pid), title, strconv.Itoa(b.walks))
	cmd.Env = b.desk.Env()
	// Its own process group, so a timeout kills it alone; no parent-death
	// signal, which Linux ties to the forking thread, not this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
			return "", errNoFrame
		}
		return "", fmt.Errorf("walk.py: %v", err)
	}
	return out.String(), nil
}
