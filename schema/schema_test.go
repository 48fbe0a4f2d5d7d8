package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema/input"
)

// decode reads a schema into plain Go values, keeping numbers exact.
func decode(t *testing.T, name string, raw []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}

func mustInput(t *testing.T, tool string) map[string]any {
	t.Helper()
	raw, ok := input.Schema(tool)
	if !ok {
		t.Fatalf("no input schema for %s", tool)
	}
	return decode(t, "input/"+tool, raw)
}

func TestEveryToolHasInputAndOutputSchema(t *testing.T) {
	for _, tool := range engine.ToolNames() {
		if _, ok := input.Schema(tool); !ok {
			t.Errorf("%s: no input schema", tool)
		}
		if _, ok := Output(tool); !ok {
			t.Errorf("%s: no output schema", tool)
		}
	}
	want := engine.ToolNames()
	sort.Strings(want)
	if got := OutputTools(); !slices.Equal(got, want) {
		t.Errorf("OutputTools() = %v, want the engine's tools %v", got, want)
	}
}

func TestUnknownToolsHaveNoSchema(t *testing.T) {
	for _, tool := range []string{"", "no_such_tool", "Click", "../error", "input/click", "click.json", "error", "doctor"} {
		if _, ok := Output(tool); ok {
			t.Errorf("Output(%q) found a schema", tool)
		}
		if err := ValidateInput(tool, map[string]any{}); err == nil {
			t.Errorf("ValidateInput(%q) accepted a document", tool)
		}
		if err := ValidateOutput(tool, map[string]any{"ok": true}); err == nil {
			t.Errorf("ValidateOutput(%q) accepted a document", tool)
		}
	}
}

// walk calls fn for every object in a JSON tree, with its path.
func walk(path string, v any, fn func(path string, obj map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(path, x)
		for k, c := range x {
			walk(path+"/"+k, c, fn)
		}
	case []any:
		for i, c := range x {
			walk(path+"/"+fmtInt(i), c, fn)
		}
	}
}

func fmtInt(i int) string { return strconv.Itoa(i) }

// TestInputSchemasFollowToolsListRules checks the tools/list rules
// (docs/contract.md#tool-schemas) for every tool: root type object with
// properties, no $ref anywhere, no root combinators, under 12,000 bytes; and
// the driver's own rule that inputs never refuse unknown arguments.
func TestInputSchemasFollowToolsListRules(t *testing.T) {
	rootCombinators := []string{"anyOf", "oneOf", "allOf", "not", "if", "then", "else"}
	for _, tool := range engine.ToolNames() {
		raw, _ := input.Schema(tool)
		file, err := os.ReadFile(inputFile(tool))
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		for _, size := range []int{len(raw), len(file)} {
			if size >= 12000 {
				t.Errorf("%s: input schema is %d bytes, want under 12,000", tool, size)
			}
		}
		doc := mustInput(t, tool)
		if doc["type"] != "object" {
			t.Errorf("%s: root type is %v, want object", tool, doc["type"])
		}
		if _, ok := doc["properties"].(map[string]any); !ok {
			t.Errorf("%s: root has no properties object", tool)
		}
		for _, k := range rootCombinators {
			if _, ok := doc[k]; ok {
				t.Errorf("%s: root combinator %s", tool, k)
			}
		}
		walk("#", doc, func(path string, obj map[string]any) {
			if _, ok := obj["$ref"]; ok {
				t.Errorf("%s: $ref at %s", tool, path)
			}
			if _, ok := obj["$schema"]; ok {
				t.Errorf("%s: $schema at %s", tool, path)
			}
			if obj["additionalProperties"] == false {
				t.Errorf("%s: additionalProperties false at %s; unknown arguments are ignored, not refused", tool, path)
			}
		})
	}
}

// TestInputPropertiesAreDescribed: the descriptions are what teaches the
// model an argument, so every argument has one, and it stays short.
func TestInputPropertiesAreDescribed(t *testing.T) {
	for _, tool := range engine.ToolNames() {
		props := mustInput(t, tool)["properties"].(map[string]any)
		for name, p := range props {
			d, _ := p.(map[string]any)["description"].(string)
			if d == "" {
				t.Errorf("%s.%s: no description", tool, name)
			}
			if len(d) > 80 {
				t.Errorf("%s.%s: description is %d bytes, keep it under 80", tool, name, len(d))
			}
		}
	}
}

