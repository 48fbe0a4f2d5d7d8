package credential

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		want  string
		count int
	}{
		{"nothing to hide", "Dear Ann, the meeting is at 10.", "Dear Ann, the meeting is at 10.", 0},
		{"empty", "", "", 0},
		{"key value in prose", "login with password=hunter2 today", "login with password=[redacted] today", 1},
		{"json keeps its shape", `{"user": "bob", "password": "hunter 2"}`, `{"user": "bob", "password": "[redacted]"}`, 1},
		{"two pairs", "user=bob pwd=abc token: xyz", "user=bob pwd=[redacted] token: [redacted]", 2},
		{"bearer header", "Authorization: Bearer abc.def\nHost: x", "Authorization: [redacted]\nHost: x", 1},
		{"token in a sentence", "push with " + ghToken + ", please", "push with [redacted], please", 1},
		{"jwt", "jwt " + jwtToken + " end", "jwt [redacted] end", 1},
		{"private key block", "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\nBBBB\n-----END OPENSSH PRIVATE KEY-----\nthanks", "key:\n[redacted]\nthanks", 1},
		{"url password", "clone https://bob:s3cret@example.com/repo.git", "clone https://bob:[redacted]@example.com/repo.git", 1},
		{"single word is not redacted", "Tr0ub4dor&3xyzQW", "Tr0ub4dor&3xyzQW", 0},
		{"single word in prose is not redacted", "the word Tr0ub4dor&3xyzQW is odd", "the word Tr0ub4dor&3xyzQW is odd", 0},
		{"overlapping rules count once", "token=" + jwtToken, "token=[redacted]", 1},
		{"already redacted", "password=[redacted]", "password=[redacted]", 0},
		{"non ascii around", "パスワード password=秘密123 です", "パスワード password=[redacted] です", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, n := Redact(tc.text)
			if got != tc.want || n != tc.count {
				t.Fatalf("Redact = %q, %d; want %q, %d", got, n, tc.want, tc.count)
			}
			again, n2 := Redact(got)
			if again != got || n2 != 0 {
				t.Fatalf("Redact is not idempotent: %q, %d", again, n2)
			}
		})
	}
}

// Every positive of the Detect table that an in-prose rule finds must be
// gone after Redact, also when the text sits inside a longer document.
func TestRedactHidesEveryDetectPositive(t *testing.T) {
	for _, tc := range detectCases {
		if tc.want == "" || tc.want == KindPasswordLike {
			continue
		}
		for _, text := range []string{tc.text, "Hello,\n" + tc.text + "\nBye."} {
			got, n := Redact(text)
			if n == 0 || len(Find(got)) != 0 {
				t.Errorf("%s: Redact left %v (count %d)", tc.name, Find(got), n)
			}
		}
	}
}

func TestRedactBoundsPasses(t *testing.T) {
	// Whatever Redact returns, a second look finds nothing.
	text := strings.Repeat("pwd=a ", 100)
	got, n := Redact(text)
	if n != 100 || len(Find(got)) != 0 {
		t.Fatalf("Redact count %d, left %v", n, Find(got))
	}
}
