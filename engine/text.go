package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CutEscape makes untrusted app text safe to show: newlines and tabs are
// written as \n, \t and \r, other control and invisible formatting
// characters (bidi overrides, zero-width marks) as \uXXXX, so a title cannot fake a new line or reorder what the
// model reads, and the result is cut to at most max runes.
func CutEscape(s string, max int) string {
	out, _ := cutEscape(s, max)
	return out
}

func cutEscape(s string, max int) (string, bool) {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= max {
			return b.String(), true
		}
		if r == '\n' || r == '\t' || r == '\r' {
			b.WriteString(map[rune]string{'\n': `\n`, '\t': `\t`, '\r': `\r`}[r])
		} else if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			esc := fmt.Sprintf("\\u%04x", r)
			if r == utf8.RuneError {
				esc = "\\ufffd"
			}
			b.WriteString(esc)
		} else {
			b.WriteRune(r)
		}
		n++
	}
	return b.String(), false
}
