package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// MaxSocketPath is the longest socket path the kernel accepts (sun_path is
// 108 bytes including the terminating NUL).
const MaxSocketPath = 107

// ErrAlreadyRunning says another daemon (or another program) answers on the
// socket, or holds its lock: this one must not start beside it.
var ErrAlreadyRunning = errors.New("already running")

// ErrUnsafePath says the socket's directory or path is not private to this
// user, so the daemon refuses to use it.
var ErrUnsafePath = errors.New("unsafe socket path")

// DefaultPath is where the daemon listens without --socket:
// $XDG_RUNTIME_DIR/nish-driver/sock, else <user cache dir>/nish-driver/run/sock.
// A relative XDG_RUNTIME_DIR is ignored, as the XDG spec asks.
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "nish-driver", "sock"), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no XDG_RUNTIME_DIR and no user cache directory: %w (pass --socket /abs/path/sock)", err)
	}
	return filepath.Join(cache, "nish-driver", "run", "sock"), nil
}

// Endpoint is the daemon's listening socket together with its lock. The
// lock (sock.lock, flock) is held for the daemon's whole life, not only
// around the check and the bind: a live daemon whose accept backlog is full
// refuses connections like a dead one, and the lock is what keeps a second
// daemon from taking that for a stale socket and removing it.
type Endpoint struct {
	Path string

	ln   *net.UnixListener
	lock *os.File
	dev  uint64
	ino  uint64

	closeOnce sync.Once
	closeErr  error
}

// Listen makes the socket at path, which must be absolute: the parent
// directory is created 0700 when missing and must then be a real directory
// (not a symlink) owned by this user with mode 0700. Under the lock, a path
// that accepts a connection, holds anything but a socket, or cannot be
// probed is left alone and Listen refuses; a socket that refuses
// connections, left by a daemon that died, is removed and replaced. The
// new socket has mode 0600.
func Listen(path string) (*Endpoint, error) {
	if err := checkSocketPath(path); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if err := EnsurePrivateDir(dir); err != nil {
		return nil, err
	}
	lock, err := lockFile(path + ".lock")
	if err != nil {
		return nil, err
	}
	ep, err := bindChecked(path)
	if err != nil {
		unlockFile(lock)
		return nil, err
	}
	ep.lock = lock
	return ep, nil
}

// checkSocketPath refuses paths the kernel or the rules cannot take.
func checkSocketPath(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%w: the socket path must be absolute", ErrUnsafePath)
	}
	if filepath.Clean(path) != path {
		return fmt.Errorf("%w: the socket path must be clean (no //, . or ..)", ErrUnsafePath)
	}
	if len(path) > MaxSocketPath {
		return fmt.Errorf("the socket path is %d bytes; Unix sockets allow at most %d", len(path), MaxSocketPath)
	}
	return nil
}

// EnsurePrivateDir creates dir (and missing parents) privately when it is
// missing, then checks it.
func EnsurePrivateDir(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("cannot create the socket directory: %w", err)
		}
		// MkdirAll's mode passes through the umask, which can only take
		// bits away; setting it again makes the directory exactly 0700.
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("cannot make the socket directory private: %w", err)
		}
	}
	return CheckPrivateDir(dir)
}

// CheckPrivateDir says whether dir may hold the daemon's socket: a real
// directory, not a symlink, owned by this process's effective user, mode
// exactly 0700. The client side checks the same before it connects, so a
// host never talks to a socket another user could have planted.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket directory: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is a symlink; the socket directory must be a real directory", ErrUnsafePath, dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrUnsafePath, dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%w: cannot read the owner of %s", ErrUnsafePath, dir)
	}
	if euid := os.Geteuid(); int(st.Uid) != euid {
		return fmt.Errorf("%w: %s belongs to uid %d, not to uid %d", ErrUnsafePath, dir, st.Uid, euid)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		return fmt.Errorf("%w: %s has mode %04o; it must be 0700 (chmod 700 %s)", ErrUnsafePath, dir, perm, dir)
	}
	return nil
}

// bindChecked applies the existing-path rules, then binds. The caller holds
// the lock.
func bindChecked(path string) (*Endpoint, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("cannot inspect %s: %w", path, err)
	case fi.Mode()&fs.ModeSocket == 0:
		return nil, fmt.Errorf("%w: %s exists and is not a socket; remove it or choose another --socket", ErrUnsafePath, path)
	default:
		if err := probeStale(path); err != nil {
			return nil, err
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("cannot remove the stale socket %s: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w", path, err)
	}
	// The endpoint removes the file itself, and only while it is still its own.
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		os.Remove(path)
		return nil, fmt.Errorf("cannot set the socket's mode: %w", err)
	}
	ep := &Endpoint{Path: path, ln: ln}
	if fi, err := os.Lstat(path); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			ep.dev, ep.ino = uint64(st.Dev), st.Ino
		}
	}
	return ep, nil
}

// probeStale returns nil when the socket at path refuses connections (its
// daemon is gone), ErrAlreadyRunning when something answers, and an error
// for anything it cannot tell apart, which is never taken as stale.
func probeStale(path string) error {
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("%w: a daemon already listens on %s", ErrAlreadyRunning, path)
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return nil
	}
	return fmt.Errorf("%w: cannot tell whether %s is in use (%v); it is left alone", ErrAlreadyRunning, path, errors.Unwrap(err))
}

// Accept waits for the next connection.
func (e *Endpoint) Accept() (*net.UnixConn, error) { return e.ln.AcceptUnix() }

// stopAccepting closes the listener only: a blocked Accept returns.
func (e *Endpoint) stopAccepting() { e.ln.Close() }

// Close stops listening, removes the socket when it is still the one this
// endpoint made, and releases the lock. It is safe to call more than once.
func (e *Endpoint) Close() error {
	e.closeOnce.Do(func() {
		if err := e.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			e.closeErr = err
		}
		if fi, err := os.Lstat(e.Path); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && uint64(st.Dev) == e.dev && st.Ino == e.ino {
				if err := os.Remove(e.Path); err != nil && e.closeErr == nil {
					e.closeErr = err
				}
			}
		}
		unlockFile(e.lock)
	})
	return e.closeErr
}
