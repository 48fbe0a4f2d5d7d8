package daemon

import (
	"strings"
	"testing"
)

func TestDecodeFrame(t *testing.T) {
	cases := []struct {
		name      string
		frame     string
		fatalCode int    // the whole frame's error, 0 for none
		entryCode int    // the first entry's error, 0 for none
		replyID   string // the id an entry's error or request carries
		notify    bool
		method    string
		params    string
	}{
		{name: "a request", frame: `{"jsonrpc":"2.0","id":7,"method":"hello","params":{"protocol":1}}`, replyID: "7", method: "hello", params: `{"protocol":1}`},
		{name: "a notification has no id", frame: `{"jsonrpc":"2.0","method":"kill"}`, notify: true, method: "kill"},
		{name: "a null id is a request", frame: `{"jsonrpc":"2.0","id":null,"method":"kill"}`, replyID: "null", method: "kill"},
		{name: "a big id stays text", frame: `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"kill"}`, replyID: "123456789012345678901234567890", method: "kill"},
		{name: "null params are kept as null", frame: `{"jsonrpc":"2.0","id":1,"method":"kill","params":null}`, replyID: "1", method: "kill", params: "null"},
		{name: "not JSON", frame: `{"jsonrpc":"2.0",`, fatalCode: CodeParseError},
		{name: "two values on a line", frame: `{} {}`, fatalCode: CodeParseError},
		{name: "not UTF-8", frame: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", fatalCode: CodeParseError},
		{name: "an empty batch", frame: `[]`, fatalCode: CodeInvalidRequest},
		{name: "not an object", frame: `42`, entryCode: CodeInvalidRequest, replyID: "null"},
		{name: "an object id", frame: `{"jsonrpc":"2.0","id":{},"method":"kill"}`, entryCode: CodeInvalidRequest, replyID: "null"},
		{name: "a boolean id", frame: `{"jsonrpc":"2.0","id":true,"method":"kill"}`, entryCode: CodeInvalidRequest, replyID: "null"},
		{name: "no jsonrpc", frame: `{"id":3,"method":"kill"}`, entryCode: CodeInvalidRequest, replyID: "3"},
		{name: "jsonrpc 1.0", frame: `{"jsonrpc":"1.0","id":3,"method":"kill"}`, entryCode: CodeInvalidRequest, replyID: "3"},
		{name: "method not a string", frame: `{"jsonrpc":"2.0","id":"x","method":5}`, entryCode: CodeInvalidRequest, replyID: `"x"`},
		{name: "method names are case-sensitive members", frame: `{"jsonrpc":"2.0","id":1,"Method":"kill"}`, entryCode: CodeInvalidRequest, replyID: "1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := decodeFrame([]byte(tc.frame))
			if tc.fatalCode != 0 {
				if d.fatal == nil || d.fatal.Error.Code != tc.fatalCode || string(d.fatal.ID) != "null" {
					t.Fatalf("fatal %+v, want code %d with id null", d.fatal, tc.fatalCode)
				}
				return
			}
			if d.fatal != nil || len(d.entries) != 1 {
				t.Fatalf("decoded %+v, want one entry", d)
			}
			e := d.entries[0]
			if tc.entryCode != 0 {
				if e.err == nil || e.err.Error.Code != tc.entryCode || string(e.err.ID) != tc.replyID {
					t.Fatalf("entry error %+v, want code %d with id %s", e.err, tc.entryCode, tc.replyID)
				}
				return
			}
			if e.err != nil {
				t.Fatalf("entry error %+v", e.err.Error)
			}
			if e.req.isNotification() != tc.notify || e.req.method != tc.method || string(e.req.params) != tc.params {
				t.Errorf("request %+v, want notify %v method %q params %q", e.req, tc.notify, tc.method, tc.params)
			}
			if !tc.notify && string(e.req.id) != tc.replyID {
				t.Errorf("id %s, want %s", e.req.id, tc.replyID)
			}
		})
	}
}

func TestDecodeFrameBatchKeepsOrder(t *testing.T) {
	d := decodeFrame([]byte(`[{"jsonrpc":"2.0","id":1,"method":"a"}, 5, {"jsonrpc":"2.0","method":"b"}, {"jsonrpc":"2.0","id":"z","method":"c"}]`))
	if !d.batch || d.fatal != nil || len(d.entries) != 4 {
		t.Fatalf("decoded %+v, want a batch of 4", d)
	}
	var got []string
	for _, e := range d.entries {
		if e.err != nil {
			got = append(got, "error")
		} else {
			got = append(got, e.req.method)
		}
	}
	if strings.Join(got, ",") != "a,error,b,c" {
		t.Errorf("entries %v, want a,error,b,c", got)
	}
}

func TestEncodeKeepsStringIDsByteForByte(t *testing.T) {
	b, err := encode(resultResponse([]byte(`"<a&b>"`), []byte(`{}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"jsonrpc":"2.0","id":"<a&b>","result":{}}`+"\n"; got != want {
		t.Errorf("encoded %s, want %s", got, want)
	}
}
