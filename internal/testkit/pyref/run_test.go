package pyref

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// script writes a Python script into a folder of the test's and returns
// its path.
func script(t *testing.T, source string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.py")
	if err := os.WriteFile(p, []byte(source), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunReportsTheScriptsEnd(t *testing.T) {
	cases := []struct {
		name   string
		source string
		out    string // its standard output
		want   string // the error wanted, said
		err    func(error) bool
	}{
		{"its output, in the environment given", "import os, sys\nprint(os.environ['PYREF_PROBE'], sys.argv[1])\n",
			"probe arg\n", "none", func(err error) bool { return err == nil }},
		{"no window", "import sys\nprint('partial')\nsys.exit(2)\n",
			"partial\n", "ErrNoWindow", func(err error) bool { return errors.Is(err, ErrNoWindow) }},
		{"a failure says what it printed on stderr", "import sys\nprint('partial')\nprint('boom at the end', file=sys.stderr)\nsys.exit(1)\n",
			"partial\n", "one with the end of its stderr", func(err error) bool {
				return err != nil && !errors.Is(err, ErrNoWindow) && strings.Contains(err.Error(), "its stderr: boom at the end")
			}},
		{"a traceback", "raise RuntimeError('the bus is gone')\n",
			"", "one with the traceback's last line", func(err error) bool {
				return err != nil && strings.Contains(err.Error(), "RuntimeError: the bus is gone")
			}},
		{"a long stderr: its end", "import sys\nsys.stderr.write('x' * 5000 + ' the end')\nsys.exit(1)\n",
			"", "one with only the end of its stderr", func(err error) bool {
				return err != nil && strings.HasSuffix(err.Error(), "…"+strings.Repeat("x", stderrShown-8)+" the end")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Run(context.Background(), append(os.Environ(), "PYREF_PROBE=probe"), script(t, c.source), "arg")
			if string(out) != c.out || !c.err(err) {
				t.Fatalf("Run: %q, error %v; want %q, error %s", out, err, c.out, c.want)
			}
		})
	}
}

// TestRunKillsTheScriptsGroupOnItsBound ends the bound of a script that
// would sleep for ten minutes, after it started a child that would too:
// Run returns the context's error and neither process is left.
func TestRunKillsTheScriptsGroupOnItsBound(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	src := "import subprocess, sys, time\n" +
		"child = subprocess.Popen(['sleep', '600'])\n" +
		"open(sys.argv[1] + '.tmp', 'w').write(str(child.pid))\n" +
		"import os; os.rename(sys.argv[1] + '.tmp', sys.argv[1])\n" +
		"time.sleep(600)\n"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := Run(ctx, os.Environ(), script(t, src), pidFile)
		done <- result{out, err}
	}()
	child := testkit.Await(t, 30*time.Second, "the script's child's pid", func() (int, error) {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return 0, err
		}
		return strconv.Atoi(string(b))
	})
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) }) // should Run leave it
	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) {
			t.Fatalf("Run on an ended bound: %q, %v; want the context's error", r.out, r.err)
		}
	case <-time.After(60 * time.Second): // a hang guard: the kill is immediate
		t.Fatal("Run did not return when its bound ended")
	}
	testkit.Eventually(t, 30*time.Second, "the script's child is gone", func() bool {
		s := testkit.ProcState(child)
		return s == "" || s == "Z"
	})
}
