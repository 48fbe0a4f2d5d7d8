package ci

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Two more layer rules, by their sources' import lines (tests and
// build-tagged files too, as for the native layers):
//   - cmd is wiring only (docs/architecture.md): it reaches the desktop
//     through package native, never through the layers below it, whose
//     errors and types native alone turns into the engine's;
//   - the doctor only formats the values it is given: what the desktop is
//     like is learned by the backend (native/facts.go for a desktop the
//     live backend cannot reach), so no file of engine/doctor but its tests
//     reaches the network, the environment or other programs.

// belowNative says why cmd may not import path, or "" when it may.
func belowNative(path string) string {
	if strings.HasPrefix(path, modulePath+"/native/") {
		return "a layer below native"
	}
	return ""
}

// probing says why the doctor may not import path, or "" when it may.
func probing(path string) string {
	for _, p := range []string{"net", "os", "syscall"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return "it would probe, not format"
		}
	}
	return ""
}

func TestWiringCheckersCatchForbiddenImports(t *testing.T) {
	runSourceCases(t, []sourceCase{
		{"cmd: native itself", "package main\nimport \"github.com/nish-driver/nish-driver/native\"\n", 0},
		{"cmd: xlib", "package main\nimport \"github.com/nish-driver/nish-driver/native/xlib\"\n", 1},
		{"cmd: atspi behind a build tag", "//go:build !cgo\n\npackage main\nimport a \"github.com/nish-driver/nish-driver/native/atspi\"\n", 1},
		{"cmd: a name that only starts like native", "package main\nimport \"github.com/nish-driver/nish-driver/nativeish\"\n", 0},
	}, func(src string) []string { return importViolations(map[string]string{"x.go": src}, "", belowNative) })
	runSourceCases(t, []sourceCase{
		{"doctor: formatting", "package doctor\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n", 0},
		{"doctor: the network", "package doctor\nimport \"net\"\n", 1},
		{"doctor: the environment and programs", "package doctor\nimport (\n\t\"os\"\n\t\"os/exec\"\n)\n", 2},
		{"doctor: syscall renamed", "package doctor\nimport s \"syscall\"\n", 1},
		{"doctor: a name that only starts like net", "package doctor\nimport \"network/ish\"\n", 0},
	}, func(src string) []string { return importViolations(map[string]string{"x.go": src}, "", probing) })
}

func TestCmdReachesTheDesktopOnlyThroughNative(t *testing.T) {
	files := goSources(t, filepath.Join(testkit.RepoDir(t), "cmd", "nish-driver"), true)
	for _, v := range importViolations(files, "cmd/nish-driver/", belowNative) {
		t.Error(v)
	}
}

func TestTheDoctorOnlyFormats(t *testing.T) {
	files := goSources(t, filepath.Join(testkit.RepoDir(t), "engine", "doctor"), false)
	for _, v := range importViolations(files, "engine/doctor/", probing) {
		t.Error(v)
	}
}
