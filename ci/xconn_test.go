package ci

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// internal/xconn owns what Xlib keeps once per process: XInitThreads, the
// error and I/O error handlers, the guarded open and the per-connection
// exit handler. Two rules keep it the one owner:
//   - it sits below both packages that open X connections, native/xlib
//     (shipped) and internal/xtest (tests only), so it imports no package of
//     the module: not the engine (as no native layer does), not native, and
//     no test package (the binary links it);
//   - no C or Go file outside it calls the Xlib functions it owns, so no
//     package opens an unguarded connection or installs a handler that would
//     displace the process's.

// xconnDir is internal/xconn, relative to the module.
const xconnDir = "internal/xconn"

// moduleImport says why internal/xconn may not import path, or "" when it
// may.
func moduleImport(path string) string {
	if path == modulePath+"/"+xconnDir {
		return ""
	}
	if path == modulePath || strings.HasPrefix(path, modulePath+"/") {
		return "a package of the module, which internal/xconn sits below"
	}
	return ""
}

// xconnDepViolations checks internal/xconn's dependency closure.
func xconnDepViolations(pkgs []listedPackage) []string {
	return closureViolations(pkgs, moduleImport, "is in "+xconnDir+"'s dependencies")
}

// xlibOwned matches a call of a function internal/xconn owns: in C (and
// its headers) by name, in Go through cgo.
var xlibOwned = map[string]*regexp.Regexp{
	".c":  regexp.MustCompile(`\b(XOpenDisplay|XInitThreads|XSetErrorHandler|XSetIOErrorHandler|XSetIOErrorExitHandler)\s*\(`),
	".h":  regexp.MustCompile(`\b(XOpenDisplay|XInitThreads|XSetErrorHandler|XSetIOErrorHandler|XSetIOErrorExitHandler)\s*\(`),
	".go": regexp.MustCompile(`\bC\.(XOpenDisplay|XInitThreads|XSetErrorHandler|XSetIOErrorHandler|XSetIOErrorExitHandler)\b`),
}

// ownedCalls reports each file (path → text) that calls what
// internal/xconn owns.
func ownedCalls(files map[string]string) []string {
	var out []string
	for path, src := range files {
		re := xlibOwned[filepath.Ext(path)]
		if re == nil {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			out = append(out, path+" calls "+m[1]+" (internal/xconn owns it)")
		}
	}
	return out
}

func TestXconnCheckersCatchWhatItOwns(t *testing.T) {
	runDepCases(t, []depCase{
		{"itself and the standard library", "", []listedPackage{
			{ImportPath: modulePath + "/internal/xconn"},
			{ImportPath: "unsafe", Standard: true},
		}, 0},
		{"the engine", "", []listedPackage{{ImportPath: modulePath + "/engine"}}, 1},
		{"a native layer", "", []listedPackage{{ImportPath: modulePath + "/native/xlib"}}, 1},
		{"a test package", "", []listedPackage{{ImportPath: modulePath + "/internal/testkit"}}, 1},
		{"a name that only starts like the module", "", []listedPackage{{ImportPath: modulePath + "ish/x"}}, 0},
	}, func(tc depCase) []string { return xconnDepViolations(tc.pkgs) })
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int
	}{
		{"Xlib calls it does not own", map[string]string{"a.c": "XSync(dpy, False);\nXCloseDisplay(dpy);\n"}, 0},
		{"an open in C", map[string]string{"a.c": "Display *d = XOpenDisplay (name);\n"}, 1},
		{"handlers in a header", map[string]string{"a.h": "static inline void f(void) { XInitThreads(); XSetErrorHandler(h); }\n"}, 2},
		{"an exit handler through cgo", map[string]string{"a.go": "C.XSetIOErrorExitHandler(dpy, nil, nil)\n"}, 1},
		{"a name in prose", map[string]string{"a.go": "// inside XOpenDisplay, the default handler\n", "b.c": "// XOpenDisplay has no handler yet\n"}, 0},
		{"a file of another kind", map[string]string{"a.md": "XOpenDisplay(name)\n"}, 0},
	} {
		t.Run("calls/"+tc.name, func(t *testing.T) {
			if got := ownedCalls(tc.files); len(got) != tc.want {
				t.Errorf("got %d violations %q, want %d", len(got), got, tc.want)
			}
		})
	}
}

// TestXconnImportsNoModulePackage lists internal/xconn's dependency closure
// with the go tool and checks it, and the import lines of all its files.
func TestXconnImportsNoModulePackage(t *testing.T) {
	root := testkit.RepoDir(t)
	for _, v := range xconnDepViolations(listPackageDeps(t, root, xconnDir)) {
		t.Error(v)
	}
	files := goSources(t, filepath.Join(root, filepath.FromSlash(xconnDir)), true)
	for _, v := range importViolations(files, xconnDir+"/", moduleImport) {
		t.Error(v)
	}
}

// TestOnlyXconnOpensDisplaysAndSetsHandlers reads every C, header and Go
// file of the repository outside internal/xconn (and this file).
func TestOnlyXconnOpensDisplaysAndSetsHandlers(t *testing.T) {
	root := testkit.RepoDir(t)
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == xconnDir || (path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata")) {
				return filepath.SkipDir
			}
			return nil
		}
		if xlibOwned[filepath.Ext(path)] == nil || rel == "ci/xconn_test.go" { // its cases name them
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[rel] = string(src)
		return nil
	})
	if err != nil {
		t.Fatalf("walking the repository: %v", err)
	}
	if files["native/xlib/nx_event.c"] == "" || files["internal/xtest/xt_event.c"] == "" {
		t.Fatal("the walk missed the X packages' C files")
	}
	for _, v := range ownedCalls(files) {
		t.Error(v)
	}
}
