package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps from the current tools/list")

// listTools returns tools/list as the client decoded it and as raw JSON.
func listTools(t *testing.T, h *harness) (*mcp.ListToolsResult, json.RawMessage) {
	t.Helper()
	res, err := h.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := h.wire.last("tools/list")
	if raw == nil {
		t.Fatal("no raw tools/list result recorded")
	}
	return res, raw
}

// rawTools decodes the raw tools/list result into generic maps.
func rawTools(t *testing.T, raw json.RawMessage) (meta map[string]any, tools []map[string]any) {
	t.Helper()
	var doc struct {
		Meta       map[string]any   `json:"_meta"`
		Tools      []map[string]any `json:"tools"`
		NextCursor string           `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.NextCursor != "" {
		t.Errorf("tools/list is paged (nextCursor %q); it must fit one page", doc.NextCursor)
	}
	return doc.Meta, doc.Tools
}

func TestToolsListHasEveryEngineTool(t *testing.T) {
	for _, protocol := range []string{"", legacyProtocol} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			h := newHarness(t, harnessOpts{protocol: protocol})
			res, raw := listTools(t, h)
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			if want := engine.ToolNames(); !slices.Equal(names, want) {
				t.Errorf("tools/list names\n got  %v\n want %v", names, want)
			}
			_, tools := rawTools(t, raw)
			if len(tools) != len(engine.ToolNames()) {
				t.Errorf("raw tools/list has %d tools", len(tools))
			}
		})
	}
}

// The rules for advertised input schemas (docs/contract.md#tool-schemas).
func TestInputSchemasFollowTheContractRules(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	_, raw := listTools(t, h)
	_, tools := rawTools(t, raw)
	for _, tool := range tools {
		name, _ := tool["name"].(string)
		t.Run(name, func(t *testing.T) {
			in, ok := tool["inputSchema"].(map[string]any)
			if !ok {
				t.Fatalf("inputSchema is %T", tool["inputSchema"])
			}
			if in["type"] != "object" {
				t.Errorf("root type = %v, want object", in["type"])
			}
			if _, ok := in["properties"].(map[string]any); !ok {
				t.Errorf("root has no properties object")
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "if", "then", "else"} {
				if _, ok := in[k]; ok {
					t.Errorf("root combinator %s", k)
				}
			}
			b, _ := json.Marshal(in)
			if bytes.Contains(b, []byte(`"$ref"`)) {
				t.Errorf("schema uses $ref")
			}
			if len(b) >= 12000 {
				t.Errorf("schema is %d bytes, the limit is 12,000", len(b))
			}
		})
	}
}

func TestNoOutputSchemaIsAdvertised(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	res, raw := listTools(t, h)
	if bytes.Contains(raw, []byte(`"outputSchema"`)) {
		t.Error("tools/list advertises an outputSchema")
	}
	for _, tool := range res.Tools {
		if tool.OutputSchema != nil {
			t.Errorf("%s has an output schema", tool.Name)
		}
	}
}

func TestAnnotationsAreTruthful(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	_, raw := listTools(t, h)
	_, tools := rawTools(t, raw)
	kinds := map[string]engine.ToolSpec{}
	for _, s := range engine.Tools() {
		kinds[s.Name] = s
	}
	for _, tool := range tools {
		name := tool["name"].(string)
		t.Run(name, func(t *testing.T) {
			spec := kinds[name]
			a, ok := tool["annotations"].(map[string]any)
			if !ok {
				t.Fatal("no annotations")
			}
			wantRead := spec.Kind == engine.KindRead || (spec.Kind == engine.KindSession && spec.ReadOnly)
			if spec.Kind == engine.KindAct && spec.ReadOnly {
				t.Errorf("the engine marks act tool %s read-only", name)
			}
			if a["readOnlyHint"] != wantRead {
				t.Errorf("readOnlyHint = %v, want %v (kind %s)", a["readOnlyHint"], wantRead, spec.Kind)
			}
			if d, ok := a["destructiveHint"]; !ok || d != spec.Destructive {
				t.Errorf("destructiveHint = %v (present %v), want %v", d, ok, spec.Destructive)
			}
			if wantRead && a["destructiveHint"] == true {
				t.Error("a read-only tool claims to be destructive")
			}
			if a["idempotentHint"] != false {
				t.Errorf("idempotentHint = %v, want false", a["idempotentHint"])
			}
			if o, ok := a["openWorldHint"]; !ok || o != false {
				t.Errorf("openWorldHint = %v (present %v), want false", o, ok)
			}
		})
	}
}

func TestToolsListFitsItsBudget(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	_, raw := listTools(t, h)
	budget := schema.ToolsListBudget
	t.Logf("tools/list result: %d bytes for %d tools (budget %d)", len(raw), len(engine.ToolNames()), budget)
	if len(raw) > budget {
		t.Errorf("tools/list is %d bytes, over the %d-byte budget", len(raw), budget)
	}
}

func checkContractMeta(t *testing.T, where string, meta map[string]any) {
	t.Helper()
	if meta["contract_version"] != "0.8.0" {
		t.Errorf("%s: _meta.contract_version = %v", where, meta["contract_version"])
	}
	if v, ok := meta["tools_list_schema_version"].(float64); !ok || v != 1 {
		t.Errorf("%s: _meta.tools_list_schema_version = %v", where, meta["tools_list_schema_version"])
	}
}

func TestMetaOnInitializeAndToolsList(t *testing.T) {
	for _, tc := range []struct{ protocol, opening string }{
		{legacyProtocol, "initialize"},
		{"", "server/discover"}, // the sessionless protocol
	} {
		t.Run(tc.opening, func(t *testing.T) {
			h := newHarness(t, harnessOpts{protocol: tc.protocol})
			var opened struct {
				Meta map[string]any `json:"_meta"`
			}
			if err := json.Unmarshal(h.wire.last(tc.opening), &opened); err != nil {
				t.Fatalf("%s result: %v", tc.opening, err)
			}
			checkContractMeta(t, tc.opening, opened.Meta)
			_, raw := listTools(t, h)
			meta, _ := rawTools(t, raw)
			checkContractMeta(t, "tools/list", meta)
		})
	}
}

// toolsnap renders one advertised tool as its golden file holds it:
// name, description, annotations and inputSchema, as canonical indented
// JSON (keys sorted).
func toolsnap(t *testing.T, tool map[string]any) []byte {
	t.Helper()
	snap := map[string]any{}
	for _, k := range []string{"name", "description", "annotations", "inputSchema"} {
		if v, ok := tool[k]; ok {
			snap[k] = v
		}
	}
	b, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// The golden toolsnaps: any change to what a model sees in tools/list shows
// up as a diff under testdata/toolsnaps. Rewrite them with
// `go test ./internal/mcpserver -run TestToolsnaps -update` after a deliberate change.
func TestToolsnaps(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	_, raw := listTools(t, h)
	_, tools := rawTools(t, raw)
	dir := filepath.Join("testdata", "toolsnaps")
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, tool := range tools {
		name := tool["name"].(string)
		seen[name+".snap"] = true
		path := filepath.Join(dir, name+".snap")
		got := toolsnap(t, tool)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no toolsnap (run go test ./internal/mcpserver -run TestToolsnaps -update): %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: tools/list differs from %s (run go test ./internal/mcpserver -run TestToolsnaps -update if the change is meant):\n got:\n%s\n want:\n%s", name, path, got, want)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !seen[e.Name()] {
			t.Errorf("stale toolsnap %s: no such tool is advertised", e.Name())
		}
	}
	if len(entries) == 0 || !strings.HasSuffix(entries[0].Name(), ".snap") {
		t.Error("no toolsnaps found")
	}
}
