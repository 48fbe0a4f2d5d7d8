package engine_test

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/schema"
)

// emittedCodes scans every non-test Go source of the module for the codes it
// can emit: Code constants it names, and string literals handed to Errf,
// Wrap, a Code conversion or a Code field.
func emittedCodes(t *testing.T, root string) (consts map[string][]string, literals map[string][]string) {
	t.Helper()
	consts, literals = map[string][]string{}, map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "testdata", ".git", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, perr := parser.ParseFile(fset, path, nil, 0)
		if perr != nil {
			return perr
		}
		rel, _ := filepath.Rel(root, path)
		inEngine := f.Name.Name == "engine"
		isCode := func(name string) bool {
			return codeConst.MatchString(name) && name != "CodeInfo" && name != "Codes"
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "engine" && isCode(n.Sel.Name) {
					consts[n.Sel.Name] = append(consts[n.Sel.Name], rel)
				}
			case *ast.Ident:
				if inEngine && isCode(n.Name) {
					consts[n.Name] = append(consts[n.Name], rel)
				}
			case *ast.CallExpr:
				name := callName(n.Fun)
				if (name == "Errf" || name == "Wrap" || name == "Code") && len(n.Args) > 0 {
					if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						literals[v] = append(literals[v], rel)
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Code" {
					if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						literals[v] = append(literals[v], rel)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return consts, literals
}

var codeConst = regexp.MustCompile(`^Code[A-Z][A-Za-z]+$`)

func callName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// constName maps a wire code to its Go constant name.
func constName(c engine.Code) string {
	var b strings.Builder
	b.WriteString("Code")
	for _, part := range strings.Split(string(c), "_") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// docTable reads docs/error-codes.md's table: code -> retry.
func docTable(t *testing.T, root string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "error-codes.md"))
	if err != nil {
		t.Fatalf("docs/error-codes.md: %v", err)
	}
	defer f.Close()
	rows := map[string]string{}
	row := regexp.MustCompile(`^\| ([a-z_]+) \| ([a-z_]+) \|`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil && m[1] != "code" {
			rows[m[1]] = m[2]
		}
	}
	return rows
}

func TestEveryErrorCodeHasADisposition(t *testing.T) {
	root := testkit.RepoDir(t)
	table := map[string]engine.CodeInfo{}
	byConst := map[string]engine.Code{}
	for _, c := range engine.Codes() {
		table[string(c.Code)] = c
		byConst[constName(c.Code)] = c.Code
		switch c.Retry {
		case engine.RetrySafe, engine.RetryUnsafe, engine.RetryAfterRefresh, engine.RetryNever:
		default:
			t.Errorf("%s: retry %q is not a disposition", c.Code, c.Retry)
		}
		s := c.Suggestion
		// One line of fixed text; user_took_over's is the contract's own
		// two short sentences.
		if s == "" || strings.ContainsAny(s, "\n\r") || !strings.HasSuffix(s, ".") ||
			(strings.Count(s, ". ") > 0 && c.Code != engine.CodeUserTookOver) {
			t.Errorf("%s: the suggestion must be one sentence on one line: %q", c.Code, s)
		}
	}

	consts, literals := emittedCodes(t, root)
	for name, where := range consts {
		if _, ok := byConst[name]; !ok {
			t.Errorf("%s (used in %v) is not a code of the table", name, where[0])
		}
	}
	for lit, where := range literals {
		if _, ok := table[lit]; !ok {
			t.Errorf("code %q emitted in %s is not in the table", lit, where[0])
		}
	}
	if len(consts) == 0 {
		t.Fatal("the scan found no emitted codes; the scanner is broken")
	}

	docs := docTable(t, root)
	for code, info := range table {
		retry, ok := docs[code]
		if !ok {
			t.Errorf("%s has no row in docs/error-codes.md", code)
			continue
		}
		if retry != string(info.Retry) {
			t.Errorf("%s: docs say retry %s, the table says %s", code, retry, info.Retry)
		}
	}
	for code := range docs {
		if _, ok := table[code]; !ok {
			t.Errorf("docs/error-codes.md lists %s, which the table lacks", code)
		}
	}
}

func TestEnvelopeText(t *testing.T) {
	e := engine.Errf(engine.CodeAmbiguousTarget, "2 approved windows match app")
	got := e.Text()
	want := "ambiguous_target: 2 approved windows match app [retry: never] Pick one of the candidates and call again with its pid and window_id."
	if got != want {
		t.Fatalf("text:\n got %q\nwant %q", got, want)
	}
	if env := e.Envelope(); env.OK || env.Error.Disposition.Retry != engine.RetryNever {
		t.Fatalf("envelope: %+v", env)
	}
	if u := (&engine.Error{Code: "made_up", Message: "x"}).Body(); u.Code != engine.CodeInternal {
		t.Fatalf("an undeclared code must render as internal, got %s", u.Code)
	}
	if m := engine.Errf(engine.CodeInternal, "a\nb").Message; strings.Contains(m, "\n") {
		t.Fatalf("messages are one line: %q", m)
	}
}

// The error schema (schema/error.json) lists the table's codes, in its
// order, and every retry the table uses; every code renders an envelope
// the schema accepts.
func TestTheErrorSchemaHoldsTheTable(t *testing.T) {
	var doc struct {
		Definitions struct {
			Body struct {
				Properties struct {
					Code        struct{ Enum []string } `json:"code"`
					Disposition struct {
						Properties struct {
							Retry struct{ Enum []string } `json:"retry"`
						} `json:"properties"`
					} `json:"disposition"`
				} `json:"properties"`
			} `json:"error_body"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(schema.Error(), &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Definitions.Body.Properties
	var codes []string
	for _, c := range engine.Codes() {
		codes = append(codes, string(c.Code))
		if !slices.Contains(props.Disposition.Properties.Retry.Enum, string(c.Retry)) {
			t.Errorf("%s: retry %q is not in the schema's %v", c.Code, c.Retry, props.Disposition.Properties.Retry.Enum)
		}
		if err := schema.ValidateError(engine.Errf(c.Code, "something about pid %d", 42).Envelope()); err != nil {
			t.Errorf("%s: %v", c.Code, err)
		}
	}
	if !slices.Equal(props.Code.Enum, codes) {
		t.Errorf("the error schema's codes %v\nwant the table's %v", props.Code.Enum, codes)
	}
}
