package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// fixturePage is the browser fixture as a file:// URL. A missing page fails
// here, not as a browser that never shows it.
func fixturePage(t *testing.T) string {
	t.Helper()
	return "file://" + testkit.Fixture(t, "web/form.html")
}

// TestBrowsersExposeTheFixturePage starts each browser on the fixture page
// as BrowserCommand prepares it and checks what the driver's browser tests
// rely on: the browser registers on the AT-SPI bus under its name with the
// pid that was started, the page's content is in its tree (the top heading,
// and the button far below the fold), it is still running once read, and
// it exits by itself when asked to.
func TestBrowsersExposeTheFixturePage(t *testing.T) {
	ctx := context.Background()
	d := startDesk(t)
	page := fixturePage(t)
	wants := []struct {
		role uint32
		name string
	}{
		{RoleHeading, "Form Fixture"},
		{RolePushButton, "Far button"},
	}
	for _, kind := range []Browser{Chromium, Firefox} {
		t.Run(kind.String(), func(t *testing.T) {
			cmd, err := d.BrowserCommand(kind, page)
			if err != nil {
				t.Fatalf("%v (make test installs it): %v", kind, err)
			}
			out := startCapturing(t, d, cmd)
			defer func() {
				if t.Failed() {
					t.Logf("%v's output:\n%s", kind, out.String())
				}
			}()
			app, err := d.WaitForApp(ctx, kind.AppName(), 60*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if app.Pid != cmd.Process.Pid {
				t.Fatalf("%q registered with pid %d; the started browser is %d", app.Name, app.Pid, cmd.Process.Pid)
			}
			for _, w := range wants {
				if err := d.WaitForElement(ctx, app, w.role, w.name, 60*time.Second); err != nil {
					t.Fatal(err)
				}
			}
			// The search tells elements apart: a heading the page lacks
			// is not found in the same tree.
			if found, err := d.HasElement(ctx, app, RoleHeading, "No such heading"); err != nil || found {
				t.Fatalf("a heading the page does not have: found %v, error %v", found, err)
			}
			if !d.Running(cmd) {
				t.Fatalf("%v exited after its tree was read: %v", kind, cmd.ProcessState)
			}
			if _, err := d.Stop(cmd, 20*time.Second); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBrowserCommandPreparesAThrowawayProfile checks each browser's
// command without starting it: the accessibility switch, a new profile
// inside the desktop's private folder (so Close removes it) holding the
// preferences that keep first-run windows away, and the URL last.
func TestBrowserCommandPreparesAThrowawayProfile(t *testing.T) {
	d := unstartedDesktop(t)
	cases := []struct {
		kind      Browser
		wantArgs  []string
		wantEnv   string
		prefsFile string
		profileOf func(args []string) string
	}{
		{Chromium, []string{"--force-renderer-accessibility", "--no-first-run", "--window-size=1280,800"},
			"ACCESSIBILITY_ENABLED=1", "Default/Preferences",
			func(args []string) string {
				for _, a := range args {
					if p, ok := strings.CutPrefix(a, "--user-data-dir="); ok {
						return p
					}
				}
				return ""
			}},
		{Firefox, []string{"--no-remote", "--new-instance"},
			"GNOME_ACCESSIBILITY=1", "user.js",
			func(args []string) string {
				if i := slices.Index(args, "--profile"); i >= 0 && i+1 < len(args) {
					return args[i+1]
				}
				return ""
			}},
	}
	const url = "file:///tmp/page.html"
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			first, err := d.BrowserCommand(c.kind, url)
			if err != nil {
				t.Fatalf("%v (make test installs it): %v", c.kind, err)
			}
			second, err := d.BrowserCommand(c.kind, url)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range c.wantArgs {
				if !slices.Contains(first.Args, want) {
					t.Errorf("no %s in %q", want, first.Args)
				}
			}
			if last := first.Args[len(first.Args)-1]; last != url {
				t.Errorf("the last argument is %q, want the URL", last)
			}
			if !slices.Contains(first.Env, c.wantEnv) {
				t.Errorf("no %s in the environment", c.wantEnv)
			}
			profile := c.profileOf(first.Args)
			if !strings.HasPrefix(profile, d.Root+string(filepath.Separator)) {
				t.Fatalf("profile %q is not inside the desktop's folder %s", profile, d.Root)
			}
			if other := c.profileOf(second.Args); other == profile {
				t.Errorf("two commands share the profile %s", profile)
			}
			if _, err := os.Stat(filepath.Join(profile, c.prefsFile)); err != nil {
				t.Errorf("the profile has no %s: %v", c.prefsFile, err)
			}
		})
	}
}

func TestChromiumTurnsItsSandboxOffOnlyAsRoot(t *testing.T) {
	for _, root := range []bool{true, false} {
		args, err := chromiumArgs(t.TempDir(), root, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(args, "--no-sandbox"); got != root {
			t.Errorf("as root %v: --no-sandbox given %v", root, got)
		}
	}
}
