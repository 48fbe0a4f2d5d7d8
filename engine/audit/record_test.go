package audit

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// allowedFields is every field a record may have, with its Go type and what
// it holds. A string field holds a driver-chosen word or a bounded id, never
// free text. Adding a field (a "Text", a "Key", a "Value") fails this test on
// purpose: read docs/contract.md#audit-log and the package comment before
// changing the list.
var allowedFields = map[string]string{
	"TimeMs":   "int64",  // Unix milliseconds
	"Event":    "string", // a fixed event name
	"Session":  "string", // a session id the driver made
	"Tool":     "string", // a tool name from the tool table
	"Exe":      "string", // executable basename from /proc
	"WindowID": "uint64",
	"Outcome":  "string", // "ok" or an error code
	"Path":     "string", // the act's input path word
	"Effect":   "string", // an effect word
	"Reason":   "string", // a driver-chosen reason word
	"By":       "string", // indicator or host
	"Op":       "string", // clipboard read or write
	"Length":   "*int",   // clipboard length, a count
	"Apps":     "int",    // a count
}

func TestRecordHasOnlyAllowedFields(t *testing.T) {
	typ := reflect.TypeOf(Record{})
	seen := map[string]bool{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		want, ok := allowedFields[f.Name]
		if !ok {
			t.Errorf("Record has field %s, which is not on the allowed list", f.Name)
			continue
		}
		if got := f.Type.String(); got != want {
			t.Errorf("Record.%s is %s, want %s", f.Name, got, want)
		}
		seen[f.Name] = true
	}
	for name := range allowedFields {
		if !seen[name] {
			t.Errorf("allowed field %s is missing from Record (update the list)", name)
		}
	}
}

func TestRecordJSONKeys(t *testing.T) {
	n := 3
	full := Record{TimeMs: 1, Event: "e", Session: "s", Tool: "t", Exe: "x", WindowID: 2,
		Outcome: "ok", Path: "p", Effect: "f", Reason: "r", By: "host", Op: "read", Length: &n, Apps: 1}
	b, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := "apps by effect event exe length op outcome path reason session time_ms tool window_id"
	if got := strings.Join(keys, " "); got != want {
		t.Fatalf("JSON keys %q, want %q", got, want)
	}
	b, _ = json.Marshal(Record{Event: "kill_switch", TimeMs: 5})
	if string(b) != `{"time_ms":5,"event":"kill_switch"}` {
		t.Fatalf("empty fields are not left out: %s", b)
	}
}
