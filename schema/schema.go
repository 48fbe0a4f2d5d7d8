// Package schema holds the driver's promises on the wire that it does not
// serve: the schemas (draft-07) of every tool's structuredContent on
// success, of the failure envelope and of the doctor report, and the
// validator the tests hold the driver's results, arguments and reports to.
// The input schemas tools/list advertises are package schema/input, the
// only part the binary links; this package reads them from there.
//
// It is for tests and ci/checkdoctor: nothing in the binary imports it, so
// the binary carries no schema validator (`go version -m bin/nish-driver`
// lists no gojsonschema). Each file is the one copy of its schema: what
// tools/list sends is pinned by the toolsnaps of internal/mcpserver, and
// the other schemas by the tests here that hold them to the engine's Go
// types.
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
	"slices"
	"sort"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema/input"
)

//go:embed output/*.json error.json doctor.json
var files embed.FS

// Schema file names, relative to this package.
const (
	inputDir   = "input"
	outputDir  = "output"
	errorFile  = "error.json"
	doctorFile = "doctor.json"
)

// loaded holds every schema in compact form, keyed by file name: the
// embedded ones, and the input schema of every engine tool under
// input/<tool>.json (package input checks that it has no others).
var loaded = mustLoad()

func mustLoad() map[string][]byte {
	out := map[string][]byte{}
	for _, tool := range engine.ToolNames() {
		if raw, ok := input.Schema(tool); ok {
			out[inputFile(tool)] = raw
		}
	}
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

// Output schemas that several tools share, because their results have one
// Go type: every act returns an engine.ActResult, and start_session and
// get_session_state both an engine.SessionResult.
const (
	actOutputFile     = "output/act.json"
	sessionOutputFile = "output/session.json"
)

var sessionTools = []string{"start_session", "get_session_state"}

func inputFile(tool string) string { return path.Join(inputDir, tool+".json") }

// outputFiles maps every tool of the engine to the file of its output
// schema: the tool's own file when there is one (app_action is an act with
// a result of its own), else the file its result's shape shares.
var outputFiles = mapOutputFiles()

func mapOutputFiles() map[string]string {
	m := map[string]string{}
	for _, spec := range engine.Tools() {
		own := path.Join(outputDir, spec.Name+".json")
		switch {
		case loaded[own] != nil:
			m[spec.Name] = own
		case slices.Contains(sessionTools, spec.Name):
			m[spec.Name] = sessionOutputFile
		case spec.Kind == engine.KindAct:
			m[spec.Name] = actOutputFile
		}
	}
	return m
}

// outputFile names the file of a tool's output schema, or "" when the tool
// has none.
func outputFile(tool string) string { return outputFiles[tool] }

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

// OutputTools lists the tools that have an output schema, sorted by name.
func OutputTools() []string {
	names := make([]string, 0, len(outputFiles))
	for tool := range outputFiles {
		names = append(names, tool)
	}
	sort.Strings(names)
	return names
}
