package credential

import (
	"cmp"
	"slices"
)

// Find returns every credential-looking span of text that the in-prose
// rules find (all kinds but password_like), sorted by start, with
// overlapping or touching spans merged into one (the earlier one's kind).
func Find(text string) []Match {
	sc := scanner{s: text}
	sc.privateKeys()
	sc.pairs()
	sc.words()
	return merge(sc.out)
}

// Detect reports whether text looks like a credential, and the first span
// that does. It applies every rule of Find, then the single-word rule to the
// whole text.
func Detect(text string) (Match, bool) {
	if ms := Find(text); len(ms) > 0 {
		return ms[0], true
	}
	return passwordLike(text)
}

// scanner collects the matches of one text.
type scanner struct {
	s   string
	out []Match
}

func (sc *scanner) add(k Kind, start, end int) {
	if end > start {
		sc.out = append(sc.out, Match{Kind: k, Start: start, End: end})
	}
}

func merge(ms []Match) []Match {
	if len(ms) < 2 {
		return ms
	}
	slices.SortStableFunc(ms, func(a, b Match) int { return cmp.Compare(a.Start, b.Start) })
	out := ms[:1]
	for _, m := range ms[1:] {
		last := &out[len(out)-1]
		if m.Start <= last.End {
			if m.End > last.End {
				last.End = m.End
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

// Byte classes. Everything here is ASCII on purpose: every span starts and
// ends next to an ASCII byte or at the text's ends, so cutting a span out of
// valid UTF-8 leaves valid UTF-8.

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isLower(c) || isUpper(c) || isDigit(c) }

// isWordByte is the base64url alphabet: the bytes of a token's word. A
// token rule starts only where the byte before is not one of these.
func isWordByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func toLower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with prefix, ASCII case-folded
// (prefix is lower case). Unicode folding is avoided on purpose: it could
// match a multi-byte rune and cut a span inside it.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if toLower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func equalFold(s, lower string) bool { return len(s) == len(lower) && hasPrefixFold(s, lower) }

// spanWhile returns the end of the run of bytes from i that satisfy ok,
// looking at most limit bytes (limit < 0: no limit).
func spanWhile(s string, i int, limit int, ok func(byte) bool) int {
	j := i
	for j < len(s) && ok(s[j]) {
		if limit >= 0 && j-i >= limit {
			break
		}
		j++
	}
	return j
}
