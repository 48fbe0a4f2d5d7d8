// Package wire is the MCP server's own transport under the go-sdk: it owns
// the newline-delimited JSON-RPC stream (stdio, or a daemon socket) and
// checks every line before the SDK sees it.
//
// The SDK's own stream transport treats a line it cannot decode as the end
// of the connection: one stray byte-order mark, a bare number, an id that is
// an object, or a deeply nested argument ended the server and the person's
// session with it. Here a line that is not a JSON-RPC request gets the error
// reply JSON-RPC 2.0 prescribes (-32700 parse error, -32600 invalid request,
// id null when no id can be read), written by this layer, and the
// connection goes on. A line over the size bound or nested deeper than
// MaxDepth is refused the same way.
//
// Request ids go back exactly as the client wrote them. The SDK parses ids
// into Go numbers (1.5 became 1, a 30-digit id overflowed), so each call is
// handed to the SDK under an internal id of this layer, and the client's raw
// id bytes are put back on the reply. The same table maps the id of a
// notifications/cancelled to the internal one, and a call the client
// cancelled gets no reply at all, as MCP says.
//
// Error replies that come from the SDK are rewritten to a fixed message per
// JSON-RPC code: the SDK's messages repeat the client's input and name Go
// types, and a few of its errors carry code 0, which is no JSON-RPC code.
// Those are mostly the client's lifecycle mistakes (a call before
// initialize, a second initialize), coded from the connection's lifecycle
// (lifecycle.go).
//
// A tool result can also bypass the SDK's encoding: the server encodes it
// itself, once, and hands the bytes to the connection (Conn.Hold); the SDK
// carries only a short placeholder, and Write puts the held bytes in its
// place on the reply line. The SDK encodes a result in nested layers, each
// scanning and copying the one below, which for a 5,000-row read cost more
// than the read (docs/performance.md, "The MCP path").
package wire
