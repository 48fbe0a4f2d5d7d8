package main

import (
	"regexp"
	"strings"
)

// apacheReference stands in for the Apache License 2.0's own text, which
// Debian ships once for every package (policy §12.5).
const apacheReference = "[The Apache License, Version 2.0. On Debian systems its complete text is in /usr/share/common-licenses/Apache-2.0.]"

var (
	apacheTitle   = regexp.MustCompile(`^\s*Apache License\s*$`)
	apacheVersion = regexp.MustCompile(`^\s*Version 2\.0, January 2004\s*$`)
	apacheEnd     = regexp.MustCompile(`^\s*END OF TERMS AND CONDITIONS\s*$`)
	appendixStart = regexp.MustCompile(`^\s*APPENDIX: How to apply the Apache License`)
	appendixEnd   = regexp.MustCompile(`limitations under the License\.\s*$`)
)

// shortenApache replaces each copy of the Apache License 2.0 inside a
// license file (title to "END OF TERMS AND CONDITIONS", and the "how to
// apply" appendix after it) with a pointer to Debian's copy, keeping
// everything else the file says: a preamble, other licenses, notices.
func shortenApache(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		end := apacheBodyEnd(lines, i)
		if end < 0 {
			out = append(out, lines[i])
			continue
		}
		out = append(out, apacheReference)
		i = end
	}
	return strings.Join(out, "\n")
}

// apacheBodyEnd returns the last line of an Apache License body starting
// at line i (with its appendix when one follows), or -1 when none starts
// there.
func apacheBodyEnd(lines []string, i int) int {
	if !apacheTitle.MatchString(lines[i]) {
		return -1
	}
	next := i + 1
	for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
		next++
	}
	if next == len(lines) || !apacheVersion.MatchString(lines[next]) {
		return -1
	}
	end := -1
	for j := next; j < len(lines); j++ {
		if apacheEnd.MatchString(lines[j]) {
			end = j
			break
		}
	}
	if end < 0 {
		return -1 // not the whole license: keep it as it is
	}
	for j := end + 1; j < len(lines); j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		if !appendixStart.MatchString(lines[j]) {
			break
		}
		for k := j; k < len(lines); k++ {
			if appendixEnd.MatchString(lines[k]) {
				return k
			}
		}
		break
	}
	return end
}
