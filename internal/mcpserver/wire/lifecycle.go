package wire

// Opens says whether a call of method opens an MCP session once it is
// answered with a result: initialize, or server/discover for clients of
// the sessionless protocol. The daemon tells an MCP connection by its
// first call, and the MCP layer opens an engine connection, by the same
// list.
func Opens(method string) bool {
	return method == "initialize" || method == "server/discover"
}

// The messages of the SDK's lifecycle refusals, fixed here: the SDK's own
// repeat the client's method name.
const (
	msgNotInitialized     = "invalid request: the session is not initialized; send initialize first"
	msgAlreadyInitialized = "invalid request: the session is already initialized"
	msgInvalidParams      = "invalid params"
	msgInternal           = "internal error"
)

// lifecycle is what the reply to a call knows of the MCP lifecycle: the
// call's method, and whether the connection had already answered a call
// that opens the session (Opens) with a result.
type lifecycle struct {
	method string
	open   bool
}

// codeless codes an error the SDK gave without a JSON-RPC code (go-sdk
// v1.8.0 uses 0). It gives none to three mistakes of the client in the
// MCP lifecycle, and which one it was follows from the method and whether
// the session was open:
//   - a second initialize: -32600, the session is already initialized;
//   - a first initialize whose params the SDK cannot read: -32602;
//   - any other call before the session opened (the SDK's "invalid during
//     session initialization"): -32600, not initialized.
//
// MCP gives these no code of its own, and -32600 is JSON-RPC's for a
// request the server does not take as sent (the TypeScript SDK answers a
// second initialize with it too). Anything else without a code, on an
// open session, is the server's own failure: -32603.
func (l lifecycle) codeless() (int64, string) {
	switch {
	case l.method == "initialize" && l.open:
		return codeInvalidRequest, msgAlreadyInitialized
	case l.method == "initialize":
		return codeInvalidParams, msgInvalidParams
	case !l.open:
		return codeInvalidRequest, msgNotInitialized
	}
	return codeInternalError, msgInternal
}
