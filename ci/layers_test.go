package ci

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The purity rule's other half: the native layers below the engine stand
// on their own. native/atspi and native/xlib speak their own types and
// errors and know neither the engine nor each other; package native alone
// translates between them and the engine. These tests keep it that way,
// for the layers' production code (through their whole dependency
// closure) and for every one of their source files, tests included.

// nativeLayers are the packages that must stay apart, relative to the
// module.
var nativeLayers = []string{"native/atspi", "native/xlib", "native/mutter", "native/pipewire"}

// layerImportViolation says why package layer (module-relative) may not
// import path, or "" when it may.
func layerImportViolation(layer, path string) string {
	under := func(rel string) bool {
		return path == modulePath+"/"+rel || strings.HasPrefix(path, modulePath+"/"+rel+"/")
	}
	switch {
	case under("engine"):
		return "the engine"
	case path == modulePath+"/native":
		return "the backend that assembles the layers"
	case under("native") && !under(layer):
		return "another native layer"
	}
	return ""
}

// layerDepViolations checks a layer's dependency closure.
func layerDepViolations(layer string, pkgs []listedPackage) []string {
	return closureViolations(pkgs, func(path string) string { return layerImportViolation(layer, path) }, "is in "+layer+"'s dependencies")
}

// layerSourceViolations checks the import lines of a layer's sources.
func layerSourceViolations(layer string, files map[string]string) []string {
	return importViolations(files, layer+"/", func(path string) string { return layerImportViolation(layer, path) })
}

func TestLayerCheckersCatchForbiddenImports(t *testing.T) {
	runDepCases(t, []depCase{
		{"own packages and the bus library", "native/atspi", []listedPackage{
			{ImportPath: modulePath + "/native/atspi"},
			{ImportPath: "github.com/godbus/dbus/v5"},
		}, 0},
		{"the engine", "native/atspi", []listedPackage{{ImportPath: modulePath + "/engine"}}, 1},
		{"an engine package", "native/xlib", []listedPackage{{ImportPath: modulePath + "/engine/doctor"}}, 1},
		{"the sibling", "native/xlib", []listedPackage{{ImportPath: modulePath + "/native/atspi"}}, 1},
		{"the parent", "native/atspi", []listedPackage{{ImportPath: modulePath + "/native"}}, 1},
		{"a name that only starts like the engine", "native/atspi", []listedPackage{{ImportPath: modulePath + "/engineish"}}, 0},
	}, func(tc depCase) []string { return layerDepViolations(tc.layer, tc.pkgs) })
	runSourceCases(t, []sourceCase{
		{"plain imports", "package atspi\nimport (\n\t\"context\"\n\t\"github.com/godbus/dbus/v5\"\n)\n", 0},
		{"the engine in a test", "package atspi\nimport \"github.com/nish-driver/nish-driver/engine\"\n", 1},
		{"the sibling behind a build tag", "//go:build ignore\n\npackage atspi\nimport _ \"github.com/nish-driver/nish-driver/native/xlib\"\n", 1},
		{"the engine renamed", "package atspi\nimport e \"github.com/nish-driver/nish-driver/engine\"\nvar _ e.Code\n", 1},
	}, func(src string) []string {
		return layerSourceViolations("native/atspi", map[string]string{"x_test.go": src})
	})
}

// TestNativeLayersImportNoEngineNorEachOther lists each layer's dependency
// closure with the go tool and checks it.
func TestNativeLayersImportNoEngineNorEachOther(t *testing.T) {
	root := testkit.RepoDir(t)
	for _, layer := range nativeLayers {
		t.Run(layer, func(t *testing.T) {
			for _, v := range layerDepViolations(layer, listPackageDeps(t, root, layer)) {
				t.Error(v)
			}
		})
	}
}

// TestNativeLayerSourcesImportNoEngineNorEachOther reads every Go file of
// each layer, tests and other platforms' files included.
func TestNativeLayerSourcesImportNoEngineNorEachOther(t *testing.T) {
	root := testkit.RepoDir(t)
	for _, layer := range nativeLayers {
		t.Run(layer, func(t *testing.T) {
			files := goSources(t, filepath.Join(root, filepath.FromSlash(layer)), true)
			for _, v := range layerSourceViolations(layer, files) {
				t.Error(v)
			}
		})
	}
}
