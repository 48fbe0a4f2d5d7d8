package testkit

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/schema/input"
)

// InputProperty is one argument of a tool's input schema (schema/input),
// as the tests that call every tool with each of its arguments read it.
type InputProperty struct {
	Name string
	// Type is the JSON Schema type, "" where the schema allows several.
	Type string
	// Minimum and Maximum are the argument's bounds, nil where the schema
	// sets none.
	Minimum, Maximum *float64
	// MaxLength is a string argument's bound in characters, 0 where the
	// schema sets none.
	MaxLength int
}

// InputProperties lists the arguments of a tool's input schema, sorted by
// name. A tool without a schema fails the test.
func InputProperties(t testing.TB, tool string) []InputProperty {
	t.Helper()
	raw, ok := input.Schema(tool)
	if !ok {
		t.Fatalf("%s has no input schema", tool)
	}
	var sch struct {
		Properties map[string]struct {
			Type      any      `json:"type"`
			Minimum   *float64 `json:"minimum"`
			Maximum   *float64 `json:"maximum"`
			MaxLength int      `json:"maxLength"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &sch); err != nil {
		t.Fatalf("%s's input schema: %v", tool, err)
	}
	out := make([]InputProperty, 0, len(sch.Properties))
	for name, p := range sch.Properties {
		typ, _ := p.Type.(string)
		out = append(out, InputProperty{Name: name, Type: typ, Minimum: p.Minimum, Maximum: p.Maximum, MaxLength: p.MaxLength})
	}
	slices.SortFunc(out, func(a, b InputProperty) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// InputMaxLength is the maxLength of a tool's string argument; a schema
// that bounds none fails the test.
func InputMaxLength(t testing.TB, tool, arg string) int {
	t.Helper()
	for _, p := range InputProperties(t, tool) {
		if p.Name == arg && p.MaxLength > 0 {
			return p.MaxLength
		}
	}
	t.Fatalf("%s's input schema bounds no %s length", tool, arg)
	return 0
}
