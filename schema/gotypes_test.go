package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// The output schemas must describe exactly what encoding/json makes of the
// engine's result types: the same field names, required exactly when the
// field has no omitempty, nullable exactly when a pointer can be marshalled
// as null, and the matching JSON type all the way down.

// jsonField is one field as encoding/json writes it.
type jsonField struct {
	name      string
	typ       reflect.Type
	omitEmpty bool
}

func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, typ: f.Type, omitEmpty: slices.Contains(strings.Split(opts, ","), "omitempty")})
	}
	return out
}

// reporter is the part of *testing.T the checker uses, so a test can check
// the checker with a recorder.
type reporter interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// recorder counts what a checker reports.
type recorder struct{ errors []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// typeChecker walks a Go type and a schema side by side.
type typeChecker struct {
	t    reporter
	file string
	root map[string]any
	// special handles fields of type any, keyed "<Go type>.<json name>".
	special map[string]func(c *typeChecker, path string, s map[string]any)
}

// resolve follows a local $ref.
func (c *typeChecker) resolve(path string, s map[string]any) map[string]any {
	ref, ok := s["$ref"].(string)
	if !ok {
		return s
	}
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		c.t.Fatalf("%s %s: unexpected $ref %s", c.file, path, ref)
	}
	defs, _ := c.root["definitions"].(map[string]any)
	d, ok := defs[name].(map[string]any)
	if !ok {
		c.t.Fatalf("%s %s: $ref to a missing definition %s", c.file, path, name)
	}
	return d
}

// jsonTypes lists the JSON types a schema admits, from type or const.
func jsonTypes(s map[string]any) []string {
	switch v := s["type"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, e.(string))
		}
		sort.Strings(out)
		return out
	}
	if cv, ok := s["const"]; ok {
		switch cv.(type) {
		case bool:
			return []string{"boolean"}
		case string:
			return []string{"string"}
		case json.Number:
			return []string{"integer"}
		case nil:
			return []string{"null"}
		}
	}
	return nil
}

func goJSONType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return ""
}

func (c *typeChecker) checkStruct(path string, gt reflect.Type, s map[string]any) {
	s = c.resolve(path, s)
	if s["type"] != "object" {
		c.t.Errorf("%s %s: %s is a struct, schema type is %v", c.file, path, gt, s["type"])
		return
	}
	props, _ := s["properties"].(map[string]any)
	var required []string
	if r, ok := s["required"].([]any); ok {
		for _, e := range r {
			required = append(required, e.(string))
		}
	}
	fields := jsonFields(gt)
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f.name] = true
		fpath := path + "." + f.name
		sub, ok := props[f.name].(map[string]any)
		if !ok {
			c.t.Errorf("%s %s: %s.%s has no schema property", c.file, fpath, gt.Name(), f.name)
			continue
		}
		if got := slices.Contains(required, f.name); got != !f.omitEmpty {
			c.t.Errorf("%s %s: required=%v, but the Go field omitempty=%v", c.file, fpath, got, f.omitEmpty)
		}
		c.checkField(fpath, gt.Name()+"."+f.name, f, sub)
	}
	for name := range props {
		if !seen[name] {
			c.t.Errorf("%s %s.%s: the schema has a property %s.%s does not marshal", c.file, path, name, gt, name)
		}
	}
	for _, name := range required {
		if !seen[name] {
			c.t.Errorf("%s %s: requires %s, which %s does not have", c.file, path, name, gt)
		}
	}
	if s["additionalProperties"] != false {
		c.t.Errorf("%s %s: %s's schema allows other properties", c.file, path, gt)
	}
}

func (c *typeChecker) checkField(path, key string, f jsonField, s map[string]any) {
	if fn, ok := c.special[key]; ok {
		fn(c, path, c.resolve(path, s))
		return
	}
	gt := f.typ
	nullable := false
	if gt.Kind() == reflect.Pointer {
		gt = gt.Elem()
		// A nil pointer is null unless omitempty drops it.
		nullable = !f.omitEmpty
	}
	if gt.Kind() == reflect.Interface {
		c.t.Errorf("%s %s: field of type %s needs a special case in this test", c.file, path, f.typ)
		return
	}
	c.checkValue(path, gt, nullable, s)
}

func (c *typeChecker) checkValue(path string, gt reflect.Type, nullable bool, s map[string]any) {
	s = c.resolve(path, s)
	want := []string{goJSONType(gt)}
	if nullable {
		want = append(want, "null")
		sort.Strings(want)
	}
	got := jsonTypes(s)
	if !slices.Equal(got, want) && !(len(want) == 1 && want[0] == "number" && slices.Equal(got, []string{"integer"})) {
		c.t.Errorf("%s %s: schema types %v, Go %s marshals as %v", c.file, path, got, gt, want)
		return
	}
	switch gt.Kind() {
	case reflect.Struct:
		c.checkStruct(path, gt, s)
	case reflect.Slice:
		items, ok := s["items"].(map[string]any)
		if !ok {
			c.t.Errorf("%s %s: array without an items schema", c.file, path)
			return
		}
		et := gt.Elem()
		if et.Kind() == reflect.Pointer {
			c.t.Errorf("%s %s: slices of pointers need a special case", c.file, path)
			return
		}
		c.checkValue(path+"[]", et, false, items)
	}
}