// TestToolsListStaysInBudget: the descriptions and input schemas alone,
// the bulk of tools/list, stay within ToolsListBudget (the whole result is
// held to it by internal/mcpserver's test and the outside client's).
func TestToolsListStaysInBudget(t *testing.T) {
	total := 0
	for _, spec := range engine.Tools() {
		raw, _ := input.Schema(spec.Name)
		total += len(raw) + len(spec.Description) + len(spec.Name)
	}
	if total > ToolsListBudget {
		t.Errorf("input schemas and descriptions take %d bytes, want at most %d", total, ToolsListBudget)
	}
	t.Logf("input schemas and descriptions: %d bytes", total)
}

// Window tools take the same target, and observing acts the same observe;
// the files repeat them (inputs may not use $ref), so keep them in step.
func TestSharedInputPiecesStayInStep(t *testing.T) {
	windowTools := []string{"get_window_state", "find_elements", "wait_for", "click", "double_click", "right_click", "type_text", "set_value",
		"press_key", "hotkey", "scroll", "drag", "bring_to_front", "move_cursor"}
	observeTools := []string{"click", "double_click", "right_click", "type_text", "set_value", "press_key",
		"hotkey", "scroll", "drag"}
	ref := mustInput(t, "bring_to_front")["properties"].(map[string]any)
	if len(ref) != 3 {
		t.Fatalf("bring_to_front should take exactly the window target, has %d properties", len(ref))
	}
	for _, tool := range windowTools {
		props := mustInput(t, tool)["properties"].(map[string]any)
		for _, k := range []string{"window_id", "pid", "app"} {
			if !reflect.DeepEqual(props[k], ref[k]) {
				t.Errorf("%s.%s differs from bring_to_front.%s", tool, k, k)
			}
		}
	}
	obs := mustInput(t, "click")["properties"].(map[string]any)["observe"]
	for _, tool := range observeTools {
		if got := mustInput(t, tool)["properties"].(map[string]any)["observe"]; !reflect.DeepEqual(got, obs) {
			t.Errorf("%s.observe differs from click.observe", tool)
		}
	}
	for _, tool := range engine.ToolNames() {
		props := mustInput(t, tool)["properties"].(map[string]any)
		_, hasObserve := props["observe"]
		if hasObserve != slices.Contains(observeTools, tool) {
			t.Errorf("%s: observe present = %v, want %v", tool, hasObserve, !hasObserve)
		}
		_, hasApp := props["app"]
		if hasApp != slices.Contains(windowTools, tool) && tool != "list_windows" {
			t.Errorf("%s: window target present = %v, want %v", tool, hasApp, !hasApp)
		}
	}
}

func TestEverySchemaCompiles(t *testing.T) {
	if len(loaded) < len(engine.ToolNames())+2 {
		t.Fatalf("only %d schemas embedded", len(loaded))
	}
	for name := range loaded {
		if _, err := compiled(name); err != nil {
			t.Errorf("%v", err)
		}
	}
}

func TestCompileRejectsAMalformedSchema(t *testing.T) {
	for _, raw := range []string{
		`{"type": "objekt"}`,
		`{"type": "object", "properties": {"a": {"minimum": "one"}}}`,
		`{"type": "object", "required": "a"}`,
	} {
		if _, err := compile("test", []byte(raw)); err == nil {
			t.Errorf("compile accepted %s", raw)
		}
	}
}

func enumOf(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, e := range v.([]any) {
		out = append(out, e.(string))
	}
	return out
}

// definition returns #/definitions/<name> of a schema.
func definition(t *testing.T, doc map[string]any, name string) map[string]any {
	t.Helper()
	defs, _ := doc["definitions"].(map[string]any)
	d, ok := defs[name].(map[string]any)
	if !ok {
		t.Fatalf("no definition %s", name)
	}
	return d
}

