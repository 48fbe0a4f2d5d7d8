package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// module is one linked Go module.
type module struct {
	Path, Version string
}

// render is the whole copyright file: the head as given, then a paragraph
// for the Go standard library and one for each module, in path order.
func render(head, goVersion, goRoot, modCache string, mods []module) (string, error) {
	var b strings.Builder
	b.WriteString(strings.TrimRight(head, "\n"))
	b.WriteString("\n")

	std, err := readLicense(goRoot)
	if err != nil {
		return "", fmt.Errorf("the Go standard library: %w", err)
	}
	if err := writeParagraph(&b, "GOROOT/src/*",
		fmt.Sprintf("The Go standard library and runtime (%s), linked into the binary.", goVersion), std); err != nil {
		return "", fmt.Errorf("the Go standard library: %w", err)
	}

	sorted := append([]module(nil), mods...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, m := range sorted {
		dir, err := moduleDir(modCache, m)
		if err != nil {
			return "", err
		}
		text, err := readLicense(dir)
		if err != nil {
			return "", fmt.Errorf("module %s %s: %w", m.Path, m.Version, err)
		}
		if err := writeParagraph(&b, "vendor/"+m.Path+"/*",
			fmt.Sprintf("Go module %s %s, linked into the binary.", m.Path, m.Version), text); err != nil {
			return "", fmt.Errorf("module %s %s: %w", m.Path, m.Version, err)
		}
	}
	return b.String(), nil
}

// writeParagraph writes one Files paragraph for a license text.
func writeParagraph(b *strings.Builder, files, comment, text string) error {
	name, err := identify(text)
	if err != nil {
		return err
	}
	holders := copyrightHolders(text)
	if len(holders) == 0 {
		holders = []string{"The authors of " + strings.TrimPrefix(strings.TrimSuffix(files, "/*"), "vendor/")}
	}
	fmt.Fprintf(b, "\nFiles: %s\n", files)
	fmt.Fprintf(b, "Copyright: %s\n", strings.Join(holders, "\n "))
	fmt.Fprintf(b, "License: %s\n", name)
	b.WriteString(continuation(shortenApache(text)))
	fmt.Fprintf(b, "Comment: %s\n", comment)
	return nil
}

// continuation formats text as a DEP-5 field's continuation lines: each line
// indented by one space, an empty line written as " .".
func continuation(text string) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")), "\n")
	for _, line := range lines {
		line = strings.TrimRight(strings.ReplaceAll(line, "\t", "    "), " ")
		if line == "" {
			b.WriteString(" .\n")
			continue
		}
		b.WriteString(" " + line + "\n")
	}
	return b.String()
}

// licenseNames are the file names, case-insensitive and before any
// extension or suffix, that hold a module's license.
var licenseNames = []string{"license", "licence", "copying"}

// readLicense returns the license files at the top of dir, joined.
func readLicense(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var texts []string
	for _, e := range entries {
		if e.IsDir() || !isLicenseName(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", err
		}
		texts = append(texts, string(b))
	}
	if len(texts) == 0 {
		return "", fmt.Errorf("no license file in %s", dir)
	}
	return strings.Join(texts, "\n\n"), nil
}

func isLicenseName(name string) bool {
	lower := strings.ToLower(name)
	for _, n := range licenseNames {
		if strings.HasPrefix(lower, n) {
			return true
		}
	}
	return false
}

// moduleDir is where the module cache keeps a module version's files. The
// cache spells capital letters as '!' and the lower-case letter, so paths
// stay distinct on case-insensitive file systems.
func moduleDir(modCache string, m module) (string, error) {
	dir := filepath.Join(modCache, escapeModPath(m.Path)+"@"+escapeModPath(m.Version))
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("module %s %s is not in the module cache (%s): run go mod download", m.Path, m.Version, dir)
	}
	return dir, nil
}

func escapeModPath(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			b.WriteRune(r + ('a' - 'A'))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
