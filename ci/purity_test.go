package ci

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The engine is the contract's rules in pure Go: it must build and be tested
// on any OS without a C compiler, a display or the MCP SDK. These tests keep
// it that way by failing when any package under engine/ imports, directly or
// through its dependencies, the native backend, the go-sdk, or cgo. Only the
// production code counts: _test.go files are not checked.

const modulePath = "github.com/nish-driver/nish-driver"

// forbiddenImport says why an import path may not reach the engine, or ""
// when it may.
func forbiddenImport(path string) string {
	switch {
	case path == "C":
		return "cgo"
	case path == modulePath+"/native" || strings.HasPrefix(path, modulePath+"/native/"):
		return "the native backend"
	case path == "github.com/modelcontextprotocol/go-sdk" || strings.HasPrefix(path, "github.com/modelcontextprotocol/go-sdk/"):
		return "the MCP go-sdk"
	}
	return ""
}

// listedPackage is the part of `go list -json` output the checks read.
type listedPackage struct {
	ImportPath string
	Standard   bool
	CgoFiles   []string
	Imports    []string
}

// depViolations checks the dependency closure of the engine packages: no
// forbidden package anywhere in it, and no non-standard package built with
// cgo (the standard library's optional cgo, as in net, is the toolchain's
// business, not an engine import).
func depViolations(pkgs []listedPackage) []string {
	var out []string
	for _, p := range pkgs {
		if why := forbiddenImport(p.ImportPath); why != "" {
			out = append(out, p.ImportPath+" ("+why+") is in the engine's dependencies")
		}
		if p.Standard {
			continue
		}
		if len(p.CgoFiles) > 0 {
			out = append(out, p.ImportPath+" uses cgo ("+strings.Join(p.CgoFiles, ", ")+")")
		}
		for _, imp := range p.Imports {
			if why := forbiddenImport(imp); why != "" {
				out = append(out, p.ImportPath+" imports "+imp+" ("+why+")")
			}
		}
	}
	return out
}

// sourceViolations checks the import lines of Go sources, whatever their
// build constraints say (a file behind a build tag still counts).
func sourceViolations(files map[string]string) []string {
	return importViolations(files, "", forbiddenImport)
}

// importViolations parses each file's import lines and reports the imports
// forbidden says why not to, each as prefix+name.
func importViolations(files map[string]string, prefix string, forbidden func(path string) string) []string {
	var out []string
	fset := token.NewFileSet()
	for name, src := range files {
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			out = append(out, name+": cannot parse imports: "+err.Error())
			continue
		}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue
			}
			if why := forbidden(path); why != "" {
				out = append(out, prefix+name+" imports "+path+" ("+why+")")
			}
		}
	}
	return out
}

func TestPurityCheckersCatchForbiddenImports(t *testing.T) {
	runDepCases(t, []depCase{
		{"pure engine", "", []listedPackage{
			{ImportPath: modulePath + "/engine", Imports: []string{"context", modulePath + "/engine/audit"}},
			{ImportPath: "net", Standard: true, CgoFiles: []string{"cgo_unix.go"}},
		}, 0},
		{"imports native", "", []listedPackage{
			{ImportPath: modulePath + "/engine", Imports: []string{modulePath + "/native/xlib"}},
			{ImportPath: modulePath + "/native/xlib", CgoFiles: []string{"display.go"}},
		}, 3},
		{"imports the go-sdk", "", []listedPackage{
			{ImportPath: modulePath + "/engine/doctor", Imports: []string{"github.com/modelcontextprotocol/go-sdk/mcp"}},
		}, 1},
		{"uses cgo", "", []listedPackage{
			{ImportPath: modulePath + "/engine/mock", CgoFiles: []string{"x.go"}},
		}, 1},
		{"reaches native through another package", "", []listedPackage{
			{ImportPath: modulePath + "/engine", Imports: []string{modulePath + "/schema"}},
			{ImportPath: modulePath + "/schema", Imports: []string{modulePath + "/native"}},
			{ImportPath: modulePath + "/native"},
		}, 2},
		{"a name that only starts like native", "", []listedPackage{
			{ImportPath: modulePath + "/engine", Imports: []string{modulePath + "/nativeish"}},
		}, 0},
	}, func(tc depCase) []string { return depViolations(tc.pkgs) })
	runSourceCases(t, []sourceCase{
		{"plain imports", "package engine\nimport (\n\t\"context\"\n\t\"github.com/nish-driver/nish-driver/engine/audit\"\n)\n", 0},
		{"cgo", "package engine\n// #include <stdlib.h>\nimport \"C\"\n", 1},
		{"native behind a build tag", "//go:build ignore\n\npackage engine\nimport _ \"github.com/nish-driver/nish-driver/native/atspi\"\n", 1},
		{"go-sdk renamed", "package engine\nimport sdk \"github.com/modelcontextprotocol/go-sdk/mcp\"\nvar _ = sdk.NewServer\n", 1},
	}, func(src string) []string { return sourceViolations(map[string]string{"x.go": src}) })
}

