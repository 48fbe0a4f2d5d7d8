package utf8cut

import "testing"

func TestCut(t *testing.T) {
	cases := []struct {
		name string
		s    string
		n    int
		want string
		cut  bool
	}{
		{"no bound", "héllo", 0, "héllo", false},
		{"a negative bound is none", "héllo", -1, "héllo", false},
		{"shorter than the bound", "abc", 4, "abc", false},
		{"exactly the bound", "abcd", 4, "abcd", false},
		{"ASCII cut at the bound", "abcdef", 4, "abcd", true},
		{"bound on a character's start", "ab€cd", 2, "ab", true},
		{"bound inside a two-byte character", "aé", 2, "a", true},
		{"bound inside a three-byte character", "ab€", 4, "ab", true},
		{"bound inside a four-byte character", "a😀b", 3, "a", true},
		{"bound after a whole character", "a😀b", 5, "a😀", true},
		{"first character longer than the bound", "😀", 2, "", true},
		{"invalid byte is a start", "a\xffbc", 2, "a\xff", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, cut := Cut(c.s, c.n)
			if got != c.want || cut != c.cut {
				t.Errorf("Cut(%q, %d) = %q, %v; want %q, %v", c.s, c.n, got, cut, c.want, c.cut)
			}
		})
	}
}
