package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// recorderScript is a stand-in app: it writes its arguments, a "---" line
// and its environment to <its own path>.out (renamed into place once
// complete), then waits to be stopped with the sandbox.
const recorderScript = `#!/bin/sh
{ for a in "$@"; do printf '%s\n' "$a"; done; echo ---; env; } > "$0.tmp" && mv "$0.tmp" "$0.out"
exec sleep 600
`

// TestSandboxStartsAppsWithAccessibilityOn runs `nish-driver sandbox` with
// two stand-in apps, one named like an Electron app and one not, and checks
// the command line and environment each was started with.
func TestSandboxStartsAppsWithAccessibilityOn(t *testing.T) {
	dir := t.TempDir()
	apps := []struct {
		program  string
		args     string
		wantArgs []string
	}{
		{"electron", "app.js --flag", []string{"--force-renderer-accessibility", "app.js", "--flag"}},
		{"notes-app", "notes.txt", []string{"notes.txt"}},
	}
	var lines []string
	for _, a := range apps {
		path := filepath.Join(dir, a.program)
		if err := os.WriteFile(path, []byte(recorderScript), 0o755); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, path+" "+a.args)
	}
	// The stand-ins never join the accessibility bus: wait for them briefly.
	sb := startSandboxWith(t, []string{"--wait=1s"}, lines...)
	for _, a := range apps {
		t.Run(a.program, func(t *testing.T) {
			args, env := readRecord(t, filepath.Join(dir, a.program+".out"))
			if !slices.Equal(args, a.wantArgs) {
				t.Errorf("started with arguments %q, want %q", args, a.wantArgs)
			}
			for k, want := range map[string]string{
				"ACCESSIBILITY_ENABLED":            "1",
				"GNOME_ACCESSIBILITY":              "1",
				"QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
				"SAL_ACCESSIBILITY_ENABLED":        "1",
				"DISPLAY":                          sb.display,
			} {
				if env[k] != want {
					t.Errorf("%s=%q in the app's environment, want %q", k, env[k], want)
				}
			}
			if v, ok := env["NO_AT_BRIDGE"]; ok {
				t.Errorf("NO_AT_BRIDGE=%q reached the app; it must be unset", v)
			}
		})
	}
	if err := sb.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if exit := sb.wait(t); exit != 0 {
		t.Fatalf("exit %d; stderr:\n%s", exit, sb.stderr.String())
	}
}

// readRecord waits for a stand-in app's record and returns its arguments
// and environment.
func readRecord(t *testing.T, path string) ([]string, map[string]string) {
	t.Helper()
	b := testkit.Await(t, 30*time.Second, "the app's record of how it was started", func() ([]byte, error) { return os.ReadFile(path) })
	before, after, ok := strings.Cut(string(b), "---\n")
	if !ok {
		t.Fatalf("malformed record:\n%s", b)
	}
	args := strings.Split(strings.TrimSuffix(before, "\n"), "\n")
	if before == "" {
		args = nil
	}
	env := map[string]string{}
	for _, line := range strings.Split(after, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	return args, env
}
