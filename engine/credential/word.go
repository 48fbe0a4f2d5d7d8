package credential

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The single-word rule's length bounds, in characters.
const (
	minWordLen = 16
	maxWordLen = 512
)

// passwordLike applies the single-word rule to a whole text: after trimming
// surrounding whitespace, one word of 16–512 characters mixing at least
// three character classes, unless it has a shape that is everyday text and
// not a secret by itself (see the package comment).
func passwordLike(text string) (Match, bool) {
	start := len(text) - len(strings.TrimLeftFunc(text, unicode.IsSpace))
	word := strings.TrimSpace(text)
	end := start + len(word)
	if n := utf8.RuneCountInString(word); n < minWordLen || n > maxWordLen {
		return Match{}, false
	}
	var lower, upper, digit, symbol bool
	for _, r := range word {
		switch {
		case unicode.IsSpace(r):
			return Match{}, false
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsMark(r):
			// A combining mark belongs to the letter before it.
		case unicode.IsLetter(r):
			// A letter without case (CJK, Thai, Arabic…): such scripts
			// write sentences without spaces, so this is prose.
			return Match{}, false
		default:
			symbol = true
		}
	}
	if count(lower, upper, digit, symbol) < 3 || everydayShape(word) {
		return Match{}, false
	}
	return Match{Kind: KindPasswordLike, Start: start, End: end}, true
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// everydayShape recognises single words that mix classes but are what
// people type and copy every day.
func everydayShape(w string) bool {
	return isURL(w) || isEmail(w) || isPath(w) || isUUID(w) || isDateTime(w)
}

// isURL: scheme "://" or "www." (a secret in its query or userinfo is the
// key_value rule's business).
func isURL(w string) bool {
	if hasPrefixFold(w, "www.") {
		return true
	}
	i := strings.Index(w, "://")
	if i <= 0 || !isLower(toLower(w[0])) {
		return false
	}
	for j := 1; j < i; j++ {
		if c := w[j]; !isAlnum(c) && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// isEmail: local@domain.tld with the usual characters.
func isEmail(w string) bool {
	at := strings.IndexByte(w, '@')
	if at <= 0 || strings.Count(w, "@") != 1 {
		return false
	}
	local, domain := w[:at], w[at+1:]
	dot := strings.LastIndexByte(domain, '.')
	if dot <= 0 || dot == len(domain)-1 {
		return false
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; !isAlnum(c) && !strings.ContainsRune("._%+-", rune(c)) {
			return false
		}
	}
	for i := 0; i < len(domain); i++ {
		if c := domain[i]; !isAlnum(c) && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// isPath: an absolute, home or relative path with at least two separators,
// or a Windows drive path.
func isPath(w string) bool {
	switch {
	case strings.HasPrefix(w, "/"), strings.HasPrefix(w, "~/"),
		strings.HasPrefix(w, "./"), strings.HasPrefix(w, "../"):
		return strings.Count(w, "/") >= 2
	case len(w) > 3 && isLower(toLower(w[0])) && w[1] == ':' && w[2] == '\\':
		return strings.Count(w, `\`) >= 2
	}
	return false
}

// isUUID: 8-4-4-4-12 hexadecimal digits, optionally in braces.
func isUUID(w string) bool {
	w = strings.TrimSuffix(strings.TrimPrefix(w, "{"), "}")
	if len(w) != 36 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !isDigit(c) && (toLower(c) < 'a' || toLower(c) > 'f') {
			return false
		}
	}
	return true
}

// isDateTime: digits and the punctuation of ISO 8601 dates and times, with
// no letters but T and Z.
func isDateTime(w string) bool {
	digits := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case isDigit(c):
			digits++
		case strings.IndexByte("-:.+,/TZtz", c) >= 0:
		default:
			return false
		}
	}
	return digits >= 8
}
