package atspi

import "strings"

// snake turns an AT-SPI name into snake_case, the form of every role and
// state name the package returns ("push button" → push_button,
// "multi-line" → multi_line). It needs no cgo: the tests put libatspi's
// and pyatspi's names into the same form.
func snake(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return '_'
		}
		return r
	}, strings.ToLower(s))
}
