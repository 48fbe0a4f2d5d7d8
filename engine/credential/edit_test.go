package credential

import (
	"strings"
	"testing"
)

func TestIntroducedCatchesASecretSplitOverEdits(t *testing.T) {
	doc := "notes\n" + "api_key=" + tok("AK", "IA", "IOSFODNN7EXAMPLE") + "\nregion=eu"
	secretEnd := strings.Index(doc, "\nregion")
	cases := []struct {
		name    string
		text    string
		at, del int
		ins     string
		want    Kind // "" when the edit must pass
	}{
		{"aws key id completed by a second write", "AKIAQWERTY", 10, 0, "UIOPASDFGH", KindTokenPrefix},
		{"aws key id completed at the front", "QWERTYUIOPASDFGH", 0, 0, "AKIA", KindTokenPrefix},
		{"a pair's value typed after its key", "password=", 9, 0, "h", KindKeyValue},
		{"a pair's key typed before its value", "hunter2", 0, 0, "password=", KindKeyValue},
		{"a deletion joins key and value", "passwordd=hunter2", 8, 1, "", KindKeyValue},
		{"a password-like word completed", "Abc123!x", 8, 0, "Yz789#qwerty", KindPasswordLike},
		{"a credential extended", doc, secretEnd, 0, "X", KindKeyValue},
		{"the whole secret typed at once", "", 0, 0, "password=hunter2", KindKeyValue},
		{"prose next to nothing", "hello", 5, 0, " world", ""},
		{"prose before a document's secret", doc, 0, 0, "Hello ", ""},
		{"a new line after a document's secret", doc, secretEnd, 0, "\nnext=1", ""},
		{"a deletion before a document's secret", doc, 0, 1, "", ""},
		{"a key without a value", "pass", 4, 0, "word=", ""},
		{"offsets past the end clamp", "password=", 99, 5, "", ""},
		{"an insertion past the end goes at the end", "password=", 99, 0, "x", KindKeyValue},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, found := Introduced(c.text, c.at, c.del, c.ins)
			if c.want == "" {
				if found {
					t.Fatalf("want no new credential, got %v", m)
				}
				return
			}
			if !found || m.Kind != c.want {
				t.Fatalf("want a new %s, got %v (found %v)", c.want, m, found)
			}
		})
	}
}

// On an empty field every edit is an insertion of the whole text, and
// Introduced agrees with Detect on every case of Detect's table.
func TestIntroducedIntoNothingIsDetect(t *testing.T) {
	for _, c := range detectCases {
		_, want := Detect(c.text)
		if _, got := Introduced("", 0, 0, c.text); got != want {
			t.Errorf("%s: Introduced %v, Detect %v", c.name, got, want)
		}
	}
}
