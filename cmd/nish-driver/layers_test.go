package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cmd is wiring only (docs/architecture.md): it reaches the desktop
// through package native, never through the layers below it, whose errors
// and types native alone turns into the engine's. Every Go file here is
// read, tests and build-tagged files too.

// belowNative lists the imports of src that reach under package native.
func belowNative(t *testing.T, name, src string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []string
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if strings.HasPrefix(path, "github.com/nish-driver/nish-driver/native/") {
			out = append(out, path)
		}
	}
	return out
}

func TestImportsBelowNativeAreCaught(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"package main\nimport \"github.com/nish-driver/nish-driver/native\"\n", 0},
		{"package main\nimport \"github.com/nish-driver/nish-driver/native/xlib\"\n", 1},
		{"//go:build !cgo\n\npackage main\nimport a \"github.com/nish-driver/nish-driver/native/atspi\"\n", 1},
		{"package main\nimport \"github.com/nish-driver/nish-driver/nativeish\"\n", 0},
	}
	for _, tt := range tests {
		if got := belowNative(t, "x.go", tt.src); len(got) != tt.want {
			t.Errorf("%q: caught %v, want %d", tt.src, got, tt.want)
		}
	}
}

func TestCmdReachesTheDesktopOnlyThroughNative(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no Go files here: %v", err)
	}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range belowNative(t, name, string(src)) {
			t.Errorf("%s imports %s; cmd may import native, not the layers below it", name, path)
		}
	}
}