// elementsSpecial checks WindowStateResult.elements: an array of either
// ElementRow (full and drill-down reads) or SkeletonRow (skeleton reads).
func elementsSpecial(c *typeChecker, path string, s map[string]any) {
	if s["type"] != "array" {
		c.t.Errorf("%s %s: elements must be an array, schema type %v", c.file, path, s["type"])
		return
	}
	items, _ := s["items"].(map[string]any)
	alts, _ := items["anyOf"].([]any)
	if len(alts) != 2 {
		c.t.Errorf("%s %s: elements items should be anyOf [ElementRow, SkeletonRow], got %v", c.file, path, items)
		return
	}
	c.checkStruct(path+"[ElementRow]", reflect.TypeFor[engine.ElementRow](), alts[0].(map[string]any))
	c.checkStruct(path+"[SkeletonRow]", reflect.TypeFor[engine.SkeletonRow](), alts[1].(map[string]any))
}

func TestOutputSchemasMatchEngineTypes(t *testing.T) {
	typeOf := map[string]reflect.Type{
		"list_windows":      reflect.TypeFor[engine.ListWindowsResult](),
		"start_session":     reflect.TypeFor[engine.SessionResult](),
		"get_session_state": reflect.TypeFor[engine.SessionResult](),
		"end_session":       reflect.TypeFor[engine.EndSessionResult](),
		"get_window_state":  reflect.TypeFor[engine.WindowStateResult](),
		"clipboard_read":    reflect.TypeFor[engine.ClipboardReadResult](),
		"health_report":     reflect.TypeFor[engine.HealthResult](),
		"find_elements":     reflect.TypeFor[engine.FindElementsResult](),
		"wait_for":          reflect.TypeFor[engine.WaitForResult](),
	}
	for _, spec := range engine.Tools() {
		if spec.Kind == engine.KindAct && spec.Name != "app_action" {
			typeOf[spec.Name] = reflect.TypeFor[engine.ActResult]()
		}
	}
	// The tools no Linux path serves have no Go type; their schemas follow
	// the contract's shapes and are checked by examples instead.
	noGoType := []string{"list_notifications", "list_app_actions", "app_action"}
	for _, tool := range engine.ToolNames() {
		gt, ok := typeOf[tool]
		if !ok {
			if !slices.Contains(noGoType, tool) {
				t.Errorf("%s: no Go result type mapped in this test", tool)
			}
			continue
		}
		raw, _ := Output(tool)
		root := decode(t, tool, raw)
		c := &typeChecker{t: t, file: outputFile(tool), root: root, special: map[string]func(*typeChecker, string, map[string]any){
			"WindowStateResult.elements": elementsSpecial,
		}}
		c.checkStruct("(root)", gt, root)
	}
}

func TestErrorSchemaMatchesEnvelope(t *testing.T) {
	root := decode(t, errorFile, Error())
	c := &typeChecker{t: t, file: errorFile, root: root}
	c.checkStruct("(root)", reflect.TypeFor[engine.Envelope](), root)
}

// The checker itself must notice a mismatch, or the tests above prove
// nothing.
func TestTypeCheckerCatchesDrift(t *testing.T) {
	type withExtra struct {
		OK    bool   `json:"ok"`
		Text  string `json:"text"`
		Len   int    `json:"length"`
		Extra string `json:"extra,omitempty"`
	}
	type wrongType struct {
		OK   bool `json:"ok"`
		Text int  `json:"text"`
		Len  int  `json:"length"`
	}
	type optional struct {
		OK   bool   `json:"ok"`
		Text string `json:"text,omitempty"`
		Len  int    `json:"length"`
	}
	type nullable struct {
		OK   bool    `json:"ok"`
		Text *string `json:"text"`
		Len  int     `json:"length"`
	}
	raw, _ := Output("clipboard_read")
	for name, gt := range map[string]reflect.Type{
		"extra field": reflect.TypeFor[withExtra](), "wrong type": reflect.TypeFor[wrongType](),
		"omitempty": reflect.TypeFor[optional](), "nullable": reflect.TypeFor[nullable](),
	} {
		rec := &recorder{}
		c := &typeChecker{t: rec, file: "clipboard_read", root: decode(t, "clipboard_read", raw)}
		c.checkStruct("(root)", gt, c.root)
		if len(rec.errors) == 0 {
			t.Errorf("%s: the type checker did not notice", name)
		}
	}
}

func TestTypeCheckerAcceptsTheRealShape(t *testing.T) {
	rec := &recorder{}
	raw, _ := Output("clipboard_read")
	c := &typeChecker{t: rec, file: "clipboard_read", root: decode(t, "clipboard_read", raw)}
	c.checkStruct("(root)", reflect.TypeFor[engine.ClipboardReadResult](), c.root)
	if len(rec.errors) != 0 {
		t.Errorf("the checker rejected ClipboardReadResult: %v", rec.errors)
	}
}
