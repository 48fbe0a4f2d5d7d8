package credential

import "strings"

// maxPasses bounds Redact's passes. Replacing a span changes the bytes next
// to it, which can complete a new match (a word boundary appears, say), so
// Redact scans its own output again until nothing is found.
const maxPasses = 8

// Redact replaces every credential-looking span of a longer text (a
// document, an e-mail, a terminal) with Marker and returns how many spans
// it replaced. The single-word rule does not apply inside prose. The result
// holds nothing Find would flag, and Redact of it changes nothing.
func Redact(text string) (string, int) {
	total := 0
	for range maxPasses {
		ms := Find(text)
		if len(ms) == 0 {
			return text, total
		}
		text = replace(text, ms)
		total += len(ms)
	}
	if len(Find(text)) == 0 {
		return text, total
	}
	// Still finding new spans after every pass: hide everything rather
	// than return something half-redacted.
	return Marker, total + 1
}

func replace(text string, ms []Match) string {
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, m := range ms {
		b.WriteString(text[at:m.Start])
		b.WriteString(Marker)
		at = m.End
	}
	b.WriteString(text[at:])
	return b.String()
}
