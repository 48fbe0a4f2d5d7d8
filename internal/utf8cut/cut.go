// Package utf8cut bounds text in bytes without splitting a character: the
// one rule for text the driver holds to a byte limit, shared by the
// accessibility reader (native/atspi: values and texts read from apps),
// the mock desktop that stands in for it (engine/mock) and the audit log's
// fields (engine/audit). Standard library only, so the engine and the
// native layers may both import it.
package utf8cut

import "unicode/utf8"

// Cut cuts s to at most n bytes, back to the start of the character the
// bound falls in, and says whether it cut. n <= 0 means no bound. In text
// that is not valid UTF-8, any byte but a continuation byte starts a
// character.
func Cut(s string, n int) (string, bool) {
	if n <= 0 || len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
