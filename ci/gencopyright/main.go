// Command gencopyright writes the Debian package's copyright file in the
// machine-readable format (DEP-5). The binary carries the Go standard
// library and every Go module it was built from, so the file has one
// paragraph for each, made from the license file that module itself ships.
// The module list comes from the binary's own build information, so the file
// names exactly what was linked in.
//
//	go run ./ci/gencopyright -head packaging/copyright.head -binary bin/nish-driver
package main

import (
	"debug/buildinfo"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	head := flag.String("head", "", "the file's first part: the header paragraph and the project's own Files paragraph")
	binary := flag.String("binary", "", "the Go binary whose linked modules are listed")
	modCache := flag.String("gomodcache", "", "the Go module cache (default: go env GOMODCACHE)")
	goRoot := flag.String("goroot", "", "the Go toolchain the binary was built with (default: go env GOROOT)")
	flag.Parse()
	if *head == "" || *binary == "" {
		fmt.Fprintln(os.Stderr, "gencopyright: -head and -binary are required")
		os.Exit(2)
	}
	if err := run(*head, *binary, *modCache, *goRoot); err != nil {
		fmt.Fprintln(os.Stderr, "gencopyright:", err)
		os.Exit(1)
	}
}

func run(headPath, binary, modCache, goRoot string) error {
	var err error
	if modCache == "" {
		if modCache, err = goEnv("GOMODCACHE"); err != nil {
			return err
		}
	}
	if goRoot == "" {
		if goRoot, err = goEnv("GOROOT"); err != nil {
			return err
		}
	}
	head, err := os.ReadFile(headPath)
	if err != nil {
		return err
	}
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		return fmt.Errorf("reading the build information of %s: %w", binary, err)
	}
	var linked []module
	for _, dep := range info.Deps {
		m := module{Path: dep.Path, Version: dep.Version}
		if dep.Replace != nil {
			m = module{Path: dep.Replace.Path, Version: dep.Replace.Version}
		}
		if m.Version == "" {
			return fmt.Errorf("module %s is replaced by a local directory; its license cannot be found in the module cache", dep.Path)
		}
		linked = append(linked, m)
	}
	out, err := render(string(head), info.GoVersion, goRoot, modCache, linked)
	if err != nil {
		return err
	}
	_, err = os.Stdout.WriteString(out)
	return err
}

// goEnv asks the go command for one of its settings.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
