//go:build !linux

package daemon

import (
	"errors"
	"os"
)

// lockFile: the daemon socket is Linux-only (flock and SO_PEERCRED).
func lockFile(path string) (*os.File, error) {
	return nil, errors.New("the daemon socket is available on Linux only")
}

func unlockFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}
