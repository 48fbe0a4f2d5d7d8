package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the nish-driver built once for every test of this package.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nish-driver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "nish-driver")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building nish-driver:", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// desktopVars are the environment variables that say where a desktop is.
var desktopVars = []string{"DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_STATE_HOME"}

// noDesktopEnv is this process's environment without any desktop, with the
// audit log under a temporary state directory and a private cache, where a
// driver with no runtime folder keeps its stop socket (so a `stop` run by
// hand never reaches a test's drivers, nor a test's `stop` another's). The
// cache folder's path is short: a socket path has at most 107 bytes.
func noDesktopEnv(t *testing.T) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		keep := true
		for _, v := range desktopVars {
			if strings.HasPrefix(kv, v+"=") {
				keep = false
			}
		}
		if keep {
			env = append(env, kv)
		}
	}
	cache, err := os.MkdirTemp("", "nd-cache-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	return append(env, "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+cache)
}

// run runs the binary to completion.
func run(t *testing.T, env []string, args ...string) (stdout, stderr string, exit int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		exit = ee.ExitCode()
	default:
		t.Fatalf("running %v: %v", args, err)
	}
	return out.String(), errb.String(), exit
}
