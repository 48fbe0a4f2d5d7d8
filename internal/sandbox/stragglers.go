package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killStragglers kills what the desktop's process groups did not hold:
// programs that left their group and their parent (Chromium's crash
// handler starts itself so; the AT-SPI registry is started by the session
// bus and outlives the bus launcher). Each such process names the desktop's
// private folder in its command line or its environment (every program
// started here gets XDG_RUNTIME_DIR and friends under it), and runs as this
// user; nothing else is touched.
func killStragglers(root string) {
	if root == "" {
		return
	}
	mark := []byte(root + string(os.PathSeparator))
	self, uid := os.Getpid(), os.Getuid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		dir := "/proc/" + e.Name()
		var st syscall.Stat_t
		if syscall.Stat(dir, &st) != nil || int(st.Uid) != uid {
			continue
		}
		if mentions(dir+"/cmdline", mark) || mentions(dir+"/environ", mark) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// mentions reports whether a /proc file holds mark.
func mentions(path string, mark []byte) bool {
	b, err := os.ReadFile(path)
	return err == nil && bytes.Contains(b, mark)
}