// TestEngineImportsNoNativeSDKOrCgo lists the engine packages' dependency
// closure with the go tool (cgo on, so cgo files are listed as such) and
// checks it.
func TestEngineImportsNoNativeSDKOrCgo(t *testing.T) {
	root := testkit.RepoDir(t)
	pkgs := listDeps(t, root, "./engine/...")
	engines := 0
	for _, p := range pkgs {
		if p.ImportPath == modulePath+"/engine" || strings.HasPrefix(p.ImportPath, modulePath+"/engine/") {
			engines++
		}
	}
	if engines == 0 {
		t.Fatalf("go list found no engine packages under %s", root)
	}
	for _, v := range depViolations(pkgs) {
		t.Error(v)
	}
}

// TestEngineSourcesImportNoNativeSDKOrCgo reads every non-test Go file under
// engine/, including files other platforms or build tags would select.
func TestEngineSourcesImportNoNativeSDKOrCgo(t *testing.T) {
	files := goSources(t, filepath.Join(testkit.RepoDir(t), "engine"), false)
	for _, v := range sourceViolations(files) {
		t.Error(v)
	}
}

// listDeps lists the dependency closure of packages with the go tool (cgo
// on, so cgo files are listed as such).
func listDeps(t *testing.T, root string, patterns ...string) []listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to list imports: %v", err)
	}
	args := append([]string{"list", "-e", "-deps", "-json=ImportPath,Standard,CgoFiles,Imports"}, patterns...)
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list failed: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// listPackageDeps lists the dependency closure of one package of the module
// (rel, module-relative) and fails the test when the go tool did not list
// the package itself.
func listPackageDeps(t *testing.T, root, rel string) []listedPackage {
	t.Helper()
	pkgs := listDeps(t, root, "./"+rel)
	for _, p := range pkgs {
		if p.ImportPath == modulePath+"/"+rel {
			return pkgs
		}
	}
	t.Fatalf("go list did not list %s", rel)
	return nil
}

// closureViolations reports each package of a dependency closure that
// forbidden says why not to have, as "path (why) where".
func closureViolations(pkgs []listedPackage, forbidden func(path string) string, where string) []string {
	var out []string
	for _, p := range pkgs {
		if why := forbidden(p.ImportPath); why != "" {
			out = append(out, p.ImportPath+" ("+why+") "+where)
		}
	}
	return out
}

// goSources reads the Go files under dir (test files too when tests is
// set), whatever their build constraints, keyed by their path under dir.
func goSources(t *testing.T, dir string, tests bool) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || (!tests && strings.HasSuffix(path, "_test.go")) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(src)
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", dir, err)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files found under %s", dir)
	}
	return files
}

// depCase is one self-test of a dependency checker: the packages it is
// given (and the layer they are checked as, where the checker has layers)
// and how many violations it must report.
type depCase struct {
	name  string
	layer string
	pkgs  []listedPackage
	want  int
}

// sourceCase is one self-test of a source checker: one file's text and how
// many violations it must report.
type sourceCase struct {
	name string
	src  string
	want int
}

// runDepCases runs the self-tests of a dependency checker.
func runDepCases(t *testing.T, cases []depCase, check func(depCase) []string) {
	t.Helper()
	for _, tc := range cases {
		t.Run("deps/"+tc.name, func(t *testing.T) {
			if got := check(tc); len(got) != tc.want {
				t.Errorf("got %d violations %q, want %d", len(got), got, tc.want)
			}
		})
	}
}

// runSourceCases runs the self-tests of a source checker.
func runSourceCases(t *testing.T, cases []sourceCase, check func(src string) []string) {
	t.Helper()
	for _, tc := range cases {
		t.Run("source/"+tc.name, func(t *testing.T) {
			if got := check(tc.src); len(got) != tc.want {
				t.Errorf("got %d violations %q, want %d", len(got), got, tc.want)
			}
		})
	}
}
