package ci

import (
	"os"
	"path/filepath"
	"testing"
)

// repoRoot is the repository's top directory, seen from this package.
const repoRoot = ".."

// readRepoFile reads a file by its path from the repository's top.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
