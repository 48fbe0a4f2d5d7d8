package ci

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// What ships is what runs: the binary links no package made for the tests
// (their helpers, the scripted person, the second X client that plays the
// rest of the desktop, the reference walk), no schema the binary does not
// serve and no schema validator. Its tools/list reads the input schemas
// alone (package schema/input); results are held to their schemas by the
// tests.

// testOnlyImport says why the binary may not link path, or "" when it may.
func testOnlyImport(path string) string {
	under := func(rel string) bool {
		return path == modulePath+"/"+rel || strings.HasPrefix(path, modulePath+"/"+rel+"/")
	}
	switch {
	case under("internal/testkit"), under("internal/person"), under("internal/hosttest"),
		under("internal/xtest"), under("internal/naivewalk"):
		return "a package for tests"
	case path == modulePath+"/schema":
		return "the schemas the binary does not serve, and their validator"
	case strings.HasPrefix(path, "github.com/xeipuuv/"):
		return "a JSON Schema validator"
	}
	return ""
}

// shipViolations checks the binary's dependency closure.
func shipViolations(pkgs []listedPackage) []string {
	return closureViolations(pkgs, testOnlyImport, "is linked into the binary")
}

func TestShipCheckerCatchesTestPackages(t *testing.T) {
	runDepCases(t, []depCase{
		{"the driver's own packages", "", []listedPackage{
			{ImportPath: modulePath + "/native/xlib"},
			{ImportPath: modulePath + "/schema/input"},
			{ImportPath: modulePath + "/internal/sandbox"},
			{ImportPath: "github.com/google/jsonschema-go/jsonschema"},
		}, 0},
		{"the tests' helpers", "", []listedPackage{{ImportPath: modulePath + "/internal/testkit/mcpkit"}}, 1},
		{"the second X client", "", []listedPackage{{ImportPath: modulePath + "/internal/xtest"}}, 1},
		{"the validator and its schemas", "", []listedPackage{
			{ImportPath: modulePath + "/schema"},
			{ImportPath: "github.com/xeipuuv/gojsonschema"},
		}, 2},
		{"a name that only starts like the tests' helpers", "", []listedPackage{{ImportPath: modulePath + "/internal/testkitten"}}, 0},
	}, func(tc depCase) []string { return shipViolations(tc.pkgs) })
}

// TestTheBinaryLinksNoTestCode lists the binary's dependency closure with
// the go tool (what `go version -m bin/nish-driver` shows of a build) and
// checks it.
func TestTheBinaryLinksNoTestCode(t *testing.T) {
	for _, v := range shipViolations(listPackageDeps(t, testkit.RepoDir(t), "cmd/nish-driver")) {
		t.Error(v)
	}
}
