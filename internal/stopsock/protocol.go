package stopsock

import (
	"encoding/json"
	"time"

	"github.com/nish-driver/nish-driver/internal/daemon"
)

// The wire is the daemon socket's (docs/daemon.md), cut down to what stop
// needs: JSON-RPC 2.0, one JSON value a line, hello {protocol: 1} first,
// then kill, which answers the sessions it ended. Every connection is short:
// stop sends both requests at once and reads both replies.
//
//	→ {"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}
//	→ {"jsonrpc":"2.0","id":2,"method":"kill"}
//	← {"jsonrpc":"2.0","id":1,"result":{"protocol":1,...,"methods":["hello","kill"],"peer":"unix:uid=...,gid=...,pid=..."}}
//	← {"jsonrpc":"2.0","id":2,"result":{"ended":["mcp:claude:4242"]}}

// Methods are what a stop socket answers, in the order hello lists them.
var Methods = []string{"hello", "kill"}

// MaxFrame is the size from which a request line closes its connection: a
// stop socket takes two short requests, nothing more.
const MaxFrame = 4 << 10

// ConnBound bounds one connection on the driver's side, from accept to the
// last reply: a client that stalls never holds the socket longer.
const ConnBound = 10 * time.Second

// reply is one line a stop socket writes: the daemon socket's JSON-RPC
// response, with its codes.
type reply = daemon.Response

// encodeLine writes v as one line.
func encodeLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only our own reply types are encoded; they always encode.
		panic(err)
	}
	return append(b, '\n')
}

// errorReply is the reply to id for an error.
func errorReply(id json.RawMessage, code int, message string) reply {
	return rpcErrorReply(id, &daemon.RPCError{Code: code, Message: message})
}

// rpcErrorReply is the reply to id for an error the daemon's rules gave.
func rpcErrorReply(id json.RawMessage, err *daemon.RPCError) reply {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return reply{JSONRPC: "2.0", ID: id, Error: err}
}

// resultReply is the reply to id for a result.
func resultReply(id json.RawMessage, v any) reply {
	b, err := json.Marshal(v)
	if err != nil {
		return errorReply(id, daemon.CodeInternalError, "the result could not be encoded")
	}
	return reply{JSONRPC: "2.0", ID: id, Result: b}
}
