//go:build !cgo

package atspi

import "strconv"

// Without cgo there is no libatspi to name roles and states; the whole
// Linux backend then reports itself unavailable (native/xlib cannot open a
// display), and these keep the package compiling with plain numbered names.

// RoleName is "role_N" in a build without cgo.
func RoleName(role uint32) string { return "role_" + strconv.FormatUint(uint64(role), 10) }

// stateNames is "state_N" for each state in a build without cgo.
func stateNames(set stateSet) []string {
	var out []string
	for i := 0; i < 64; i++ {
		if set&(1<<uint(i)) != 0 {
			out = append(out, "state_"+strconv.Itoa(i))
		}
	}
	return out
}
