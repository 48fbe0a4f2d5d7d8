package daemon

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// JSON-RPC error codes the daemon (and the stop socket) answer with. The standard ones are the
// JSON-RPC 2.0 specification's; -32001 is the socket convention's code for
// a missing or incompatible handshake.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	CodeHandshake      = -32001
)

// request is one decoded call or notification. id is the id exactly as the
// client wrote it (a string, a number of any size, or null), never passed
// through a Go number; it is nil for a notification.
type request struct {
	id     json.RawMessage
	method string
	// params is nil when absent and "null" when the client sent null.
	params json.RawMessage
}

func (r request) isNotification() bool { return r.id == nil }

// RPCError is a JSON-RPC error object. Data, when present, is the contract's
// error object (docs/contract.md#error-envelope). The stop socket speaks
// the same JSON-RPC and uses it too.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Response is one JSON-RPC response (the daemon's and the stop socket's).
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

// decoded is one frame taken apart: either a single entry or a batch, each
// entry a request or the error that entry earns on its own.
type decoded struct {
	batch   bool
	entries []entry
	// fatal answers the whole frame (unparseable, or an empty batch).
	fatal *Response
}

type entry struct {
	req request
	err *Response // set when the entry is not a valid request
}

// decodeFrame parses one frame by JSON-RPC 2.0's rules.
func decodeFrame(frame []byte) decoded {
	if !utf8.Valid(frame) || !json.Valid(frame) {
		return decoded{fatal: errorResponse(nullID, CodeParseError, "the frame is not one UTF-8 JSON value", nil)}
	}
	trimmed := bytes.TrimSpace(frame)
	if trimmed[0] != '[' {
		return decoded{entries: []entry{decodeEntry(trimmed)}}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(trimmed, &items); err != nil {
		return decoded{fatal: errorResponse(nullID, CodeParseError, "the batch cannot be read", nil)}
	}
	if len(items) == 0 {
		return decoded{fatal: errorResponse(nullID, CodeInvalidRequest, "an empty batch is not a request", nil)}
	}
	d := decoded{batch: true, entries: make([]entry, 0, len(items))}
	for _, item := range items {
		d.entries = append(d.entries, decodeEntry(item))
	}
	return d
}

// decodeEntry reads one request object. Fields are matched exactly and
// case-sensitively; unknown members are ignored.
func decodeEntry(raw json.RawMessage) entry {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return entry{err: errorResponse(nullID, CodeInvalidRequest, "a request must be a JSON object", nil)}
	}
	id, hasID := m["id"]
	if hasID && !validID(id) {
		return entry{err: errorResponse(nullID, CodeInvalidRequest, "id must be a string, a number or null", nil)}
	}
	replyID := nullID
	if hasID {
		replyID = id
	}
	var version string
	if err := json.Unmarshal(m["jsonrpc"], &version); err != nil || version != "2.0" {
		return entry{err: errorResponse(replyID, CodeInvalidRequest, `jsonrpc must be "2.0"`, nil)}
	}
	var method string
	if err := json.Unmarshal(m["method"], &method); err != nil || method == "" {
		return entry{err: errorResponse(replyID, CodeInvalidRequest, "method must be a non-empty string", nil)}
	}
	req := request{method: method, params: m["params"]}
	if hasID {
		req.id = id
	}
	return entry{req: req}
}

// Request is one request object as DecodeRequest reads it.
type Request struct {
	Method string
	ID     json.RawMessage // nil for a notification
	Params json.RawMessage // nil when absent, "null" when sent as null
}

// DecodeRequest reads one request object (not a batch) by this socket's
// rules: what a request is, which ids are allowed, and the error response
// for what is not one. The stop socket (internal/stopsock) reads its lines
// with it, so both sockets answer a malformed request alike.
func DecodeRequest(raw []byte) (Request, *Response) {
	e := decodeEntry(bytes.TrimSpace(raw))
	if e.err != nil {
		return Request{}, e.err
	}
	return Request{Method: e.req.method, ID: e.req.id, Params: e.req.params}, nil
}

// validID accepts the id types JSON-RPC allows.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	case bytes.Equal(id, nullID):
		return true
	}
	return false
}

func errorResponse(id json.RawMessage, code int, message string, data any) *Response {
	return &Response{JSONRPC: "2.0", ID: id, Error: &RPCError{Code: code, Message: message, Data: data}}
}

func resultResponse(id json.RawMessage, result json.RawMessage) *Response {
	return &Response{JSONRPC: "2.0", ID: id, Result: result}
}

// encode writes a value as one line. HTML escaping is off so string ids
// come back byte for byte, not only as equal values.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
