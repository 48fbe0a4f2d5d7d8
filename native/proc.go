package native

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nish-driver/nish-driver/engine"
)

// procRoot is where the kernel shows its processes.
const procRoot = "/proc"

// processIdentity reads a process's identity from /proc: its start time
// (field 22 of stat, clock ticks since boot) and its executable, so a pid
// reused by another program is not taken for an approved app.
func processIdentity(pid int) (engine.ProcessIdentity, error) {
	if pid <= 0 {
		return engine.ProcessIdentity{}, engine.Errf(engine.CodeWindowGone, "pid %d is not a process", pid)
	}
	dir := procRoot + "/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return engine.ProcessIdentity{}, engine.Errf(engine.CodeWindowGone, "process %d exited", pid)
	}
	if exited(string(stat)) {
		// A zombie has exited; only its parent has not reaped it yet.
		return engine.ProcessIdentity{}, engine.Errf(engine.CodeWindowGone, "process %d exited", pid)
	}
	start, err := startTime(string(stat))
	if err != nil {
		return engine.ProcessIdentity{}, engine.Wrap(engine.CodeInternal, err, "cannot read the start time of process %d", pid)
	}
	exe, err := os.Readlink(dir + "/exe")
	if err != nil {
		// A process of another user hides its executable; the start time
		// still tells a reused pid apart.
		exe = ""
	}
	return engine.ProcessIdentity{Pid: pid, StartTime: start, Exe: strings.TrimSuffix(exe, " (deleted)")}, nil
}

// startTime parses field 22 of /proc/PID/stat. The command name (field 2)
// is in parentheses and may itself hold spaces and parentheses, so fields
// are counted from the last ')'.
func startTime(stat string) (uint64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed stat")
	}
	fields := strings.Fields(stat[i+1:])
	// fields[0] is field 3 (state); field 22 is fields[19].
	if len(fields) < 20 {
		return 0, fmt.Errorf("short stat")
	}
	return strconv.ParseUint(fields[19], 10, 64)
}

// exited reports a process that has ended but not been reaped: state Z
// (zombie) or X (dead), field 3 of /proc/PID/stat.
func exited(stat string) bool {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	fields := strings.Fields(stat[i+1:])
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}
