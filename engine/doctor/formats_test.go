package doctor

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The doctor only formats the values it is given: what the desktop is like
// is learned by the backend (native/facts.go for a desktop the live
// backend cannot reach). So no file of the package reaches the network,
// the process's environment or other programs, and the report stays a
// pure function of the registry, tested without a desktop.

// probingImports lists the imports of src that would let the doctor probe
// instead of format.
func probingImports(t *testing.T, name, src string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []string
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		for _, p := range []string{"net", "os", "syscall"} {
			if path == p || strings.HasPrefix(path, p+"/") {
				out = append(out, path)
			}
		}
	}
	return out
}

func TestProbingImportsAreCaught(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"package doctor\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n", 0},
		{"package doctor\nimport \"net\"\n", 1},
		{"package doctor\nimport (\n\t\"os\"\n\t\"os/exec\"\n)\n", 2},
		{"package doctor\nimport s \"syscall\"\n", 1},
		{"package doctor\nimport \"network/ish\"\n", 0},
	}
	for _, tt := range tests {
		if got := probingImports(t, "x.go", tt.src); len(got) != tt.want {
			t.Errorf("%q: caught %v, want %d", tt.src, got, tt.want)
		}
	}
}

func TestTheDoctorOnlyFormats(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no Go files here: %v", err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range probingImports(t, name, string(src)) {
			t.Errorf("%s imports %s: the doctor formats, the backend probes", name, path)
		}
	}
}
