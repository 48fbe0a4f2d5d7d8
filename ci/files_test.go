package ci

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// unitKeys parses a systemd unit into "Section.Key" → values.
func unitKeys(text string) map[string][]string {
	keys := map[string][]string{}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
		default:
			k, v, _ := strings.Cut(line, "=")
			keys[section+"."+strings.TrimSpace(k)] = append(keys[section+"."+strings.TrimSpace(k)], strings.TrimSpace(v))
		}
	}
	return keys
}

// TestUserUnit checks the daemon's systemd user unit says what the
// package promises: run the installed binary's daemon, restart it when it
// fails, start with the graphical session (which provides DISPLAY).
func TestUserUnit(t *testing.T) {
	keys := unitKeys(readRepoFile(t, "packaging/nish-driver.service"))
	tests := []struct{ key, want string }{
		{"Service.ExecStart", "/usr/bin/nish-driver daemon"},
		{"Service.Restart", "on-failure"},
		{"Service.Type", "simple"},
		{"Unit.PartOf", "graphical-session.target"},
		{"Unit.After", "graphical-session.target"},
		{"Install.WantedBy", "graphical-session.target"},
		{"Unit.Documentation", "man:nish-driver(1)"},
	}
	for _, tt := range tests {
		if got := keys[tt.key]; len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s = %q, want exactly %q", tt.key, got, tt.want)
		}
	}
	if len(keys["Unit.Description"]) != 1 {
		t.Errorf("the unit needs one Description")
	}
}

// placeholder is a value ci/deb-build.sh puts into packaging/control.in.
var placeholder = regexp.MustCompile(`@[A-Z_]+@`)

// TestControlTemplate checks the control template has the fields dpkg and
// lintian require, and that ci/deb-build.sh fills every placeholder in it.
func TestControlTemplate(t *testing.T) {
	control := readRepoFile(t, "packaging/control.in")
	build := readRepoFile(t, "ci/deb-build.sh")
	fields := map[string]string{}
	for _, line := range strings.Split(control, "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Errorf("not a field: %q", line)
			continue
		}
		fields[k] = strings.TrimSpace(v)
	}
	for _, want := range []string{"Package", "Version", "Architecture", "Maintainer", "Installed-Size", "Depends", "Section", "Priority", "Description"} {
		if fields[want] == "" {
			t.Errorf("control.in lacks %s", want)
		}
	}
	if fields["Package"] != "nish-driver" {
		t.Errorf("Package = %q", fields["Package"])
	}
	if fields["Depends"] != "@DEPENDS@" {
		t.Errorf("Depends must be what dpkg-shlibdeps computes, got %q", fields["Depends"])
	}
	found := placeholder.FindAllString(control, -1)
	if len(found) == 0 {
		t.Fatal("no placeholders found: the test reads the wrong file")
	}
	for _, p := range found {
		if !strings.Contains(build, `s|`+p+`|`) {
			t.Errorf("ci/deb-build.sh does not fill %s", p)
		}
	}
	if syn := fields["Description"]; len(syn) > 80 || strings.HasSuffix(syn, ".") {
		t.Errorf("the description's synopsis must be under 80 characters without a full stop: %q", syn)
	}
}

// TestScriptsParse runs bash's syntax check on every packaging and CI
// script, so a typo fails here rather than half-way through a build.
func TestScriptsParse(t *testing.T) {
	scripts := []string{".ci/run", "ci/install-deps.sh", "ci/deb-build.sh", "ci/deb-version.sh", "ci/deb-install-test.sh"}
	for _, s := range scripts {
		t.Run(s, func(t *testing.T) {
			out, err := exec.Command("bash", "-n", testkit.RepoPath(t, s)).CombinedOutput()
			if err != nil {
				t.Errorf("bash -n %s: %v\n%s", s, err, out)
			}
		})
	}
}

// TestInstallDepsHasPackagingTools: the packaging steps of make test need
// these Debian packages, and install-deps is what puts them on a clean
// machine.
func TestInstallDepsHasPackagingTools(t *testing.T) {
	deps := debianPackages(t)
	for _, want := range []string{"dpkg-dev", "lintian", "man-db", "systemd"} {
		if !slices.Contains(deps, want) {
			t.Errorf("ci/install-deps.sh does not install %s", want)
		}
	}
}

// debianPackages is ci/install-deps.sh's DEBIAN_PACKAGES list.
func debianPackages(t *testing.T) []string {
	t.Helper()
	text := readRepoFile(t, "ci/install-deps.sh")
	start := strings.Index(text, "DEBIAN_PACKAGES=(")
	if start < 0 {
		t.Fatal("ci/install-deps.sh has no DEBIAN_PACKAGES list")
	}
	body := text[start+len("DEBIAN_PACKAGES=("):]
	body = body[:strings.Index(body, "\n)")]
	var pkgs []string
	for _, line := range strings.Split(body, "\n") {
		line, _, _ = strings.Cut(line, "#")
		pkgs = append(pkgs, strings.Fields(line)...)
	}
	return pkgs
}

// TestLicense checks that the project's license is in the repository and
// that the package's copyright file names it for nish-driver's own code,
// with no placeholder left.
func TestLicense(t *testing.T) {
	license := readRepoFile(t, "LICENSE")
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS"} {
		if !strings.Contains(string(license), want) {
			t.Fatalf("LICENSE is not the whole Apache License 2.0 (no %q)", want)
		}
	}
	head := readRepoFile(t, "packaging/copyright.head")
	own := strings.SplitN(string(head), "\n\n", 3)
	if len(own) < 2 || !strings.Contains(own[1], "Files: *") || !strings.Contains(own[1], "\nLicense: Apache-2.0\n") {
		t.Fatalf("the copyright file's first paragraph does not license nish-driver's code as Apache-2.0:\n%s", head)
	}
	if strings.Contains(strings.ToLower(string(head)), "no-license") || strings.Contains(strings.ToLower(string(head)), "not published") {
		t.Fatal("the copyright file still holds the placeholder")
	}
}
