package credential

import "strings"

// secretKeys are the key names (lower case, without separators) whose value
// is taken for a secret. A key matches when its name ends in one of them,
// ignoring case and single "_", "-", "." or " " between letters, so
// DB_PASSWORD, dbPassword, X-Api-Key, "api key", client_secret and
// access_token all match.
var secretKeys = []string{
	"password", "passwd", "passphrase", "pwd",
	"secret", "token",
	"apikey", "accesskey", "secretkey", "privatekey",
	"auth", "authorization",
	"credential", "credentials",
	"sessionid",
}

// notSecretValues are values after a secret-ish key that say there is no
// secret (compared case-insensitively).
var notSecretValues = []string{"null", "true", "false", "nil", "none"}

// schemeWords are values that introduce the real secret in the next word
// (HTTP authorization schemes).
var schemeWords = []string{"bearer", "basic", "token", "digest", "bot"}

const (
	maxKeyGap    = 16  // blanks allowed around a separator
	maxUserinfo  = 256 // bytes looked at between "://" and "@"
	maxSchemeGap = 16  // blanks between "Bearer" and its token
	maxEmphasis  = 3   // Markdown asterisks around a key
)

// pairs finds key/value secrets and URL passwords.
func (sc *scanner) pairs() {
	s := sc.s
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			if i+2 < len(s) && s[i+1] == '/' && s[i+2] == '/' {
				sc.userinfo(i + 3)
				continue
			}
			if (i > 0 && s[i-1] == ':') || (i+1 < len(s) && s[i+1] == ':') {
				continue // a scope operator, a::b
			}
			sep := i + 1
			if sep < len(s) && s[sep] == '=' {
				sep++ // :=
			}
			if e, ok := sc.pairAt(i, sep); ok {
				i = e - 1
			}
		case '=':
			if i > 0 && (s[i-1] == '=' || s[i-1] == '!' || s[i-1] == '<' || s[i-1] == '>' || s[i-1] == ':') {
				continue // ==, !=, <=, >=, and := seen at its colon
			}
			if i+1 < len(s) && s[i+1] == '=' {
				continue // ==
			}
			sep := i + 1
			if sep < len(s) && s[sep] == '>' {
				sep++ // =>
			}
			if e, ok := sc.pairAt(i, sep); ok {
				i = e - 1
			}
		}
	}
}

// pairAt checks the key before the separator at i and the value from sep.
// It returns the offset after the value when it added a match.
func (sc *scanner) pairAt(i, sep int) (int, bool) {
	s := sc.s
	k := i
	for n := 0; k > 0 && isBlank(s[k-1]) && n < maxKeyGap; n++ {
		k--
	}
	emphasis := 0 // Markdown: **Password:** hunter2
	for k > 0 && s[k-1] == '*' && emphasis < maxEmphasis {
		k--
		emphasis++
	}
	if k > 0 && (s[k-1] == '"' || s[k-1] == '\'' || s[k-1] == '`') {
		k--
		if k > 0 && s[k-1] == '\\' {
			k-- // an escaped quote inside a JSON string
		}
	}
	if !secretKeyEndsAt(s, k) {
		return 0, false
	}
	for n := 0; n < maxEmphasis && sep < len(s) && s[sep] == '*'; n++ {
		sep++ // **Password:** hunter2
	}
	start, end, ok := valueAt(s, sep)
	if !ok {
		return 0, false
	}
	sc.add(KindKeyValue, start, end)
	return end, true
}

// secretKeyEndsAt reports whether the text before offset end is a name
// ending in one of secretKeys.
func secretKeyEndsAt(s string, end int) bool {
	if end == 0 || !isAlnum(s[end-1]) {
		return false
	}
	for _, kw := range secretKeys {
		if keyEndsWith(s, end, kw) {
			return true
		}
	}
	return false
}

func keyEndsWith(s string, end int, kw string) bool {
	j := end
	for n := len(kw) - 1; n >= 0; n-- {
		if n < len(kw)-1 && j > 1 && isKeySep(s[j-1]) && isAlnum(s[j-2]) {
			j-- // one separator between two letters of the name
		}
		if j == 0 || toLower(s[j-1]) != kw[n] {
			return false
		}
		j--
	}
	return true
}

