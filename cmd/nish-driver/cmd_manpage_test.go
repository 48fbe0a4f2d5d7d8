package main

import (
	"bytes"
	"go/ast"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// manPage runs the binary's hidden manpage command with a fixed date.
func manPage(t *testing.T) string {
	t.Helper()
	out, errOut, exit := run(t, append(noDesktopEnv(t), "SOURCE_DATE_EPOCH=1764460800"), "manpage")
	if exit != 0 {
		t.Fatalf("manpage exit %d: %s", exit, errOut)
	}
	return out
}

// cliModel is the command line's model, as kong builds it for main.
func cliModel(t *testing.T) *kong.Application {
	t.Helper()
	k, err := kong.New(&cli{}, kongOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	return k.Model
}

// commandSection is the part of page that describes one command: from its
// subsection heading to the next heading.
func commandSection(page, path string) (string, bool) {
	head := `.SS "` + escapeHyphens(path)
	i := strings.Index(page, head)
	if i < 0 {
		return "", false
	}
	rest := page[i+len(head):]
	if j := strings.Index(rest, "\n.S"); j >= 0 {
		rest = rest[:j]
	}
	return rest, true
}

func TestManPageNamesEveryCommandAndFlag(t *testing.T) {
	page := manPage(t)
	app := cliModel(t)
	commands := visibleCommands(app.Node)
	names := map[string]bool{}
	for _, c := range commands {
		names[c.Name] = true
	}
	// The walk itself must find the commands a person uses.
	for _, want := range []string{"mcp", "daemon", "stop", "doctor", "manifest", "sandbox", "version"} {
		if !names[want] {
			t.Errorf("the model walk misses command %q", want)
		}
	}
	for _, cmd := range commands {
		t.Run(cmd.Name, func(t *testing.T) {
			section, ok := commandSection(page, cmd.FullPath())
			if !ok {
				t.Fatalf("no subsection for %q", cmd.FullPath())
			}
			if cmd.Help != "" && !strings.Contains(section, roffText(cmd.Help)) {
				t.Errorf("%s: help text missing", cmd.Name)
			}
			for _, f := range visibleFlags(cmd.Flags) {
				if !strings.Contains(section, `\fB\-\-`+escapeHyphens(f.Name)+`\fR`) {
					t.Errorf("%s: flag --%s missing", cmd.Name, f.Name)
				}
				if f.HasDefault && f.Default != "" && !strings.Contains(section, "Default: "+roffText(f.Default)+".") {
					t.Errorf("%s: default of --%s missing", cmd.Name, f.Name)
				}
			}
			for _, p := range cmd.Positional {
				if !strings.Contains(section, ".I \""+p.Name) {
					t.Errorf("%s: argument <%s> missing", cmd.Name, p.Name)
				}
			}
		})
	}
	t.Run("global flags", func(t *testing.T) {
		for _, f := range visibleFlags(app.Flags) {
			if !strings.Contains(page, `\fB\-\-`+escapeHyphens(f.Name)+`\fR`) {
				t.Errorf("global flag --%s missing", f.Name)
			}
		}
	})
	t.Run("hidden commands stay hidden", func(t *testing.T) {
		for _, c := range app.Children {
			if c.Hidden && strings.Contains(page, `.SS "nish\-driver `+escapeHyphens(c.Name)) {
				t.Errorf("hidden command %q is on the page", c.Name)
			}
		}
	})
	t.Run("dated by SOURCE_DATE_EPOCH", func(t *testing.T) {
		if !strings.Contains(page, `.TH "NISH\-DRIVER" 1 2025-11-30 `) {
			t.Errorf("title line: %q", strings.SplitN(page, "\n", 3)[1])
		}
	})
}

// TestManPageRendersWithoutWarnings renders the page the way lintian
// checks it: man-db with warnings on, in UTF-8. Any message is a failure.
func TestManPageRendersWithoutWarnings(t *testing.T) {
	page := manPage(t)
	cmd := exec.Command("man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", "-")
	cmd.Env = append(noDesktopEnv(t), "LC_ALL=C.UTF-8", "MANROFFSEQ=", "MANWIDTH=80")
	cmd.Stdin = strings.NewReader(page)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("man (package man-db, installed by make test) failed: %v\n%s", err, errOut.String())
	}
	if errOut.Len() != 0 {
		t.Errorf("man warns:\n%s", errOut.String())
	}
	// The troff output names the page in its header; plain text would not
	// come out of -Z, so look for the words themselves.
	for _, want := range []string{"NISH", "DRIVER", "doctor", "sandbox"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("rendered output lacks %q", want)
		}
	}
}

