// Package input holds the input schema of every tool (draft-07), as
// tools/list advertises it: the only schemas the binary carries, embedded
// so it never reads them from disk. They follow the tools/list rules
// (docs/contract.md#tool-schemas): an object root with properties, no $ref,
// no root combinators, under 12,000 bytes; and they do not forbid unknown
// arguments, because the driver ignores them.
//
// The output, error and doctor schemas, and the validator the tests hold
// the driver's results to, are package schema (the folder above). The
// binary serves none of them, so it does not link them.
package input

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed *.json
var files embed.FS

// loaded holds every tool's schema in compact form, keyed by tool name
// (the file's name without .json).
var loaded = mustLoad()

func mustLoad() map[string][]byte {
	out, err := load()
	if err != nil {
		// The files are compiled in; a malformed one is a build mistake the
		// tests catch, never a runtime condition.
		panic("schema/input: " + err.Error())
	}
	return out
}

func load() (map[string][]byte, error) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range entries {
		raw, err := files.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		out[strings.TrimSuffix(e.Name(), ".json")] = buf.Bytes()
	}
	return out, nil
}

// Schema returns the input schema of a tool, compact, as tools/list
// advertises it. It is a copy, so callers cannot change the shared bytes.
func Schema(tool string) (json.RawMessage, bool) {
	b, ok := loaded[tool]
	if !ok {
		return nil, false
	}
	return json.RawMessage(bytes.Clone(b)), true
}
