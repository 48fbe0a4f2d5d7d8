package input

import (
	"slices"
	"sort"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// Every file is the schema of a tool of the engine, and every tool has
// one: a file no tool uses cannot linger unchecked, since the checks of
// package schema walk the engine's tools.
func TestEveryFileIsAToolsSchema(t *testing.T) {
	var got []string
	for tool := range loaded {
		got = append(got, tool)
	}
	sort.Strings(got)
	want := engine.ToolNames()
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("input schemas for %v, want the engine's tools %v", got, want)
	}
}

func TestUnknownToolsHaveNoSchema(t *testing.T) {
	for _, tool := range []string{"", "no_such_tool", "Click", "../error", "../input/click", "click.json", "error", "doctor"} {
		if _, ok := Schema(tool); ok {
			t.Errorf("Schema(%q) found a schema", tool)
		}
	}
}

func TestSchemaBytesCannotBeChangedByCallers(t *testing.T) {
	a, _ := Schema("click")
	a[0] = 'X'
	if b, _ := Schema("click"); b[0] != '{' {
		t.Fatal("changing a returned schema changed the embedded one")
	}
}
