package testkit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Decode turns a tool's structured result (any JSON-marshalable value) into
// the generic map a model's client would see.
func Decode(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// JSON is v as the JSON text a client receives, for checks on what a
// result says anywhere in it (a leak, a readback in a diff).
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Rows is a decoded read's element rows. A read without them (nil, as a
// failed call leaves it, or elements that are not a list of objects) fails
// the test saying so, where indexing it would panic and hide the call's
// error. A helper that has the failed call's code says it first.
func Rows(t testing.TB, read map[string]any) []map[string]any {
	t.Helper()
	if read == nil {
		t.Fatal("no read to take rows from: the read failed")
	}
	elems, ok := read["elements"].([]any)
	if !ok {
		t.Fatalf("the read has no list of elements (elements is %T):\n%v", read["elements"], read)
	}
	rows := make([]map[string]any, len(elems))
	for i, e := range elems {
		if rows[i], ok = e.(map[string]any); !ok {
			t.Fatalf("element %d of the read is %T, not a row object: %v", i, e, e)
		}
	}
	return rows
}

// Field is m[key] as a T. An m without key, or with another type there,
// fails the test naming the key and what m holds, never a panic.
func Field[T any](t testing.TB, m map[string]any, key string) T {
	t.Helper()
	v, ok := m[key].(T)
	if !ok {
		var want T
		t.Fatalf("no %T %q (it is %T) in %v", want, key, m[key], m)
	}
	return v
}

// Int is m[key], a JSON number, as an int: the way a decoded result holds
// a count, an index or a coordinate. It fails the test as Field does.
func Int(t testing.TB, m map[string]any, key string) int {
	t.Helper()
	return int(Field[float64](t, m, key))
}

// FindRow returns the first row of a decoded read whose role is role and,
// unless label is "", whose label is label; ok is false when there is none.
func FindRow(read map[string]any, role, label string) (row map[string]any, ok bool) {
	return FindRowOf(read, label, role)
}

// FindRowOf is FindRow for an element that may have any of several roles
// (a browser's page is document_web in Chromium, document_frame in
// Firefox): the first row in the read's order whose role is one of roles.
func FindRowOf(read map[string]any, label string, roles ...string) (row map[string]any, ok bool) {
	elems, _ := read["elements"].([]any)
	for _, e := range elems {
		r, _ := e.(map[string]any)
		role, isText := r["role"].(string)
		if isText && slices.Contains(roles, role) && (label == "" || r["label"] == label) {
			return r, true
		}
	}
	return nil, false
}

// Row is FindRow that fails the test, showing the read, when no row
// matches.
func Row(t testing.TB, read map[string]any, role, label string) map[string]any {
	t.Helper()
	r, ok := FindRow(read, role, label)
	if !ok {
		t.Fatalf("no %s %q row in the read:\n%v", role, label, read["tree_text"])
	}
	return r
}

// Token is the element token of Row's row.
func Token(t testing.TB, read map[string]any, role, label string) string {
	t.Helper()
	return Field[string](t, Row(t, read, role, label), "element_token")
}

// RowLines renders a read's elements as comparable lines, sorted: each
// row's index, role, label, value, states, parent, child count, frame and
// actions, without the snapshot id, so that two reads of the same state
// compare equal.
func RowLines(elements any) []string {
	rows, _ := elements.([]any)
	out := make([]string, 0, len(rows))
	for _, e := range rows {
		row, _ := e.(map[string]any)
		tok, _ := row["element_token"].(string)
		states, _ := json.Marshal(row["states"])
		frame, _ := json.Marshal(row["frame"])
		out = append(out, fmt.Sprintf("%s %v %q %q %s parent=%v children=%v frame=%s actions=%v", tok[strings.IndexByte(tok, ':')+1:],
			row["role"], row["label"], row["value"], states, row["parent_index"], row["child_count"], frame, row["actions"]))
	}
	slices.Sort(out)
	return out
}
