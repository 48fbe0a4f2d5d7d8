package credential

import "fmt"

// Kind names the rule that matched. Its value is a fixed word, safe to log.
type Kind string

// The kinds of credential-looking text.
const (
	KindPrivateKey   Kind = "private_key"
	KindKeyValue     Kind = "key_value"
	KindTokenPrefix  Kind = "token_prefix"
	KindJWT          Kind = "jwt"
	KindPasswordLike Kind = "password_like"
)

// Marker replaces every credential-looking span in Redact's output.
const Marker = "[redacted]"

// Match is one credential-looking span: the rule and the byte offsets
// [Start, End) into the text that was checked. It never holds the text.
type Match struct {
	Kind  Kind
	Start int
	End   int
}

// String renders the kind and the span only, so a Match can be logged.
func (m Match) String() string {
	return fmt.Sprintf("%s[%d:%d]", m.Kind, m.Start, m.End)
}
