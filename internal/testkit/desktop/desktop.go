// Package desktop starts the tests' fixture programs on the private test
// desktop (package sandbox) and waits until they are up: a program that
// prints "ready" once its window is shown, or an app that joins the
// accessibility bus under its name. The fixtures' pyatspi reference
// scripts are package pyref's to run and read.
//
// It needs neither the engine nor the native layers, so every package that
// tests on the desktop uses it, native/atspi and native/xlib included.
package desktop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// ReadyBound is how long a fixture may take to come up: a hang guard, far
// above what any fixture takes on an idle machine.
const ReadyBound = 60 * time.Second

// Lines is a started program's standard output, line by line. Read it or
// Drain it: a program whose output nobody reads blocks once the buffer is
// full.
type Lines struct {
	ch chan string // closed when the output ends
}

// Start starts cmd on d with its standard output read into Lines (unless
// the caller set cmd.Stdout: then Lines stays empty until the program
// ends). The program outlives the test: the caller stops it.
func Start(d *sandbox.Desktop, cmd *exec.Cmd) (*Lines, error) {
	l := &Lines{ch: make(chan string, 256)}
	if cmd.Stdout != nil {
		if err := d.Start(cmd); err != nil {
			return nil, err
		}
		go func() { _ = cmd.Wait(); close(l.ch) }()
		return l, nil
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := d.Start(cmd); err != nil {
		return nil, err
	}
	go func() {
		defer close(l.ch)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			l.ch <- sc.Text()
		}
	}()
	return l, nil
}

// Run is Start for one test: a failure to start fails the test, and the
// program is killed when the test ends.
func Run(t testing.TB, d *sandbox.Desktop, cmd *exec.Cmd) *Lines {
	t.Helper()
	l, err := Start(d, cmd)
	if err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return l
}

// RunReady is Run followed by a wait for a line holding "ready"; the rest
// of the output is dropped.
func RunReady(t testing.TB, d *sandbox.Desktop, what string, cmd *exec.Cmd) {
	t.Helper()
	l := Run(t, d, cmd)
	if err := l.Wait(ReadyBound, IsReady); err != nil {
		t.Fatalf("%s did not say ready: %v", what, err)
	}
	l.Drain()
}

// IsReady matches the line a fixture prints once it is up.
func IsReady(line string) bool { return strings.Contains(line, "ready") }

// RunApp starts argv on d for one test and waits until an app named name is
// on the accessibility bus.
func RunApp(t testing.TB, d *sandbox.Desktop, name string, argv ...string) *exec.Cmd {
	t.Helper()
	cmd := d.Command(argv[0], argv[1:]...)
	Run(t, d, cmd)
	if _, err := d.WaitForApp(context.Background(), name, ReadyBound); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// ErrEnded is Wait's error when the output ended first.
var ErrEnded = errors.New("the program's output ended")

// Wait reads lines until one matches, for up to limit; lines read are
// consumed.
func (l *Lines) Wait(limit time.Duration, match func(string) bool) error {
	timeout := time.After(limit)
	var last string
	for {
		select {
		case s, ok := <-l.ch:
			if !ok {
				return fmt.Errorf("%w (last line %q)", ErrEnded, last)
			}
			if match(s) {
				return nil
			}
			last = s
		case <-timeout:
			return fmt.Errorf("no matching line after %v (last line %q)", limit, last)
		}
	}
}

// Next returns the next line, with ok false when the output has ended or
// limit passed first.
func (l *Lines) Next(limit time.Duration) (line string, ok bool) {
	select {
	case s, ok := <-l.ch:
		return s, ok
	case <-time.After(limit):
		return "", false
	}
}

// Drain keeps reading (and dropping) the output in the background, so a
// program that keeps printing never blocks on a full pipe.
func (l *Lines) Drain() {
	go func() {
		for range l.ch {
		}
	}()
}
