package atspi

// #cgo pkg-config: atspi-2 gobject-2.0
// #include <stdlib.h>
// #include "names.h"
import "C"

import (
	"strconv"
	"sync"
)

// Role and state names come from libatspi's tables, so they follow the
// installed AT-SPI version, and are turned into snake_case once ("push
// button" → push_button, "multi-line" → multi_line).
var (
	namesOnce  sync.Once
	roleNames  []string
	stateTable []string
)

func loadNames() {
	namesOnce.Do(func() {
		n := int(C.nish_role_count())
		roleNames = make([]string, n)
		for i := 0; i < n; i++ {
			if p := C.nish_role_name(C.int(i)); p != nil {
				roleNames[i] = snake(C.GoString(p))
				C.nish_free_name(p)
			}
		}
		n = int(C.nish_state_count())
		stateTable = make([]string, n)
		for i := 0; i < n; i++ {
			if p := C.nish_state_name(C.int(i)); p != nil {
				stateTable[i] = snake(C.GoString(p))
				C.nish_free_name(p)
			}
		}
	})
}

// RoleName is the snake_case name of an AT-SPI role number; a number this
// libatspi does not know is "role_N".
func RoleName(role uint32) string {
	loadNames()
	if int(role) < len(roleNames) && roleNames[role] != "" {
		return roleNames[role]
	}
	return "role_" + strconv.FormatUint(uint64(role), 10)
}

// stateNames turns the two 32-bit words of an AT-SPI state set into
// snake_case names, in state-number order.
func stateNames(set stateSet) []string {
	loadNames()
	var out []string
	for i := 0; i < 64; i++ {
		if set&(1<<uint(i)) == 0 {
			continue
		}
		if i < len(stateTable) && stateTable[i] != "" {
			out = append(out, stateTable[i])
		} else {
			out = append(out, "state_"+strconv.Itoa(i))
		}
	}
	return out
}
