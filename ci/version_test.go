package ci

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestDebVersion checks how ci/deb-version.sh turns `git describe` into a
// Debian version, and that the results sort the way releases do.
func TestDebVersion(t *testing.T) {
	tests := []struct {
		describe, count, want string
		wantErr               bool
	}{
		{"v1.2.0", "57", "1.2.0-1", false},
		{"v1.2.0-rc1", "57", "1.2.0~rc1-1", false},
		{"v1.2.0-4-gabc1234", "57", "1.2.0+git4.abc1234-1", false},
		{"v1.2.0-4-gabc1234-dirty", "57", "1.2.0+git4.abc1234.dirty-1", false},
		{"v1.2.0-dirty", "57", "1.2.0+dirty-1", false},
		{"1.2.0", "57", "1.2.0-1", false},
		{"abc1234", "57", "0~git57.abc1234-1", false},
		{"abc1234-dirty", "57", "0~git57.abc1234+dirty-1", false},
		{"abc1234", "many", "", true},
		{"release-one", "57", "", true},
		{"v1.2_0", "57", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.describe, func(t *testing.T) {
			got, err := debVersion(t, tt.describe, tt.count)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v (output %q)", err, tt.wantErr, got)
			}
			if !tt.wantErr && got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDebVersionOrder: dpkg must see each build as newer than the one
// before it: a release candidate, the release, commits after it, the next.
func TestDebVersionOrder(t *testing.T) {
	describes := [][2]string{
		{"abc1234", "10"}, {"abc1235", "11"}, {"v1.0.0-rc1", "12"}, {"v1.0.0", "13"},
		{"v1.0.0-1-gabc1236", "14"}, {"v1.0.0-2-gabc1237", "15"}, {"v1.1.0", "16"},
	}
	var versions []string
	for _, d := range describes {
		v, err := debVersion(t, d[0], d[1])
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	for i := 1; i < len(versions); i++ {
		cmd := exec.Command("dpkg", "--compare-versions", versions[i-1], "lt", versions[i])
		if err := cmd.Run(); err != nil {
			t.Errorf("dpkg does not order %s before %s: %v", versions[i-1], versions[i], err)
		}
	}
}

func debVersion(t *testing.T, describe, count string) (string, error) {
	t.Helper()
	out, err := exec.Command(testkit.RepoPath(t, "ci/deb-version.sh"), describe, count).Output()
	return strings.TrimSpace(string(out)), err
}
