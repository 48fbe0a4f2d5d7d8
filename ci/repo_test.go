package ci

import (
	"os"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// readRepoFile reads a file by its path from the repository's top.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(testkit.RepoPath(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
