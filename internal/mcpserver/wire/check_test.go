package wire

import (
	"strings"
	"testing"
)

func TestCheckLineSortsEachLine(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name    string
		line    string
		fatal   int64 // the code answering the whole line, 0 for none
		entries int
		invalid []int64 // codes of the invalid entries, in order
	}{
		{"a call", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, 1, nil},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, 1, nil},
		{"null params is no params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, 0, 1, nil},
		{"a client's reply", `{"jsonrpc":"2.0","id":3,"result":{}}`, 0, 1, nil},
		{"not JSON", `nope`, codeParseError, 0, nil},
		{"byte-order mark", "\xef\xbb\xbf{}", codeParseError, 0, nil},
		{"two values", `{}{}`, codeParseError, 0, nil},
		{"nested at the bound", deep(MaxDepth), 0, 1, []int64{codeInvalidRequest}},
		{"nested past the bound", deep(MaxDepth + 1), codeInvalidRequest, 0, nil},
		{"brackets inside a string do not count", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("[", 1000) + `\"["}}`, 0, 1, nil},
		{"bare value", `7`, 0, 1, []int64{codeInvalidRequest}},
		{"bool id", `{"jsonrpc":"2.0","id":false,"method":"ping"}`, 0, 1, []int64{codeInvalidRequest}},
		{"empty batch", `[]`, codeInvalidRequest, 0, nil},
		{"mixed batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},3,{"jsonrpc":"2.0","method":"x"}]`, 0, 3, []int64{codeInvalidRequest}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkLine([]byte(tc.line))
			var fatal int64
			if got.fatal != nil {
				fatal = got.fatal.code
				if string(got.fatal.id) != "null" {
					t.Errorf("fatal id %s, want null", got.fatal.id)
				}
			}
			if fatal != tc.fatal || len(got.entries) != tc.entries {
				t.Fatalf("fatal %d with %d entries, want %d with %d", fatal, len(got.entries), tc.fatal, tc.entries)
			}
			var invalid []int64
			for _, e := range got.entries {
				if e.err != nil {
					invalid = append(invalid, e.err.code)
				}
			}
			if len(invalid) != len(tc.invalid) {
				t.Errorf("invalid entries %v, want %v", invalid, tc.invalid)
			}
		})
	}
}

func TestLineReaderSkipsWhatIsTooLong(t *testing.T) {
	r := newLineReader(strings.NewReader("\n ab\r\n"+strings.Repeat("x", 200)+"\nlast"), 10)
	want := []line{{data: []byte(" ab")}, {tooLong: true}, {data: []byte("last")}}
	for i, w := range want {
		got, err := r.next()
		if err != nil || got.tooLong != w.tooLong || string(got.data) != string(w.data) {
			t.Fatalf("line %d: %q tooLong=%v (%v), want %q tooLong=%v", i, got.data, got.tooLong, err, w.data, w.tooLong)
		}
	}
	if _, err := r.next(); err == nil {
		t.Error("a line after the end")
	}
}
