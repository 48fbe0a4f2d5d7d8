package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	mitText = `MIT License

Copyright (c) 2021 Example Corp

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software.`
	bsd3Text = `Copyright 2009 The Go Authors.

Redistribution and use in source and binary forms, with or without
modification, are permitted. Neither the name of Google LLC nor the names.`
	bsd2Text = `Copyright (c) 2013, Someone
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted.`
	apacheText = `
                                 Apache License
                           Version 2.0, January 2004

   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION
   1. Definitions.

   END OF TERMS AND CONDITIONS

   APPENDIX: How to apply the Apache License to your work.

   Copyright 2015 xeipuuv

   See the License for the specific language governing permissions and
   limitations under the License.
`
	compoundText = `The project moves from the MIT License to the Apache License.
---
                                 Apache License
                           Version 2.0, January 2004

   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION
   END OF TERMS AND CONDITIONS
---
Copyright (c) 2024 Someone Else
Permission is hereby granted, free of charge, to any person`
)

func TestIdentify(t *testing.T) {
	tests := []struct {
		name, text, want string
		wantErr          bool
	}{
		{"MIT", mitText, "MIT", false},
		{"BSD with a no-endorsement clause", bsd3Text, "BSD-3-clause", false},
		{"BSD without it", bsd2Text, "BSD-2-clause", false},
		{"Apache", apacheText, "Apache-2.0", false},
		{"a file of two licenses names both", compoundText, "Apache-2.0 and MIT", false},
		{"an unknown license is an error", "Do what you like.", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := identify(tt.text)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("identify = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestShortenApache(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"the license with its appendix becomes the pointer", apacheText, "\n" + apacheReference + "\n"},
		{"a preamble and another license stay", compoundText,
			"The project moves from the MIT License to the Apache License.\n---\n" + apacheReference +
				"\n---\nCopyright (c) 2024 Someone Else\nPermission is hereby granted, free of charge, to any person"},
		{"a truncated copy stays whole", "Apache License\nVersion 2.0, January 2004\nTERMS",
			"Apache License\nVersion 2.0, January 2004\nTERMS"},
		{"a mention of the license stays", "Licensed under the Apache License\nVersion 2.0", "Licensed under the Apache License\nVersion 2.0"},
		{"no Apache at all", mitText, mitText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shortenApache(tt.text); got != tt.want {
				t.Errorf("shortenApache =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestCopyrightHolders(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"(c) and a year", mitText, []string{"2021 Example Corp"}},
		{"no (c), final full stop dropped", bsd3Text, []string{"2009 The Go Authors"}},
		{"All rights reserved dropped", "Copyright (C) 2016, Kohei <https://x/>. All rights reserved.", []string{"2016, Kohei <https://x/>"}},
		{"the word inside license terms is not a statement", "the above copyright notice\nCopyright [yyyy] [name]", nil},
		{"repeated statements once, © after the word", "Copyright 2020 A\nCopyright 2020 A\nCopyright © 2022 C", []string{"2020 A", "2022 C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := copyrightHolders(tt.text)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEscapeModPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"github.com/alecthomas/kong", "github.com/alecthomas/kong"},
		{"github.com/BurntSushi/toml", "github.com/!burnt!sushi/toml"},
		{"v0.0.0-20180127040702-4e3ac2762d5f", "v0.0.0-20180127040702-4e3ac2762d5f"},
	}
	for _, tt := range tests {
		if got := escapeModPath(tt.in); got != tt.want {
			t.Errorf("escapeModPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestContinuation(t *testing.T) {
	got := continuation("\nfirst line  \n\n\tindented\r\nlast\n")
	want := " first line\n .\n     indented\n last\n"
	if got != want {
		t.Errorf("continuation = %q, want %q", got, want)
	}
}

// writeTree makes files under dir from a map of relative paths to texts.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRender(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"goroot/LICENSE": bsd3Text,
		"cache/example.com/!upper/mod@v1.0.0/COPYING":            mitText,
		"cache/example.com/apache@v2.0.0/LICENSE-APACHE-2.0.txt": apacheText,
		"cache/example.com/apache@v2.0.0/README.md":              "not a license",
		"cache/example.com/none@v0.1.0/README.md":                "no license here",
		"cache/example.com/anon@v1.0.0/LICENSE":                  "Redistribution and use in source and binary forms are permitted.",
	})
	head := "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\nFiles: *\nCopyright: us\nLicense: ours\n ours\n"
	mods := []module{{"example.com/apache", "v2.0.0"}, {"example.com/Upper/mod", "v1.0.0"}, {"example.com/anon", "v1.0.0"}}

	out, err := render(head, "go1.26.8", filepath.Join(root, "goroot"), filepath.Join(root, "cache"), mods)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		head + "\nFiles: GOROOT/src/*\nCopyright: 2009 The Go Authors\nLicense: BSD-3-clause\n",
		"Comment: The Go standard library and runtime (go1.26.8), linked into the binary.\n",
		"Files: vendor/example.com/Upper/mod/*\nCopyright: 2021 Example Corp\nLicense: MIT\n MIT License\n .\n",
		"Files: vendor/example.com/anon/*\nCopyright: The authors of example.com/anon\nLicense: BSD-2-clause\n",
		"Files: vendor/example.com/apache/*\nCopyright: 2015 xeipuuv\nLicense: Apache-2.0\n " + apacheReference + "\nComment:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "example.com/Upper") > strings.Index(out, "example.com/apache") {
		t.Error("modules are not in path order")
	}
	if strings.Contains(out, "not a license") {
		t.Error("a README was taken for a license")
	}

	t.Run("a module without a license file fails", func(t *testing.T) {
		_, err := render(head, "go1.26.8", filepath.Join(root, "goroot"), filepath.Join(root, "cache"),
			[]module{{"example.com/none", "v0.1.0"}})
		if err == nil || !strings.Contains(err.Error(), "no license file") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a module missing from the cache fails", func(t *testing.T) {
		_, err := render(head, "go1.26.8", filepath.Join(root, "goroot"), filepath.Join(root, "cache"),
			[]module{{"example.com/absent", "v1.0.0"}})
		if err == nil || !strings.Contains(err.Error(), "not in the module cache") {
			t.Errorf("err = %v", err)
		}
	})
}
