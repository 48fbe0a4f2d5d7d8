package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"
)

// Problem is one way a document breaks its schema.
type Problem struct {
	// Field is the JSON path of the offending value, "(root)" for the
	// document itself, with dots between steps ("observe.elements.0").
	Field string
	// Description says what is wrong, in gojsonschema's words.
	Description string
}

func (p Problem) String() string { return p.Field + ": " + p.Description }

// ValidationError reports every problem a document has against one schema.
type ValidationError struct {
	Schema   string // the schema's file name, e.g. "output/act.json"
	Problems []Problem
}

// maxListed bounds how many problems Error spells out; Problems keeps all.
const maxListed = 20

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "schema %s: %d problem(s): ", e.Schema, len(e.Problems))
	for i, p := range e.Problems {
		if i == maxListed {
			fmt.Fprintf(&b, "; and %d more", len(e.Problems)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// ValidateInput checks a tool's arguments against its input schema.
func ValidateInput(tool string, doc any) error {
	if !validToolName(tool) {
		return fmt.Errorf("schema: no input schema for tool %q", tool)
	}
	return validate(inputFile(tool), doc)
}

// ValidateOutput checks a tool's successful structuredContent against its
// output schema.
func ValidateOutput(tool string, doc any) error {
	if !validToolName(tool) {
		return fmt.Errorf("schema: no output schema for tool %q", tool)
	}
	return validate(outputFile(tool), doc)
}

// ValidateError checks a failure envelope ({ok: false, error}).
func ValidateError(doc any) error { return validate(errorFile, doc) }

// ValidateDoctor checks a doctor report.
func ValidateDoctor(doc any) error { return validate(doctorFile, doc) }

// validate marshals doc to JSON and checks it against the named schema.
// json.RawMessage and []byte are taken as JSON text already.
func validate(name string, doc any) error {
	s, err := compiled(name)
	if err != nil {
		return err
	}
	var raw []byte
	switch d := doc.(type) {
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	default:
		if raw, err = json.Marshal(doc); err != nil {
			return fmt.Errorf("schema %s: cannot marshal the document: %w", name, err)
		}
	}
	res, err := s.Validate(gojsonschema.NewBytesLoader(raw))
	if err != nil {
		return fmt.Errorf("schema %s: cannot read the document: %w", name, err)
	}
	if res.Valid() {
		return nil
	}
	problems := make([]Problem, 0, len(res.Errors()))
	for _, re := range res.Errors() {
		problems = append(problems, Problem{Field: re.Field(), Description: re.Description()})
	}
	sort.Slice(problems, func(i, j int) bool {
		if problems[i].Field != problems[j].Field {
			return problems[i].Field < problems[j].Field
		}
		return problems[i].Description < problems[j].Description
	})
	return &ValidationError{Schema: name, Problems: problems}
}

// compiledSchema is one schema compiled at most once per process.
type compiledSchema struct {
	once   sync.Once
	schema *gojsonschema.Schema
	err    error
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*compiledSchema{}
)

// compiled returns the named schema, compiling it on first use.
func compiled(name string) (*gojsonschema.Schema, error) {
	raw, ok := loaded[name]
	if !ok {
		return nil, fmt.Errorf("schema: no schema %s", name)
	}
	cacheMu.Lock()
	c := cache[name]
	if c == nil {
		c = &compiledSchema{}
		cache[name] = c
	}
	cacheMu.Unlock()
	c.once.Do(func() { c.schema, c.err = compile(name, raw) })
	return c.schema, c.err
}

// compile reads a schema as draft-07 and checks it against the draft-07
// meta-schema, so a malformed keyword value is an error, not a silent no-op.
func compile(name string, raw []byte) (*gojsonschema.Schema, error) {
	sl := gojsonschema.NewSchemaLoader()
	sl.Draft = gojsonschema.Draft7
	sl.AutoDetect = false
	sl.Validate = true
	s, err := sl.Compile(gojsonschema.NewBytesLoader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema %s: does not compile: %w", name, err)
	}
	return s, nil
}
