package credential

import (
	"strings"
	"testing"
)

// The fake tokens below are glued together from pieces, so secret scanners
// that read this repository do not take the test table for a leak.
func tok(parts ...string) string { return strings.Join(parts, "") }

var (
	ghToken     = tok("gh", "p_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z4A")
	jwtToken    = tok("eyJ", "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
	awsKeyID    = tok("AK", "IA", "QWERTYUIOP234567")
	openAIToken = tok("sk", "-", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z")
)

type detectCase struct {
	name string
	text string
	want Kind // "" when the text must pass
}

var detectCases = []detectCase{
	// Private keys.
	{"rsa key block", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n", KindPrivateKey},
	{"pkcs8 key block", "-----BEGIN PRIVATE KEY-----\nMIIEvg\n-----END PRIVATE KEY-----", KindPrivateKey},
	{"encrypted key block", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n-----END ENCRYPTED PRIVATE KEY-----", KindPrivateKey},
	{"openssh key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", KindPrivateKey},
	{"ec key block", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----", KindPrivateKey},
	{"pgp key block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----", KindPrivateKey},
	{"key block without end", "here it is:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk", KindPrivateKey},
	{"lower case key header", "-----begin private key-----\nabc", KindPrivateKey},
	{"certificate", "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----", ""},
	{"public key", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", ""},
	{"ssh public key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx user@host", ""},
	{"dashes in prose", "----- section -----", ""},

	// Key/value pairs.
	{"password equals", "password=hunter2", KindKeyValue},
	{"password upper", "PASSWORD=hunter2", KindKeyValue},
	{"passwd colon", "passwd: abc", KindKeyValue},
	{"pwd equals", "pwd=abc", KindKeyValue},
	{"secret colon", "secret: s3", KindKeyValue},
	{"api_key equals", "api_key=abc123", KindKeyValue},
	{"apikey equals", "apikey=abc123", KindKeyValue},
	{"api key with a space", "API key: abc123", KindKeyValue},
	{"header x-api-key", "X-Api-Key: abc123", KindKeyValue},
	{"access_token", "access_token=abc", KindKeyValue},
	{"token colon", "token: abc", KindKeyValue},
	{"auth colon", "auth: xyz", KindKeyValue},
	{"client_secret", "client_secret=abc", KindKeyValue},
	{"env var", "export DB_PASSWORD=hunter2", KindKeyValue},
	{"camel case key", "dbPassword = hunter2", KindKeyValue},
	{"aws secret env", "AWS_SECRET_ACCESS_KEY=abc", KindKeyValue},
	{"session id", "sessionid=abc", KindKeyValue},
	{"yaml indented", "db:\n  password: hunter2\n", KindKeyValue},
	{"json spaced", `{"password": "hunter2"}`, KindKeyValue},
	{"json tight", `{"user":"bob","password":"hunter2"}`, KindKeyValue},
	{"single quoted", `{'secret': 'abc'}`, KindKeyValue},
	{"escaped json", `"{\"token\":\"abc\"}"`, KindKeyValue},
	{"go assignment", `password := "hunter2"`, KindKeyValue},
	{"ruby hash", `:password => 'hunter2'`, KindKeyValue},
	{"authorization bearer", "Authorization: Bearer abc", KindKeyValue},
	{"query string token", "https://example.com/cb?access_token=abc&x=1", KindKeyValue},
	{"url userinfo", "https://alice:s3cret@example.com/", KindKeyValue},
	{"prose with a label", "my password: hunter2", KindKeyValue},
	{"label then words", "Password: must be 8 characters", KindKeyValue}, // errs towards refusing
	{"credentials", "credentials=abc", KindKeyValue},
	{"markdown bold key", "**Password:** hunter2", KindKeyValue},
	{"markdown bold label", "**Password**: hunter2", KindKeyValue},
	{"empty value", "password=", ""},
	{"empty value with blanks", "Password:   \nnext line", ""},
	{"empty json value", `{"password": ""}`, ""},
	{"marker value", "password=[redacted]", ""},
	{"quoted marker value", `{"password": "[redacted]"}`, ""},
	{"masked value", "Password: ********", ""},
	{"null value", `{"password": null}`, ""},
	{"false value", "auth: false", ""},
	{"nested object", `{"auth": {"user": "bob"}}`, ""},
	{"function call value", "token = getToken();", ""},
	{"method call value", `password := os.Getenv("DB_PASSWORD")`, ""},
	{"env var value", "PASSWORD=$DB_PASSWORD", ""},
	{"braced env var value", "password: ${DB_PASSWORD}", ""},
	{"dollar in a password", "password=$ecretPass", KindKeyValue},
	{"paren in a password", "password=(abc", KindKeyValue},
	{"identifier value", "password = input", KindKeyValue},
	{"comparison", "if password == input {", ""},
	{"not equal", "password != \"\"", ""},
	{"scope operator", "Auth::check()", ""},
	{"plain key", "key: value", ""},
	{"max tokens", "max_tokens=100", ""},
	{"tokens plural", "tokens: 5", ""},
	{"author", "author: Jane Austen", ""},
	{"authentication", "Authentication: required", ""},
	{"passport", "passport: X123", ""},
	{"boarding pass", "Boarding pass: gate 12", ""},
	{"url userinfo without password", "https://alice@example.com/", ""},
	{"url marker password", "https://alice:[redacted]@example.com/", ""},

	// Token prefixes.
	{"github classic", ghToken, KindTokenPrefix},
	{"github oauth", tok("gh", "o_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z4A"), KindTokenPrefix},
	{"github user", tok("gh", "u_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z4A"), KindTokenPrefix},
	{"github server", tok("gh", "s_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z4A"), KindTokenPrefix},
	{"github refresh", tok("gh", "r_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z4A"), KindTokenPrefix},
	{"github fine grained", tok("github", "_pat_", "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"), KindTokenPrefix},
	{"gitlab", tok("gl", "pat-", "aB3dE5fG7hJ9kL1mN3pQ"), KindTokenPrefix},
	{"slack bot", tok("xo", "xb-", "123456789012-1234567890123-aBcDeFgHiJkL"), KindTokenPrefix},
	{"slack user", tok("xo", "xp-", "123456789012-1234567890123"), KindTokenPrefix},
	{"slack app", tok("xa", "pp-", "1-A0123456789-1234567890"), KindTokenPrefix},
	{"slack refresh", tok("xo", "xr-", "123456789012-1234567890123"), KindTokenPrefix},
	{"slack legacy", tok("xo", "xa-", "123456789012-1234567890123"), KindTokenPrefix},
	{"openai", openAIToken, KindTokenPrefix},
	{"openai project", tok("sk", "-proj-", "abcdefghijklmnopqrstuvwxyz"), KindTokenPrefix},
	{"stripe live", tok("sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc"), KindTokenPrefix},
	{"stripe test", tok("sk", "_test_", "4eC39HqLyjWDarjtT1zdp7dc"), KindTokenPrefix},
	{"stripe restricted", tok("rk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc"), KindTokenPrefix},
	{"stripe publishable", tok("pk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc"), KindTokenPrefix},
	{"google api key", tok("AI", "za", "SyD-abcdefghijklmnopqrstuvwxyz012345"), KindTokenPrefix},
	{"aws key id", awsKeyID, KindTokenPrefix},
	{"aws session key id", tok("AS", "IA", "QWERTYUIOP234567"), KindTokenPrefix},
	{"npm", tok("np", "m_", "abcdefghijklmnopqrstuvwxyz0123456789"), KindTokenPrefix},
	{"slack webhook", tok("https://hooks.", "slack.com/services/", "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"), KindTokenPrefix},
	{"bearer in prose", "curl -H 'x: Bearer abcdef0123456789abcdef'", KindTokenPrefix},
	{"token in a sentence", "use " + ghToken + " to push", KindTokenPrefix},
	{"token after punctuation", "(" + awsKeyID + ")", KindTokenPrefix},
	{"sk dash alone", "sk-", ""},
	{"sk dash word", "sk-learn is a library", ""},
	{"sk long phrase without digits", "sk-this-is-a-long-hyphenated-phrase", ""},
	{"token glued to a word", "x" + ghToken[:10], ""},
	{"short github prefix", tok("gh", "p_", "abc"), ""},
	{"aws key id too long", awsKeyID + "Q", ""},
	{"aws prefix alone", "AKIA", ""},
	{"bearer bonds", "Bearer bonds are paper certificates", ""},
	{"bearer long word", "bearer instrumentsandthings", ""},

	// JSON web tokens.
	{"jwt", jwtToken, KindJWT},
	{"jwt after a plain key", "cookie=" + jwtToken, KindJWT},
	{"jwt in prose", "the token is " + jwtToken + ".", KindJWT},
	{"unsigned jwt", tok("eyJ", "hbGciOiJub25lIn0", ".", "eyJzdWIiOiIxIn0", "."), KindJWT},
	{"eyJ alone", "eyJ", ""},
	{"jwt header only is a random word", "eyJhbGciOiJIUzI1NiJ9", KindPasswordLike},
	{"jwt header in prose", "header eyJhbGciOiJIUzI1NiJ9 only", ""},

	// The single-word rule.
	{"password like", "Tr0ub4dor&3xyzQW", KindPasswordLike},
	{"password like with newline", "  correct-Horse-7battery\n", KindPasswordLike},
	{"base64 blob", "dGhpcyBpcyBhIHRlc3Q+/w==Zz9", KindPasswordLike},
	{"password like too short", "Tr0ub4dor&3", ""},
	{"one class", "internationalization", ""},
	{"two classes", "CamelCaseIdentifierName", ""},
	{"hex digest", "d41d8cd98f00b204e9800998ecf8427e", ""},
	{"uuid", "123e4567-e89b-12d3-a456-426614174000", ""},
	{"upper uuid in braces", "{123E4567-E89B-12D3-A456-426614174000}", ""},
	{"url", "https://example.com/path/to/Page?id=42", ""},
	{"repo url", "https://github.com/nish-driver/nish-driver", ""},
	{"www url", "www.Example.com/a/b?page=2", ""},
	{"email", "John.Smith42@example.com", ""},
	{"path", "/home/Alice/Documents/report-2024.pdf", ""},
	{"home path", "~/Projects/Driver/main_test2.go", ""},
	{"windows path", `C:\Users\Alice\Report2024.docx`, ""},
	{"iso date time", "2024-01-15T10:30:00Z", ""},
	{"cjk sentence", "今日は2024年の会議です。ABCの件", ""},
	{"sentence with spaces", "Hello World 2024! How are you?", ""},
	{"too long single word", strings.Repeat("aB3$", 129), ""},

	// Prose.
	{"empty", "", ""},
	{"password prose", "my password is long", ""},
	{"token ring", "the token ring", ""},
	{"secret prose", "it is no secret that we auth via SSO", ""},
	{"api key prose", "Ask the admin for an API key.", ""},
	{"url in prose", "see https://example.com/docs?page=2 for details", ""},
	{"code without secrets", "x := a == b && c != d", ""},
}

func TestDetect(t *testing.T) {
	for _, tc := range detectCases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := Detect(tc.text)
			if tc.want == "" {
				if ok {
					t.Fatalf("Detect flagged %v, want no match", m)
				}
				return
			}
			if !ok {
				t.Fatalf("Detect found nothing, want %s", tc.want)
			}
			if m.Kind != tc.want {
				t.Fatalf("Detect kind = %s, want %s (%v)", m.Kind, tc.want, m)
			}
			if m.Start < 0 || m.End > len(tc.text) || m.Start >= m.End {
				t.Fatalf("bad span %v for a %d byte text", m, len(tc.text))
			}
		})
	}
}

func TestDetectSpans(t *testing.T) {
	cases := []struct {
		name, text, span string
	}{
		{"unquoted value", "password=hunter2 and more", "hunter2"},
		{"quoted value keeps its quotes", `{"password": "hunter 2"}`, "hunter 2"},
		{"bearer takes both words", "Authorization: Bearer abc def", "Bearer abc"},
		{"url password", "https://alice:s3cret@example.com/", "s3cret"},
		{"token word", "use " + ghToken + ", then", ghToken},
		{"private key to end line", "a\n-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\nb", "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----"},
		{"private key to text end", "a -----BEGIN PRIVATE KEY-----\nx", "-----BEGIN PRIVATE KEY-----\nx"},
		{"jwt whole", "t=" + jwtToken + " x", jwtToken},
		{"password like trimmed", "\n Tr0ub4dor&3xyzQW \n", "Tr0ub4dor&3xyzQW"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := Detect(tc.text)
			if !ok {
				t.Fatal("Detect found nothing")
			}
			if got := tc.text[m.Start:m.End]; got != tc.span {
				t.Fatalf("span = %q, want %q", got, tc.span)
			}
		})
	}
}

func TestMatchStringCarriesNoText(t *testing.T) {
	text := "password=hunter2"
	m, ok := Detect(text)
	if !ok {
		t.Fatal("Detect found nothing")
	}
	if s := m.String(); strings.Contains(s, "hunter2") || s != "key_value[9:16]" {
		t.Fatalf("String() = %q", s)
	}
}

func TestFindMergesOverlaps(t *testing.T) {
	// The JWT is both a key/value and a JWT: one span, not two.
	text := "token=" + jwtToken
	ms := Find(text)
	if len(ms) != 1 || ms[0].Start != len("token=") || ms[0].End != len(text) {
		t.Fatalf("Find = %v", ms)
	}
}
