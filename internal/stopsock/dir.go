package stopsock

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/nish-driver/nish-driver/internal/daemon"
)

// Dir is the folder every driver of this user puts its stop socket in: a
// folder named stop beside the daemon's default socket, so
// $XDG_RUNTIME_DIR/nish-driver/stop, else <user cache dir>/nish-driver/run/stop.
// It does not follow the daemon's --socket: stop must find every driver
// without being told where they are.
func Dir() (string, error) {
	sock, err := daemon.DefaultPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(sock), "stop"), nil
}

// sockSuffix ends every stop socket's name; what comes before it is the
// driver's pid.
const sockSuffix = ".sock"

// sockName is the name of pid's stop socket.
func sockName(pid int) string { return strconv.Itoa(pid) + sockSuffix }

// tempName is where pid binds its socket before it listens: the socket is
// renamed to sockName only once it accepts connections, so a socket under
// its final name that refuses one is always a stale one.
func tempName(pid int) string { return "." + strconv.Itoa(pid) + sockSuffix + ".tmp" }

// pidOf is the pid a stop socket's name carries; false for any other name.
func pidOf(name string) (int, bool) {
	digits, ok := strings.CutSuffix(name, sockSuffix)
	if !ok || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// tempPidOf is the pid a leftover temporary name carries.
func tempPidOf(name string) (int, bool) {
	inner, ok := strings.CutPrefix(name, ".")
	if !ok {
		return 0, false
	}
	inner, ok = strings.CutSuffix(inner, ".tmp")
	if !ok {
		return 0, false
	}
	return pidOf(inner)
}

// processGone says whether no process has pid any more (in this pid
// namespace). A process of another user still counts as there.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
