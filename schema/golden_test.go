package schema

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// update rewrites testdata/golden from the embedded schemas:
// go test ./schema -update. Review the diff before committing it.
var update = flag.Bool("update", false, "rewrite testdata/golden from the embedded schemas")

const goldenDir = "testdata/golden"

// canonical renders a schema with sorted keys and two-space indents, so the
// golden diff shows what a change means rather than how it was typed.
func canonical(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// goldenFiles lists the golden files on disk, as names relative to goldenDir.
func goldenFiles(t *testing.T) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(goldenDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(goldenDir, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

func TestGoldenSchemas(t *testing.T) {
	if len(loaded) == 0 {
		t.Fatal("no schemas embedded")
	}
	for name := range loaded {
		// Read the file as embedded, not the compacted copy, so the golden
		// check covers exactly what was compiled in.
		raw, err := files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := canonical(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(goldenDir, filepath.FromSlash(name))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no golden file (run go test ./schema -update and review the diff): %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s; if the change is intended, run go test ./schema -update and review the diff\n%s",
				name, path, firstDifference(got, want))
		}
	}
	for _, g := range goldenFiles(t) {
		if _, ok := loaded[g]; ok {
			continue
		}
		if *update {
			if err := os.Remove(filepath.Join(goldenDir, filepath.FromSlash(g))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("golden file %s has no embedded schema (run go test ./schema -update)", g)
	}
}

// firstDifference shows the first line where golden and current differ.
func firstDifference(golden, current []byte) string {
	g := strings.Split(string(golden), "\n")
	c := strings.Split(string(current), "\n")
	for i := 0; i < len(g) || i < len(c); i++ {
		var gl, cl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(c) {
			cl = c[i]
		}
		if gl != cl {
			return "line " + fmtInt(i+1) + ":\n  golden:  " + gl + "\n  current: " + cl
		}
	}
	return "(no line differs)"
}

func TestCanonicalFormIgnoresLayoutOnly(t *testing.T) {
	a, err := canonical([]byte(`{"b": 1, "a": {"y": "<x>", "x": 2.50}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := canonical([]byte("{\"a\":{\"x\":2.50,\"y\":\"<x>\"},\n\"b\":1}"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("layout changed the canonical form:\n%s\n%s", a, b)
	}
	want := "{\n  \"a\": {\n    \"x\": 2.50,\n    \"y\": \"<x>\"\n  },\n  \"b\": 1\n}\n"
	if string(a) != want {
		t.Fatalf("canonical form = %q, want %q", a, want)
	}
	c, _ := canonical([]byte(`{"b": 2, "a": {"y": "<x>", "x": 2.50}}`))
	if bytes.Equal(a, c) {
		t.Fatal("a changed value kept the same canonical form")
	}
}
