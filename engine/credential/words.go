package credential

// tokenShape is one issued-token format: a case-sensitive prefix and a body
// of at least minBody bytes from its alphabet. exact, when set, is the
// body's only allowed length (AWS key ids). mixed asks the body to hold a
// letter and a digit, for prefixes short or common enough to occur in
// ordinary words ("sk-").
type tokenShape struct {
	prefix  string
	body    func(byte) bool
	minBody int
	exact   int
	mixed   bool
}

func isAlnumUnderscore(c byte) bool { return isAlnum(c) || c == '_' }
func isAlnumDash(c byte) bool       { return isAlnum(c) || c == '-' }
func isUpperDigit(c byte) bool      { return isUpper(c) || isDigit(c) }
func isWebhookPath(c byte) bool     { return isWordByte(c) || c == '/' }

// isBearerByte is RFC 6750's b64token alphabet.
func isBearerByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '='
}

// tokenShapes lists the known prefixes. Longer prefixes come before the
// shorter ones they extend.
var tokenShapes = []tokenShape{
	{prefix: "github_pat_", body: isAlnumUnderscore, minBody: 20},
	{prefix: "ghp_", body: isAlnum, minBody: 20},
	{prefix: "gho_", body: isAlnum, minBody: 20},
	{prefix: "ghu_", body: isAlnum, minBody: 20},
	{prefix: "ghs_", body: isAlnum, minBody: 20},
	{prefix: "ghr_", body: isAlnum, minBody: 20},
	{prefix: "glpat-", body: isWordByte, minBody: 20},
	{prefix: "xoxb-", body: isAlnumDash, minBody: 10},
	{prefix: "xoxp-", body: isAlnumDash, minBody: 10},
	{prefix: "xoxa-", body: isAlnumDash, minBody: 10},
	{prefix: "xoxr-", body: isAlnumDash, minBody: 10},
	{prefix: "xoxs-", body: isAlnumDash, minBody: 10},
	{prefix: "xapp-", body: isAlnumDash, minBody: 10},
	{prefix: "sk-proj-", body: isWordByte, minBody: 20},
	{prefix: "sk-", body: isWordByte, minBody: 20, mixed: true},
	{prefix: "sk_live_", body: isAlnum, minBody: 10},
	{prefix: "sk_test_", body: isAlnum, minBody: 10},
	{prefix: "rk_live_", body: isAlnum, minBody: 10},
	{prefix: "rk_test_", body: isAlnum, minBody: 10},
	{prefix: "pk_live_", body: isAlnum, minBody: 10},
	{prefix: "AIza", body: isWordByte, minBody: 30},
	{prefix: "AKIA", body: isUpperDigit, exact: 16},
	{prefix: "ASIA", body: isUpperDigit, exact: 16},
	{prefix: "npm_", body: isAlnum, minBody: 30},
	{prefix: "pypi-AgE", body: isWordByte, minBody: 30},
}

// webhookPrefixes are URLs whose path is itself the secret.
var webhookPrefixes = []string{
	"https://hooks.slack.com/services/",
	"https://discord.com/api/webhooks/",
	"https://discordapp.com/api/webhooks/",
}

const (
	minJWTHeader  = 10 // "eyJhbGciOi" and the like
	minJWTPayload = 2
	minBearer     = 16
	bearerWindow  = 64 // bytes of a bearer token looked at before deciding
)

// words checks every word start (a base64url byte after a byte that is
// not one) for token prefixes, JWTs, bearer tokens and webhook URLs.
// Words are visited once each, and a match's span is skipped, so the work
// is linear in the text.
func (sc *scanner) words() {
	s := sc.s
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		wordEnd := spanWhile(s, i, -1, isWordByte)
		end, kind, ok := sc.wordAt(i, wordEnd)
		if ok {
			sc.add(kind, i, end)
			i = max(end, wordEnd)
			continue
		}
		i = wordEnd
	}
}

// wordAt tries every word rule at the word [i, wordEnd).
func (sc *scanner) wordAt(i, wordEnd int) (int, Kind, bool) {
	s := sc.s
	w := s[i:wordEnd]
	for _, t := range tokenShapes {
		if len(w) <= len(t.prefix) || w[:len(t.prefix)] != t.prefix {
			continue
		}
		b := i + len(t.prefix)
		be := spanWhile(s, b, -1, t.body)
		n := be - b
		switch {
		case t.exact > 0 && (n != t.exact || (be < len(s) && isAlnum(s[be]))):
			continue
		case n < t.minBody:
			continue
		case t.mixed && !hasLetterAndDigit(s[b:be]):
			continue
		}
		return wordEnd, KindTokenPrefix, true
	}
	if e, ok := jwtAt(s, i, wordEnd); ok {
		return e, KindJWT, true
	}
	if equalFold(w, "bearer") {
		if e, ok := bearerAt(s, wordEnd); ok {
			return e, KindTokenPrefix, true
		}
	}
	for _, p := range webhookPrefixes {
		if len(s)-i > len(p) && s[i:i+len(p)] == p {
			e := spanWhile(s, i+len(p), -1, isWebhookPath)
			if e-(i+len(p)) >= 20 {
				return e, KindTokenPrefix, true
			}
		}
	}
	return 0, "", false
}

// jwtAt matches header.payload.signature with the header word [i, wordEnd).
// The signature may be empty (an unsigned token still carries its claims).
func jwtAt(s string, i, wordEnd int) (int, bool) {
	if wordEnd-i < minJWTHeader || s[i:i+3] != "eyJ" {
		return 0, false
	}
	if wordEnd >= len(s) || s[wordEnd] != '.' {
		return 0, false
	}
	p := wordEnd + 1
	pe := spanWhile(s, p, -1, isWordByte)
	if pe-p < minJWTPayload || pe >= len(s) || s[pe] != '.' {
		return 0, false
	}
	return spanWhile(s, pe+1, -1, isWordByte), true
}

// bearerAt matches the token after "Bearer " (at most a few blanks). The
// decision looks at a bounded window; a match then takes the whole token.
func bearerAt(s string, e int) (int, bool) {
	t := e
	for n := 0; t < len(s) && isBlank(s[t]) && n < maxSchemeGap; n++ {
		t++
	}
	if t == e {
		return 0, false
	}
	we := spanWhile(s, t, bearerWindow, isBearerByte)
	if we-t < minBearer || !hasLetterAndDigit(s[t:we]) {
		return 0, false
	}
	return spanWhile(s, we, -1, isBearerByte), true
}

func hasLetterAndDigit(w string) bool {
	var letter, digit bool
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case isDigit(c):
			digit = true
		case isLower(c) || isUpper(c):
			letter = true
		}
	}
	return letter && digit
}
