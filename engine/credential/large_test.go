package credential

import (
	"math/rand/v2"
	"strings"
	"testing"
)

const mib = 1 << 20

// repeatTo repeats s until the result holds about n bytes.
func repeatTo(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// Each input is shaped to make a careless scanner quadratic: the same rule
// starting again and again inside one long word or value. The test checks
// results, not time; a quadratic scanner makes it run for minutes instead
// of well under a second.
func TestLargeInputsFinish(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, mib)
	const alphabet = "abcXYZ019 _-.:=/@\"'\n{[*"
	for i := range random {
		random[i] = alphabet[rng.IntN(len(alphabet))]
	}
	inputs := map[string]string{
		"random":        string(random),
		"sk dashes":     repeatTo("sk-", mib),
		"eyJ dashes":    repeatTo("eyJ-", mib),
		"jwt chains":    repeatTo("eyJabcdefghij.eyJ", mib),
		"pwd chain":     repeatTo("pwd=", mib),
		"colons":        repeatTo("secret:", mib),
		"begin headers": repeatTo("-----BEGIN ", mib),
		"dashes":        repeatTo("-", mib),
		"scheme chain":  repeatTo("a://", mib),
		"bearer chain":  repeatTo("Bearer x/", mib),
		"quotes":        repeatTo(`"password":"`, mib),
		"one word":      repeatTo("aB3$", mib),
		"prose":         repeatTo("the token ring and my password is long. ", mib),
	}
	for name, text := range inputs {
		t.Run(name, func(t *testing.T) {
			Detect(text)
			got, _ := Redact(text)
			if len(Find(got)) != 0 {
				t.Fatal("Redact left a credential-looking span")
			}
		})
	}
}

func TestLargeInputKeepsProse(t *testing.T) {
	text := repeatTo("the token ring and my password is long. ", mib)
	if m, ok := Detect(text); ok {
		t.Fatalf("prose flagged: %v", m)
	}
	if got, n := Redact(text); n != 0 || got != text {
		t.Fatalf("prose changed: %d spans", n)
	}
}
