package wire

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxDepth bounds how deeply arrays and objects may nest in one line. The
// contract's deepest request (tools/call with a list argument) nests four
// levels; the bound leaves room for any client's _meta while keeping the
// SDK's decoders far from their own limits.
const MaxDepth = 64

// The JSON-RPC 2.0 codes this layer answers with.
const (
	codeParseError     = jsonrpc.CodeParseError
	codeInvalidRequest = jsonrpc.CodeInvalidRequest
	codeInvalidParams  = jsonrpc.CodeInvalidParams
	codeInternalError  = jsonrpc.CodeInternalError
	codeMethodNotFound = jsonrpc.CodeMethodNotFound
)

// nullID is the id of a reply to a request whose id cannot be read.
var nullID = json.RawMessage("null")

// checked is one line taken apart: a single entry or a batch of them, or
// one error that answers the whole line.
type checked struct {
	batch   bool
	entries []entry
	fatal   *errReply
}

// entry is one JSON-RPC message of a line: a call (id set), a notification
// (id nil), a client's response to a server request (response set), or an
// invalid one (err set).
type entry struct {
	id       json.RawMessage // the client's id, byte for byte
	method   string
	params   json.RawMessage
	response jsonrpc.Message
	err      *errReply
}

// errReply is an error reply this layer writes itself.
type errReply struct {
	id      json.RawMessage
	code    int64
	message string
}

// The messages of this layer's own replies. They describe the fault and
// never repeat what the client sent.
const (
	msgNotJSON    = "parse error: the line is not one UTF-8 JSON value"
	msgTooDeep    = "invalid request: arrays and objects nest too deeply"
	msgTooLarge   = "invalid request: the line is too long"
	msgNotObject  = "invalid request: a request is a JSON object"
	msgEmptyBatch = "invalid request: an empty batch"
	msgBadID      = "invalid request: the id must be a string or a number"
	msgBadVersion = `invalid request: jsonrpc must be "2.0"`
	msgNoMethod   = "invalid request: method is missing"
	msgBadMethod  = "invalid request: method must be a string"
	msgBadParams  = "invalid request: params must be an object or an array"
)

// checkLine decides what one line is, by JSON-RPC 2.0's rules.
func checkLine(data []byte) checked {
	data = bytes.TrimSpace(data)
	if tooDeep(data, MaxDepth) {
		return checked{fatal: &errReply{id: nullID, code: codeInvalidRequest, message: msgTooDeep}}
	}
	if !utf8.Valid(data) || !json.Valid(data) {
		return checked{fatal: &errReply{id: nullID, code: codeParseError, message: msgNotJSON}}
	}
	if data[0] != '[' {
		return checked{entries: []entry{checkEntry(data)}}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return checked{fatal: &errReply{id: nullID, code: codeParseError, message: msgNotJSON}}
	}
	if len(items) == 0 {
		return checked{fatal: &errReply{id: nullID, code: codeInvalidRequest, message: msgEmptyBatch}}
	}
	out := checked{batch: true, entries: make([]entry, 0, len(items))}
	for _, item := range items {
		out.entries = append(out.entries, checkEntry(item))
	}
	return out
}

// checkEntry checks one JSON value that should be a request object.
func checkEntry(raw json.RawMessage) entry {
	invalid := func(id json.RawMessage, msg string) entry {
		return entry{err: &errReply{id: id, code: codeInvalidRequest, message: msg}}
	}
	if len(raw) == 0 || raw[0] != '{' {
		return invalid(nullID, msgNotObject)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return invalid(nullID, msgNotObject)
	}
	id, hasID := m["id"]
	if hasID && !isIDValue(id) {
		return invalid(nullID, msgBadID)
	}
	replyID := nullID
	if hasID {
		replyID = id
	}
	if v, ok := m["jsonrpc"]; !ok || string(v) != `"2.0"` {
		var s string
		if !ok || json.Unmarshal(v, &s) != nil || s != "2.0" {
			return invalid(replyID, msgBadVersion)
		}
	}
	methodRaw, hasMethod := m["method"]
	if !hasMethod {
		_, hasResult := m["result"]
		_, hasError := m["error"]
		if hasID && (hasResult || hasError) {
			// A reply to a request of the server's: the SDK matches it.
			// One it cannot read is dropped, as a reply cannot be answered.
			msg, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return entry{}
			}
			return entry{response: msg}
		}
		return invalid(replyID, msgNoMethod)
	}
	var method string
	if err := json.Unmarshal(methodRaw, &method); err != nil {
		return invalid(replyID, msgBadMethod)
	}
	params, hasParams := m["params"]
	if hasParams {
		switch {
		case string(params) == "null":
			params = nil
		case params[0] != '{' && params[0] != '[':
			return invalid(replyID, msgBadParams)
		}
	}
	e := entry{method: method, params: params}
	if hasID {
		e.id = id
	}
	return e
}

// isIDValue says whether a raw JSON value may be a request id: a string or
// a number. Null is refused too: MCP requires an id on every request.
func isIDValue(v json.RawMessage) bool {
	if len(v) == 0 {
		return false
	}
	c := v[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

// tooDeep says whether arrays and objects nest deeper than max anywhere in
// data, strings aside. It reads the bytes once and allocates nothing, so
// even a line of a million brackets costs no more than its length.
func tooDeep(data []byte, max int) bool {
	depth := 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > max {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
