// Package daemon is `nish-driver daemon`: one driver process that owns the
// display and serves several hosts over a private Unix socket (docs/daemon.md).
//
// A connection speaks JSON-RPC 2.0, one JSON value a line. Its first request
// decides what it is: `hello {protocol: 1}` makes it a control connection
// for the daemon's own methods (hello, metadata, doctor, sessions.list,
// kill); an MCP opening (`initialize`) makes it an MCP session served by the
// same mcpserver.Server as stdio, on the same engine.Driver, so every host
// shares one display owner and one kill switch.
//
// The files follow the connection's life: endpoint.go sets up the socket
// (private directory, lock, stale-socket rule), peer.go and peercred_*.go
// say who connected, frame.go cuts the byte stream into frames, rpc.go
// decodes envelopes and keeps reply ids exact, outbox.go is each
// connection's single bounded writer, methods.go answers the daemon's
// methods, mcpconn.go hands a connection to MCP, and server.go accepts,
// tracks and shuts down connections. bridge.go is the client side used by
// `nish-driver mcp --connect`.
//
// Nothing a client sends, and nothing the engine answers, is written to the
// daemon's log: it records lifecycle lines, reasons and numeric ids only.
package daemon
