package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The tests show the real consent dialog (native/xlib) on a private desktop
// and let the program answer it, checking what the dialog received.

var (
	desk *sandbox.Desktop
	dpy  *xlib.Display
)

func TestMain(m *testing.M) {
	os.Exit(sandbox.RunTests("ci/demoperson", func(d *sandbox.Desktop) int {
		desk = d
		return runTests(m)
	}))
}

// runTests opens the dialog's connection to the desktop and runs the tests.
func runTests(m *testing.M) int {
	var err error
	dpy, err = xlib.Open(desk.Display)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot open the sandbox display:", err)
		return 1
	}
	defer dpy.Close()
	return m.Run()
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		display string
		want    options // compared when wantErr is empty
		wantErr string
	}{
		{"defaults", nil, ":7", options{display: ":7", timeout: 60 * time.Second, clicks: []string{"allow"}}, ""},
		{"display flag beats $DISPLAY", []string{"-display", ":9"}, ":7", options{display: ":9", timeout: 60 * time.Second, clicks: []string{"allow"}}, ""},
		{"clicks in order, blanks dropped", []string{"-click", "app:12, ,allow", "-timeout", "5s"}, ":7",
			options{display: ":7", timeout: 5 * time.Second, clicks: []string{"app:12", "allow"}}, ""},
		{"no display", nil, "", options{}, "no display"},
		{"no control", []string{"-click", " , "}, ":7", options{}, "names no control"},
		{"zero timeout", []string{"-timeout", "0s"}, ":7", options{}, "must be positive"},
		{"stray argument", []string{"allow"}, ":7", options{}, "unexpected argument"},
		{"unknown flag", []string{"-nope"}, ":7", options{}, "not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse(tt.args, tt.display, &bytes.Buffer{})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// shown is a consent dialog on the test desktop and its answer.
type shown struct {
	result outcome
	done   chan struct{}
}

// outcome is what ShowConsent returned.
type outcome struct {
	r   xlib.ConsentResult
	err error
}

// showDialog shows a consent dialog for apps 11 and 22 that ends unanswered
// after limit.
func showDialog(t *testing.T, limit time.Duration) *shown {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	s := &shown{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer cancel()
		r, err := dpy.ShowConsent(ctx, xlib.ConsentDialog{
			Host: "demo", Purpose: "a test",
			Apps: []xlib.ConsentApp{{Pid: 11, Name: "first"}, {Pid: 22, Name: "second"}},
		})
		s.result = outcome{r, err}
	}()
	t.Cleanup(func() { cancel(); <-s.done })
	return s
}

func (s *shown) answer(t *testing.T) xlib.ConsentResult {
	t.Helper()
	<-s.done
	if s.result.err != nil {
		t.Fatalf("ShowConsent: %v", s.result.err)
	}
	return s.result.r
}

// runPerson runs the program against the test desktop in the background.
func runPerson(args ...string) (exit <-chan int, stdout, stderr *testkit.SyncBuffer) {
	ch := make(chan int, 1)
	stdout, stderr = &testkit.SyncBuffer{}, &testkit.SyncBuffer{}
	go func() { ch <- run(args, desk.Display, stdout, stderr) }()
	return ch, stdout, stderr
}

func TestAnswersTheDialog(t *testing.T) {
	tests := []struct {
		name  string
		click string
		want  xlib.ConsentResult
	}{
		{"allow", "allow", xlib.ConsentResult{Allowed: true, Pids: []int{11, 22}}},
		{"untick one app, then allow", "app:22,allow", xlib.ConsentResult{Allowed: true, Pids: []int{11}}},
		{"deny", "deny", xlib.ConsentResult{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dialog := showDialog(t, 20*time.Second)
			exit, stdout, stderr := runPerson("-click", tt.click, "-timeout", "15s")
			got := dialog.answer(t)
			if code := <-exit; code != 0 {
				t.Fatalf("exit %d; stderr %q", code, stderr.String())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("the dialog got %+v, want %+v", got, tt.want)
			}
			out := stdout.String()
			if !strings.HasPrefix(out, "demoperson: watching\n") || !strings.Contains(out, "answered the dialog") {
				t.Fatalf("stdout %q", out)
			}
		})
	}
}

// TestAControlTheDialogLacks: asked to click a line the dialog does not
// show, the person fails rather than clicking somewhere else.
func TestAControlTheDialogLacks(t *testing.T) {
	dialog := showDialog(t, 2*time.Second)
	exit, _, stderr := runPerson("-click", "clipboard_read,allow", "-timeout", "15s")
	if code := <-exit; code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "no control clipboard_read") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if got := dialog.answer(t); got.Allowed {
		t.Fatalf("the dialog was allowed: %+v", got)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		display  string
		wantExit int
		wantErr  string
	}{
		{"no dialog comes", []string{"-timeout", "300ms"}, "", 1, "no consent dialog"},
		{"a display that is not there", nil, ":4242", 1, "cannot open display"},
		{"bad arguments", []string{"-timeout", "-1s"}, "", 2, "must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			display := desk.Display
			if tt.display != "" {
				display = tt.display
			}
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, display, &stdout, &stderr); code != tt.wantExit {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.wantExit, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantErr) {
				t.Fatalf("stderr %q lacks %q", stderr.String(), tt.wantErr)
			}
		})
	}
}
