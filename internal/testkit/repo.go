package testkit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// modulePath is this module's path, as its go.mod declares it.
const modulePath = "github.com/nish-driver/nish-driver"

// FixtureDir holds, from the repository's top, the fixture programs and
// pages that tests of several packages and the benchmark start on the test
// desktop: synthetic.py (the synthetic GTK 3 window), buttons.py, walk.py
// (the pyatspi reference walk), web/form.html (the browsers' page) and the
// others beside them.
const FixtureDir = "native/atspi/testdata"

// RepoDir returns the repository's top directory: the nearest directory at
// or above the working directory whose go.mod declares this module. Each
// test runs in its own package's folder, at its own depth, so the tests
// find shared files (docs, the fixtures) from the top this way instead of
// each counting ../ from where it happens to be. The test fails when there
// is no such directory.
func RepoDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+modulePath+"\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod of module %s at or above the test's directory", modulePath)
		}
		dir = parent
	}
}

// RepoPath returns the absolute path of a file or folder given by its path
// from the repository's top ("docs/native.md"). The test fails when it does
// not exist.
func RepoPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(RepoDir(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the repository's %s: %v", rel, err)
	}
	return p
}

// Fixture returns the absolute path of a file of FixtureDir by its name
// there ("synthetic.py", "web/form.html").
func Fixture(t testing.TB, name string) string {
	t.Helper()
	return RepoPath(t, FixtureDir+"/"+name)
}
