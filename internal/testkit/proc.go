package testkit

import (
	"os"
	"strconv"
	"strings"
)

// ProcState is the state letter of a process as /proc shows it ("R", "S",
// "Z" for a zombie that still answers kill 0...), "" when it is gone.
func ProcState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return ""
	}
	return s[i+2 : i+3]
}
