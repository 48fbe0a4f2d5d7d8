package sandbox

import (
	"slices"
	"strings"
	"testing"
)

func TestAccessibleArgsAddsTheRendererSwitchToChromiumFamilyPrograms(t *testing.T) {
	const force = "--force-renderer-accessibility"
	cases := []struct {
		name string
		argv []string
		want []string
	}{
		{"chromium with a URL", []string{"chromium", "https://example.org"},
			[]string{"chromium", force, "https://example.org"}},
		{"a path to chrome, before a --", []string{"/opt/google/chrome/chrome", "--", "file.html"},
			[]string{"/opt/google/chrome/chrome", force, "--", "file.html"}},
		{"an Electron app", []string{"code", "--new-window", "/tmp/project"},
			[]string{"code", force, "--new-window", "/tmp/project"}},
		{"electron with a version suffix", []string{"/usr/bin/electron25", "app.js"},
			[]string{"/usr/bin/electron25", force, "app.js"}},
		{"no arguments", []string{"slack"}, []string{"slack", force}},
		{"the switch already there", []string{"chromium", "--incognito", force},
			[]string{"chromium", "--incognito", force}},
		{"the switch with a value", []string{"chromium", force + "=basic"},
			[]string{"chromium", force + "=basic"}},
		{"a GTK app", []string{"mousepad", "notes.txt"}, []string{"mousepad", "notes.txt"}},
		{"Firefox", []string{"firefox-esr", "about:blank"}, []string{"firefox-esr", "about:blank"}},
		{"a name that only contains chrome", []string{"chromedriver"}, []string{"chromedriver"}},
		{"empty", []string{}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(c.argv)
			got := AccessibleArgs(c.argv)
			if !slices.Equal(got, c.want) {
				t.Errorf("AccessibleArgs(%q) = %q, want %q", c.argv, got, c.want)
			}
			if !slices.Equal(c.argv, before) {
				t.Errorf("AccessibleArgs changed its argument to %q", c.argv)
			}
		})
	}
}

// TestAppCommandTurnsAccessibilityOn checks the command line and the
// environment an app gets on the desktop, with the caller's environment
// holding what would turn accessibility off or point elsewhere.
func TestAppCommandTurnsAccessibilityOn(t *testing.T) {
	t.Setenv("NO_AT_BRIDGE", "1")
	t.Setenv("GTK_A11Y", "none")
	t.Setenv("GNOME_ACCESSIBILITY", "0")
	t.Setenv("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "0")
	t.Setenv("AT_SPI_BUS_ADDRESS", "unix:path=/elsewhere")
	d := unstartedDesktop(t)
	cases := []struct {
		name     string
		argv     []string
		wantArgs []string
	}{
		{"a Chromium-family program", []string{"chromium", "page.html"},
			[]string{"chromium", "--force-renderer-accessibility", "page.html"}},
		{"any other program", []string{"gedit", "notes.txt"}, []string{"gedit", "notes.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := d.AppCommand(c.argv)
			if !slices.Equal(cmd.Args, c.wantArgs) {
				t.Errorf("args %q, want %q", cmd.Args, c.wantArgs)
			}
			env := map[string][]string{}
			for _, kv := range cmd.Env {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = append(env[k], v)
			}
			for k, want := range map[string]string{
				"ACCESSIBILITY_ENABLED":            "1",
				"GNOME_ACCESSIBILITY":              "1",
				"QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
				"SAL_ACCESSIBILITY_ENABLED":        "1",
			} {
				if !slices.Equal(env[k], []string{want}) {
					t.Errorf("%s is %q, want exactly %q", k, env[k], want)
				}
			}
			for _, k := range []string{"NO_AT_BRIDGE", "GTK_A11Y", "AT_SPI_BUS_ADDRESS"} {
				if vs, ok := env[k]; ok {
					t.Errorf("%s is set (%q); it must be unset", k, vs)
				}
			}
		})
	}
}