// The capability names the doctor and health_report schemas accept are the
// engine's capability table, in its order.
func TestCapabilityEnumEqualsTheEngineTable(t *testing.T) {
	var want []string
	for _, c := range engine.CapabilityTable() {
		want = append(want, c.Name)
	}
	health, _ := Output("health_report")
	for name, doc := range map[string]map[string]any{doctorFile: decode(t, doctorFile, Doctor()), "output/health_report.json": decode(t, "health", health)} {
		props := definition(t, doc, "capability")["properties"].(map[string]any)
		if got := enumOf(t, props["name"].(map[string]any)["enum"]); !slices.Equal(got, want) {
			t.Errorf("%s: capability names %v\nwant the engine's table %v", name, got, want)
		}
	}
}

func TestVersionsMatchEngine(t *testing.T) {
	doctor := decode(t, doctorFile, Doctor())
	props := doctor["properties"].(map[string]any)
	if got := props["schema_version"].(map[string]any)["const"].(json.Number).String(); got != fmtInt(engine.DoctorSchemaVersion) {
		t.Errorf("doctor schema_version const %s, engine says %d", got, engine.DoctorSchemaVersion)
	}
	health, _ := Output("health_report")
	for name, doc := range map[string]map[string]any{doctorFile: doctor, "output/health_report.json": decode(t, "health", health)} {
		cv := doc["properties"].(map[string]any)["contract_version"].(map[string]any)["const"]
		if cv != engine.ContractVersion {
			t.Errorf("%s: contract_version const %v, engine says %s", name, cv, engine.ContractVersion)
		}
	}
}

// The token pattern in the schemas must accept exactly what the engine's
// parser accepts, or a model following the schema would be refused.
func TestTokenPatternAgreesWithEngine(t *testing.T) {
	samples := []string{"s1:1", "s42:17", "s0:3", "s1:0", "s1:01", "x1:1", "s:1", "s1:", ":1", "s1:1:2",
		"s1:-1", "s1", "S1:1", "s1:1 ", "s12345678901234567890:1",
		"s" + strings.Repeat("1", 61) + ":1", "s" + strings.Repeat("1", 60) + ":1"}
	for _, tok := range samples {
		_, perr := engine.ParseToken(tok)
		err := ValidateInput("click", map[string]any{"element_token": tok})
		if (perr == nil) != (err == nil) {
			t.Errorf("token %q: engine accepts=%v, schema accepts=%v (%v)", tok, perr == nil, err == nil, err)
		}
	}
}

// The output, error and doctor files repeat their shared definitions (each
// file stands alone); a definition of the same name must be the same
// everywhere.
func TestSharedDefinitionsStayInStep(t *testing.T) {
	seen := map[string]any{}
	from := map[string]string{}
	names := make([]string, 0, len(loaded))
	for name := range loaded {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		doc := decode(t, name, loaded[name])
		defs, _ := doc["definitions"].(map[string]any)
		for k, v := range defs {
			if prev, ok := seen[k]; ok && !reflect.DeepEqual(prev, v) {
				t.Errorf("definition %s differs between %s and %s", k, from[k], name)
			}
			seen[k], from[k] = v, name
		}
	}
}

// Every file under output/ is the output schema of some tool, so a file a
// tool no longer uses (a leftover copy of act.json, say) cannot linger
// untested.
func TestEveryOutputFileIsSomeToolsSchema(t *testing.T) {
	used := map[string]bool{}
	for _, tool := range engine.ToolNames() {
		used[outputFile(tool)] = true
	}
	for name := range loaded {
		if strings.HasPrefix(name, outputDir+"/") && !used[name] {
			t.Errorf("%s is no tool's output schema", name)
		}
	}
	for _, c := range []struct{ tool, want string }{
		{"click", actOutputFile},
		{"clipboard_write", actOutputFile},
		{"app_action", "output/app_action.json"},
		{"start_session", sessionOutputFile},
		{"get_session_state", sessionOutputFile},
		{"get_window_state", "output/get_window_state.json"},
	} {
		if got := outputFile(c.tool); got != c.want {
			t.Errorf("outputFile(%q) = %q, want %q", c.tool, got, c.want)
		}
	}
}

