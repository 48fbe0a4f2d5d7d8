package audit

import (
	"os"
	"path/filepath"
)

// DefaultPath is where the driver keeps its audit log:
// $XDG_STATE_HOME/nish-driver/audit.jsonl, or
// ~/.local/state/nish-driver/audit.jsonl when XDG_STATE_HOME is unset or
// not absolute (the XDG base directory rules ignore relative paths). It is
// "" when neither is known, and Open("") fails.
func DefaultPath() string {
	if dir := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "nish-driver", "audit.jsonl")
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "state", "nish-driver", "audit.jsonl")
}
