package credential

import "strings"

// A PEM armour line is five dashes, a label and five dashes. The label of a
// private key ends in "PRIVATE KEY" (PGP: "PRIVATE KEY BLOCK").
const (
	dashes      = "-----"
	maxLabelLen = 80
)

// privateKeys finds every private key block. A block without its END line
// runs to the end of the text: better to hide too much than half a key.
func (sc *scanner) privateKeys() {
	s := sc.s
	for i := 0; i < len(s); {
		p := strings.Index(s[i:], dashes)
		if p < 0 {
			return
		}
		start := i + p
		labelEnd, ok := armourLine(s, start, "begin ")
		if !ok {
			i = start + 1
			continue
		}
		end := len(s)
		for j := labelEnd; j < len(s); {
			q := strings.Index(s[j:], dashes)
			if q < 0 {
				break
			}
			if e, ok := armourLine(s, j+q, "end "); ok {
				end = e
				break
			}
			j += q + 1
		}
		sc.add(KindPrivateKey, start, end)
		i = end
	}
}

// armourLine checks for "-----<word><label>-----" at i with a private key
// label and returns the offset after the closing dashes.
func armourLine(s string, i int, word string) (int, bool) {
	j := i + len(dashes)
	if !hasPrefixFold(s[j:], word) {
		return 0, false
	}
	j += len(word)
	limit := min(len(s), j+maxLabelLen)
	k := strings.Index(s[j:limit], dashes)
	if k < 0 {
		return 0, false
	}
	label := strings.TrimSpace(s[j : j+k])
	if !hasSuffixFold(label, "private key") && !hasSuffixFold(label, "private key block") {
		return 0, false
	}
	return j + k + len(dashes), true
}

func hasSuffixFold(s, lower string) bool {
	return len(s) >= len(lower) && hasPrefixFold(s[len(s)-len(lower):], lower)
}
