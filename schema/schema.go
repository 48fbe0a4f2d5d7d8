// Package schema holds the driver's JSON Schemas (draft-07) as data: the
// input schema tools/list advertises for every tool, the structuredContent
// of every tool's success, the failure envelope and the doctor report. The
// files are embedded so the binary never reads them from disk. Each file is
// the one copy of its schema: what tools/list sends is pinned by the
// toolsnaps of internal/mcpserver, and the other schemas by the tests here
// that hold them to the engine's Go types.
//
// Input schemas follow the tools/list rules (docs/contract.md#tool-schemas):
// an object root with properties, no $ref, no root combinators, under 12,000
// bytes. They do not forbid unknown arguments, because the driver ignores
// them.
//
// Output, error and doctor schemas close every object
// (additionalProperties: false), so a field added in Go without its schema
// fails the contract tests instead of reaching hosts undocumented.
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed input/*.json output/*.json error.json doctor.json
var files embed.FS

// Schema file names, relative to this package.
const (
	inputDir   = "input"
	outputDir  = "output"
	errorFile  = "error.json"
	doctorFile = "doctor.json"
)

// loaded holds every embedded schema in compact form, keyed by file name.
var loaded = mustLoad()

func mustLoad() map[string][]byte {
	out := map[string][]byte{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		out[p] = buf.Bytes()
		return nil
	})
	if err != nil {
		// The files are compiled in; a malformed one is a build mistake the
		// tests catch, never a runtime condition.
		panic("schema: " + err.Error())
	}
	return out
}

func inputFile(tool string) string  { return path.Join(inputDir, tool+".json") }
func outputFile(tool string) string { return path.Join(outputDir, tool+".json") }

// get returns a copy of a schema, so callers cannot change the shared bytes.
func get(name string) (json.RawMessage, bool) {
	b, ok := loaded[name]
	if !ok {
		return nil, false
	}
	return json.RawMessage(bytes.Clone(b)), true
}

// validToolName keeps a tool name from naming a file outside its folder.
func validToolName(tool string) bool {
	if tool == "" {
		return false
	}
	for _, r := range tool {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// Input returns the input schema of a tool, compact, as tools/list
// advertises it.
func Input(tool string) (json.RawMessage, bool) {
	if !validToolName(tool) {
		return nil, false
	}
	return get(inputFile(tool))
}

// Output returns the schema of a tool's structuredContent on success.
func Output(tool string) (json.RawMessage, bool) {
	if !validToolName(tool) {
		return nil, false
	}
	return get(outputFile(tool))
}

// Error returns the schema of the failure envelope {ok: false, error}.
func Error() json.RawMessage {
	b, _ := get(errorFile)
	return b
}

// Doctor returns the schema of the doctor report (nish-driver doctor --json).
func Doctor() json.RawMessage {
	b, _ := get(doctorFile)
	return b
}

// InputTools lists the tools that have an input schema, sorted by name.
func InputTools() []string { return toolsIn(inputDir) }

// OutputTools lists the tools that have an output schema, sorted by name.
func OutputTools() []string { return toolsIn(outputDir) }

func toolsIn(dir string) []string {
	var names []string
	for name := range loaded {
		if d, f := path.Split(name); d == dir+"/" {
			names = append(names, strings.TrimSuffix(f, ".json"))
		}
	}
	sort.Strings(names)
	return names
}
