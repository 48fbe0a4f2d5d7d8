package main

import (
	"errors"
	"regexp"
	"strings"
)

// marker recognises one license by phrases its text always contains.
type marker struct {
	name    string
	phrases []string
	without []string // phrases that mean another license of the family
}

// markers are checked in order; every one that matches is named.
var markers = []marker{
	{name: "Apache-2.0", phrases: []string{"Apache License", "Version 2.0"}},
	{name: "MIT", phrases: []string{"Permission is hereby granted, free of charge"}},
	{name: "BSD-3-clause", phrases: []string{"Redistribution and use in source and binary forms", "Neither the name"}},
	{name: "BSD-2-clause", phrases: []string{"Redistribution and use in source and binary forms"}, without: []string{"Neither the name"}},
}

// identify names the license(s) of a text in DEP-5 short names, joined
// with " and " when a file combines licenses. A text that matches none is
// an error: a module with an unknown license must be looked at by a person
// before it ships.
func identify(text string) (string, error) {
	flat := strings.Join(strings.Fields(text), " ")
	var names []string
	for _, m := range markers {
		if containsAll(flat, m.phrases) && !containsAny(flat, m.without) {
			names = append(names, m.name)
		}
	}
	if len(names) == 0 {
		return "", errors.New("license not recognised (teach ci/gencopyright/identify.go, after reading it)")
	}
	return strings.Join(names, " and "), nil
}

func containsAll(s string, phrases []string) bool {
	for _, p := range phrases {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func containsAny(s string, phrases []string) bool {
	for _, p := range phrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// copyrightLine is a copyright statement: "Copyright", an optional (c) or
// ©, then a year. A license's own use of the word ("the copyright notice")
// has no year after it.
var copyrightLine = regexp.MustCompile(`(?i)^\s*copyright\s*(?:\(c\)|©)?\s*([0-9]{4}.*)$`)

// copyrightHolders returns the text's copyright statements without the
// word "Copyright" and without "All rights reserved", each once.
func copyrightHolders(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		m := copyrightLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		h := strings.TrimSpace(m[1])
		h = strings.TrimSpace(strings.TrimSuffix(h, "All rights reserved."))
		h = strings.TrimSpace(strings.TrimSuffix(h, "."))
		if h != "" && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}
