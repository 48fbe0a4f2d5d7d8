package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
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
	return parseWalk(out, b.walks)
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

// parseWalk reads walk.py's "elements N ms M" lines; want is how many walks
// were asked for.
func parseWalk(out string, want int) ([]float64, int, error) {
	var times []float64
	elems := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 || f[0] != "elements" || f[2] != "ms" {
			return nil, 0, errors.New("walk.py printed an unexpected line")
		}
		n, err1 := strconv.Atoi(f[1])
		m, err2 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || n < 0 || m < 0 {
			return nil, 0, errors.New("walk.py printed an unexpected line")
		}
		elems = n
		times = append(times, m)
	}
	if len(times) != want {
		return nil, 0, fmt.Errorf("walk.py printed %d walks, want %d", len(times), want)
	}
	return times, elems, nil
}