// draft07Keywords are the keywords a schema object here may use; anything
// else (a typo such as "maxlength") would be silently ignored by validators.
var draft07Keywords = map[string]bool{
	"$id": true, "$schema": true, "$ref": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "readOnly": true, "writeOnly": true, "definitions": true,
	"type": true, "enum": true, "const": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"maxLength": true, "minLength": true, "pattern": true, "format": true,
	"items": true, "additionalItems": true, "maxItems": true, "minItems": true, "uniqueItems": true, "contains": true,
	"maxProperties": true, "minProperties": true, "required": true, "properties": true, "patternProperties": true,
	"additionalProperties": true, "dependencies": true, "propertyNames": true,
	"if": true, "then": true, "else": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
}

// schemaWalk visits every subschema (not every JSON object: the keys of
// properties and definitions are names, and const/enum values are data).
func schemaWalk(path string, s any, fn func(path string, s map[string]any)) {
	obj, ok := s.(map[string]any)
	if !ok {
		return
	}
	fn(path, obj)
	for _, k := range []string{"properties", "definitions", "patternProperties"} {
		if m, ok := obj[k].(map[string]any); ok {
			for name, sub := range m {
				schemaWalk(path+"/"+k+"/"+name, sub, fn)
			}
		}
	}
	for _, k := range []string{"items", "additionalItems", "contains", "additionalProperties", "propertyNames",
		"if", "then", "else", "not"} {
		if sub, ok := obj[k]; ok {
			switch x := sub.(type) {
			case []any:
				for i, e := range x {
					schemaWalk(path+"/"+k+"/"+fmtInt(i), e, fn)
				}
			default:
				schemaWalk(path+"/"+k, x, fn)
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := obj[k].([]any); ok {
			for i, e := range list {
				schemaWalk(path+"/"+k+"/"+fmtInt(i), e, fn)
			}
		}
	}
}

func TestSchemasUseOnlyDraft07Keywords(t *testing.T) {
	for name, raw := range loaded {
		schemaWalk("#", decode(t, name, raw), func(path string, s map[string]any) {
			for k := range s {
				if !draft07Keywords[k] {
					t.Errorf("%s: unknown keyword %q at %s", name, k, path)
				}
			}
		})
	}
}

// TestResultObjectsAreClosed: every object the driver returns lists its
// fields and forbids others, so an undocumented Go field fails validation.
func TestResultObjectsAreClosed(t *testing.T) {
	for name, raw := range loaded {
		if strings.HasPrefix(name, inputDir+"/") {
			continue
		}
		schemaWalk("#", decode(t, name, raw), func(path string, s map[string]any) {
			if s["type"] == "object" && s["properties"] != nil && s["additionalProperties"] != false {
				t.Errorf("%s: object at %s does not set additionalProperties: false", name, path)
			}
		})
	}
}

func TestValidationErrorListsFields(t *testing.T) {
	err := ValidateOutput("clipboard_read", map[string]any{"ok": true, "text": 5, "extra": 1})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *ValidationError, got %v", err)
	}
	fields := map[string]bool{}
	for _, p := range ve.Problems {
		fields[p.Field] = true
	}
	for _, f := range []string{"text", "(root)"} {
		if !fields[f] {
			t.Errorf("problems %v do not name %s", ve.Problems, f)
		}
	}
	for _, want := range []string{"output/clipboard_read.json", "text", "extra", "length"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestSchemaBytesCannotBeChangedByCallers(t *testing.T) {
	e := Error()
	e[0] = 'X'
	if Error()[0] != '{' {
		t.Fatal("changing the returned error schema changed the embedded one")
	}
}

// The longest string bound is one the schemas hold (clipboard_write's
// text), so the bad-input tests' strings stay over every bound.
func TestLongestInputString(t *testing.T) {
	n := LongestInputString()
	raw, _ := input.Schema("clipboard_write")
	if n < 100000 || !strings.Contains(string(raw), `"maxLength": `+strconv.Itoa(n)) && !strings.Contains(string(raw), `"maxLength":`+strconv.Itoa(n)) {
		t.Fatalf("the longest string bound %d is not clipboard_write's", n)
	}
}
