package daemon

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile opens (creating 0600) and locks path without waiting. The lock
// is an flock on the open file, so it ends with the process however the
// process ends, and a crashed daemon never leaves it held. The file stays
// on disk: removing a lock file races with a daemon that has just opened it.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: another daemon holds %s", ErrAlreadyRunning, path)
		}
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	return f, nil
}

// unlockFile releases the lock (closing the file does).
func unlockFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}