func isKeySep(c byte) bool { return c == '_' || c == '-' || c == '.' || c == ' ' }

// valueAt finds the value that starts at or after offset v on the same line.
// A quoted value's span is its content (the quotes stay, so JSON stays
// JSON); an unquoted value runs to the next whitespace.
func valueAt(s string, v int) (start, end int, ok bool) {
	for n := 0; v < len(s) && isBlank(s[v]) && n < maxKeyGap; n++ {
		v++
	}
	if v >= len(s) || isSpace(s[v]) {
		return 0, 0, false
	}
	if q := s[v]; q == '"' || q == '\'' || q == '`' {
		if e, closed := closingQuote(s, v+1, q); closed {
			content := s[v+1 : e]
			if content == "" || content == Marker || isMask(content) || isNotSecretWord(content) {
				return 0, 0, false
			}
			return v + 1, e, true
		}
	}
	if s[v] == '{' || s[v] == '[' {
		return 0, 0, false // a nested object or list, or the marker
	}
	e := spanWhile(s, v, -1, func(c byte) bool { return !isSpace(c) })
	word := s[v:e]
	if bare := strings.TrimRight(word, `,;}])"'`); bare == "" || isMask(bare) || isNotSecretWord(bare) || isReference(word) {
		return 0, 0, false
	}
	if isSchemeWord(word) {
		if te, ok := schemeToken(s, e); ok {
			return v, te, true
		}
	}
	return v, e, true
}

// closingQuote finds the quote that ends a quoted value starting at i,
// honouring backslash escapes in double-quoted strings, and stops at the
// end of the line.
func closingQuote(s string, i int, q byte) (int, bool) {
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == q:
			return j, true
		case c == '\n' || c == '\r':
			return j, false
		case c == '\\' && q == '"':
			j++
		}
	}
	return len(s), false
}

// schemeToken returns the end of the word after an authorization scheme
// word, on the same line.
func schemeToken(s string, e int) (int, bool) {
	t := e
	for n := 0; t < len(s) && isBlank(s[t]) && n < maxSchemeGap; n++ {
		t++
	}
	if t == e || t >= len(s) || isSpace(s[t]) {
		return 0, false
	}
	return spanWhile(s, t, -1, func(c byte) bool { return !isSpace(c) }), true
}

func isMask(v string) bool {
	if v == "" {
		return false
	}
	for _, r := range v {
		if r != '*' && r != '•' && r != '●' {
			return false
		}
	}
	return true
}

func isNotSecretWord(v string) bool {
	for _, w := range notSecretValues {
		if equalFold(v, w) {
			return true
		}
	}
	return false
}

// isReference recognises code that names a secret without holding it: a
// function call (getToken(), os.Getenv("X")) or an environment variable
// ($TOKEN, ${DB_PASSWORD}).
func isReference(v string) bool {
	if v == "" {
		return false
	}
	if v[0] == '$' {
		name := strings.TrimSuffix(strings.TrimPrefix(v[1:], "{"), "}")
		name = strings.TrimRight(name, ",;")
		return name != "" && strings.IndexFunc(name, func(r rune) bool {
			return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) < 0
	}
	i := 0
	for i < len(v) && (isAlnum(v[i]) || v[i] == '_' || v[i] == '.') {
		i++
	}
	return i > 0 && !isDigit(v[0]) && i < len(v) && v[i] == '('
}

func isSchemeWord(v string) bool {
	for _, w := range schemeWords {
		if equalFold(v, w) {
			return true
		}
	}
	return false
}

// userinfo finds the password of a URL's "user:password@host" authority
// starting at i (just after "://").
func (sc *scanner) userinfo(i int) {
	s := sc.s
	colon := -1
	for j := i; j < len(s) && j-i < maxUserinfo; j++ {
		switch c := s[j]; {
		case c == '@':
			if colon >= 0 && j > colon+1 && s[colon+1:j] != Marker {
				sc.add(KindKeyValue, colon+1, j)
			}
			return
		case c == ':':
			if colon < 0 {
				colon = j
			}
		case c == '/' || c == '?' || c == '#' || isSpace(c):
			return
		}
	}
}
