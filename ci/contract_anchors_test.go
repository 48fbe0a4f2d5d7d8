package ci

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"unicode"
)

// Comments, docs and schema descriptions cite the rule they implement as
// docs/contract.md#<anchor>. These tests keep every such citation pointing
// at a heading that exists, and keep citations by section number of
// documents outside the repository from coming back.

// contractCitation matches a citation of docs/contract.md and captures its
// anchor: "docs/contract.md#tokens" in sources, "contract.md#tokens" in a
// relative Markdown link, "](#tokens)" inside docs/contract.md itself.
var contractCitation = regexp.MustCompile(`contract\.md#([A-Za-z0-9_-]+)`)

var localLink = regexp.MustCompile(`\]\(#([A-Za-z0-9_-]+)\)`)

// outsideSection matches a section number of a document that is not in the
// repository: a section sign after "contract", "spec" or "design", or
// right after an opening parenthesis (TestOutsideSectionPattern shows
// examples). The sign is written \x{00a7} so that this file matches none.
var outsideSection = regexp.MustCompile(`(?i)\b(contract|spec|design)('s)?\s*\x{00a7}|\(\x{00a7}`)

// headingAnchor is the anchor GitHub gives a Markdown heading: lower case,
// punctuation other than '-' and '_' dropped, spaces become '-'.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestHeadingAnchorIsGitHubs(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Tokens", "tokens"},
		{"Error envelope", "error-envelope"},
		{"Hand-back", "hand-back"},
		{"Credential-looking text", "credential-looking-text"},
		{"What `observe` returns", "what-observe-returns"},
		{"Reads: limits, 2.0", "reads-limits-20"},
		{"  Trailing space  ", "trailing-space"},
	} {
		if got := headingAnchor(c.heading); got != c.want {
			t.Errorf("headingAnchor(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}

// contractAnchors reads the anchors of docs/contract.md's headings. A
// heading whose anchor repeats an earlier one gets GitHub's "-1" suffix.
func contractAnchors(t *testing.T, root string) map[string]bool {
	t.Helper()
	anchors := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range fileLines(t, filepath.Join(root, "docs", "contract.md")) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if fenced || level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		a := headingAnchor(line[level:])
		if n := seen[a]; n > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

// fileLines reads a file as lines.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(src), "\n")
}

// eachCitingLine calls fn with every line of the repository's text files
// that may cite the contract (sources, scripts, docs, schema files), by the
// file's path relative to root and the line's number.
func eachCitingLine(t *testing.T, root string, fn func(rel string, n int, line string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".mjs", ".js", ".sh", ".json", ".py", ".snap":
			rel, _ := filepath.Rel(root, path)
			for i, line := range fileLines(t, path) {
				fn(filepath.ToSlash(rel), i+1, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestContractAnchorsExist: every anchor of docs/contract.md cited anywhere in
// the repository names a heading of docs/contract.md.
func TestContractAnchorsExist(t *testing.T) {
	root := testkit.RepoDir(t)
	anchors := contractAnchors(t, root)
	if len(anchors) < 20 {
		t.Fatalf("docs/contract.md has %d headings; the rules are missing", len(anchors))
	}
	citations := 0
	eachCitingLine(t, root, func(rel string, n int, line string) {
		found := contractCitation.FindAllStringSubmatch(line, -1)
		if rel == "docs/contract.md" {
			found = append(found, localLink.FindAllStringSubmatch(line, -1)...)
		}
		for _, m := range found {
			citations++
			if !anchors[m[1]] {
				t.Errorf("%s:%d cites docs/contract.md#%s, which is no heading of docs/contract.md", rel, n, m[1])
			}
		}
	})
	// The sources cite the contract in dozens of places; finding none means
	// the scan looked in the wrong place, not that all is well.
	if citations < 30 {
		t.Errorf("found %d citations of docs/contract.md, want at least 30", citations)
	}
}

// TestNoCitationsOfOutsideDocuments: a rule is cited by its anchor in
// docs/contract.md, never by a section number of a document the repository
// does not hold.
func TestNoCitationsOfOutsideDocuments(t *testing.T) {
	eachCitingLine(t, testkit.RepoDir(t), func(rel string, n int, line string) {
		if outsideSection.MatchString(line) {
			t.Errorf("%s:%d cites a section of a document outside the repository; cite docs/contract.md#<anchor> instead", rel, n)
		}
	})
}

func TestOutsideSectionPattern(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"// Window targets (contract \u00a72.3).", true},
		{"// the control pipe (spec \u00a78)", true},
		{"// the contract's \u00a72.2 table", true},
		{"// the doctor report (\u00a76).", true},
		{"// Debian ships it once for every package (policy \u00a712.5).", false},
		{"// Window targets (docs/contract.md#window-targets).", false},
	} {
		if got := outsideSection.MatchString(c.line); got != c.want {
			t.Errorf("outsideSection matches %q = %v, want %v", c.line, got, c.want)
		}
	}
}