func TestRoffText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain words", "Print the versions.", "Print the versions."},
		{"backslash", `a\b`, `a\eb`},
		{"double quote", `say "hi"`, `say \(dqhi\(dq`},
		{"leading dot", ".hidden", `\&.hidden`},
		{"leading apostrophe", "'quoted'", `\&'quoted'`},
		{"option hyphens", "use --control-out and -h", `use \-\-control\-out and \-h`},
		{"word hyphens stay", "in-memory demo", "in-memory demo"},
		{"option in parentheses", "(with --json)", `(with \-\-json)`},
		{"non-ASCII", "a — b", `a \[u2014] b`},
		{"newline and tab", "a\nb\tc", "a b c"},
		{"control character dropped", "a\x07b", "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := roffText(tt.in); got != tt.want {
				t.Errorf("roffText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestManPageSaysEveryExitStatus: the page lists every status the program
// ends with. The commands return named exitStatus constants (a status
// written as a number in a command is refused, so that each is named in
// the table), and a command line kong cannot parse ends with the status
// the table gives it.
func TestManPageSaysEveryExitStatus(t *testing.T) {
	listed := map[exitStatus]bool{}
	for _, e := range exitStatuses {
		listed[e.status] = true
	}
	fset, files := testkit.GoSources(t, "cmd/nish-driver")
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "exitStatus" && len(n.Args) == 1 {
					if _, lit := n.Args[0].(*ast.BasicLit); lit {
						t.Errorf("%s: an exit status written as a number; name it among the exitStatus constants", fset.Position(n.Pos()))
					}
				}
			case *ast.ValueSpec:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "exitStatus" {
					for i, v := range n.Values {
						lit, ok := v.(*ast.BasicLit)
						code, err := strconv.Atoi(lit.Value)
						if !ok || err != nil {
							t.Errorf("%s: %s is not a plain number", fset.Position(v.Pos()), n.Names[i].Name)
							continue
						}
						if !listed[exitStatus(code)] {
							t.Errorf("%s = %d is not in exitStatuses (the man page's EXIT STATUS)", n.Names[i].Name, code)
						}
					}
				}
			}
			return true
		})
	}
	page := manPage(t)
	for _, e := range exitStatuses {
		if !strings.Contains(page, ".B "+strconv.Itoa(int(e.status))+"\n") {
			t.Errorf("the page does not list exit status %d", e.status)
		}
	}
	_, _, exit := run(t, noDesktopEnv(t), "--no-such-flag")
	if exit != int(exitBadCommandLine) {
		t.Errorf("a command line that does not parse ends with %d, not exitBadCommandLine %d", exit, exitBadCommandLine)
	}
}

// TestManPageNamesEveryEnvironmentVariable: each variable the shipped
// code reads (os.Getenv, or a Getenv handed down in options) is in the
// page's ENVIRONMENT section. Test support (internal/sandbox,
// internal/testkit, ci) is not the program.
func TestManPageNamesEveryEnvironmentVariable(t *testing.T) {
	page := manPage(t)
	var env string
	if i := strings.Index(page, ".SH ENVIRONMENT"); i >= 0 {
		env = page[i:]
		if j := strings.Index(env[1:], ".SH "); j >= 0 {
			env = env[:j+1]
		}
	} else {
		t.Fatal("the page has no ENVIRONMENT section")
	}
	read := regexp.MustCompile(`(?i)getenv\("([A-Z_][A-Z0-9_]*)"\)`)
	root := filepath.Join("..", "..")
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch rel {
			case ".git", "ci", "e2e", filepath.Join("internal", "sandbox"), filepath.Join("internal", "testkit"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range read.FindAllSubmatch(src, -1) {
			seen++
			if name := string(m[1]); !strings.Contains(env, name) {
				t.Errorf("%s reads $%s, which the man page's ENVIRONMENT does not name", rel, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no environment read found: the scan looks in the wrong place")
	}
}
