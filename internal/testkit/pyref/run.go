package pyref

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
	"unicode/utf8"
)

// Python is the interpreter with PyGObject and pyatspi that the scripts
// need (the python3 on PATH may be another one).
const Python = "/usr/bin/python3"

// ErrNoWindow is a script's exit status 2 (walk.py, containers.py): the app
// has no window whose title starts with the prefix it was given.
var ErrNoWindow = errors.New("the reference script found no window of the app with that title")

// noWindowStatus is the exit status the scripts give ErrNoWindow.
const noWindowStatus = 2

// stderrShown is how much of the end of a failed script's standard error
// its error carries: a traceback's last lines, enough to say what failed.
const stderrShown = 1000

// waitDelay bounds the wait for the script's output to close after it was
// killed, should anything outside its process group still hold the pipes.
const waitDelay = 5 * time.Second

// Run runs script (a path) with Python and args in env (a desktop's
// environment: sandbox.Desktop.Env) and returns what it printed on
// standard output, also when it fails (what it printed until then). When
// ctx ends first, the script's whole process group is killed and the error
// wraps ctx's. A failure's error carries the end of the script's standard
// error; exit status 2 is ErrNoWindow.
//
// The script runs in a process group of its own, killed whole: a hung
// pyatspi call (an app that never answers the bus) must not outlive the
// bound, nor leave a child behind. It has no parent-death signal, which
// Linux ties to the thread that forked it, not to this process: any
// goroutine's thread may start it, and the signal would fire when the
// runtime retires that thread, mid-walk.
func Run(ctx context.Context, env []string, script string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, Python, append([]string{script}, args...)...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	script = filepath.Base(script)
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctx.Err() != nil {
		return stdout.Bytes(), fmt.Errorf("%s: %w (%v)%s", script, ctx.Err(), err, tail(stderr.Bytes()))
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == noWindowStatus {
		return stdout.Bytes(), fmt.Errorf("%s: %w", script, ErrNoWindow)
	}
	return stdout.Bytes(), fmt.Errorf("%s: %v%s", script, err, tail(stderr.Bytes()))
}

// tail is the end of a script's standard error for an error message.
func tail(stderr []byte) string {
	s := bytes.TrimSpace(stderr)
	if len(s) == 0 {
		return ""
	}
	if len(s) > stderrShown {
		i := len(s) - stderrShown
		for i < len(s) && !utf8.RuneStart(s[i]) {
			i++ // not into a character
		}
		s = append([]byte("…"), s[i:]...)
	}
	return "; its stderr: " + string(s)
}
