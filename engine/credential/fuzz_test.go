package credential

import (
	"testing"
	"unicode/utf8"
)

func addSeeds(f *testing.F) {
	for _, tc := range detectCases {
		f.Add(tc.text)
	}
	f.Add("password=" + ghToken + " x")
	f.Add("a" + ghToken + "-" + jwtToken)
	f.Add("Bearer x/Bearer 0123456789abcdefghij")
	f.Add("https://u:p@h https://u:[redacted]@h")
}

// checkSpans asserts that matches are sorted, disjoint and inside the text,
// and start and end on rune boundaries of valid UTF-8.
func checkSpans(t *testing.T, text string, ms []Match) {
	t.Helper()
	last := -1
	for _, m := range ms {
		if m.Start <= last || m.Start >= m.End || m.End > len(text) {
			t.Fatalf("bad spans %v for %d bytes", ms, len(text))
		}
		if utf8.ValidString(text) && (!utf8.RuneStart(text[m.Start]) || (m.End < len(text) && !utf8.RuneStart(text[m.End]))) {
			t.Fatalf("span %v cuts a rune", m)
		}
		last = m.End
	}
}

func FuzzDetect(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		ms := Find(text)
		checkSpans(t, text, ms)
		m, ok := Detect(text)
		if len(ms) > 0 && (!ok || m != ms[0]) {
			t.Fatalf("Detect = %v, %v; Find = %v", m, ok, ms)
		}
		if ok && (m.Start < 0 || m.End > len(text) || m.Start >= m.End) {
			t.Fatalf("bad span %v", m)
		}
	})
}

func FuzzRedact(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		got, n := Redact(text)
		if n < 0 {
			t.Fatalf("negative count %d", n)
		}
		if ms := Find(got); len(ms) != 0 {
			t.Fatalf("Redact output still holds %v", ms)
		}
		if m, ok := Detect(got); ok && m.Kind != KindPasswordLike {
			t.Fatalf("Detect flags Redact output: %v", m)
		}
		again, n2 := Redact(got)
		if again != got || n2 != 0 {
			t.Fatalf("Redact is not idempotent")
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 in, invalid out")
		}
		if n == 0 && got != text {
			t.Fatalf("count 0 but text changed")
		}
	})
}
