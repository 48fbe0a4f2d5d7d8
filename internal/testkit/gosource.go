package testkit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// GoSources parses the Go files of a package's folder (dir, from the
// repository's top) that are not tests: what the tests that hold a list,
// a table or a document to the code read. The test fails when the folder
// holds none or one does not parse.
func GoSources(t testing.TB, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(RepoDir(t), dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go source in %s", dir)
	}
	return fset, files
}

// StringConst is a string constant declared in Go source.
type StringConst struct {
	Name  string
	Type  string // the declared type's name, "" when untyped
	Value string
}

// StringConsts lists the string constants the files declare with a
// literal value.
func StringConsts(files []*ast.File) []StringConst {
	var out []StringConst
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				typ := ""
				if id, ok := v.Type.(*ast.Ident); ok {
					typ = id.Name
				}
				for i, n := range v.Names {
					if i >= len(v.Values) {
						continue
					}
					lit, ok := v.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out = append(out, StringConst{Name: n.Name, Type: typ, Value: s})
					}
				}
			}
		}
	}
	return out
}
