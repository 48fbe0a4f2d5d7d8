package daemon

import (
	"bytes"
	"context"
	"io"
	"net"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/internal/mcpserver/wire"
)

// isMCPOpening says whether a connection's first frame opens an MCP
// session: a call that opens one (wire.Opens: initialize, or
// server/discover, which is how clients of the SDK's sessionless protocol
// open; stdio serves both, and a socket session is served exactly as
// stdio).
func isMCPOpening(frame []byte) bool {
	d := decodeFrame(frame)
	if d.fatal != nil || d.batch || len(d.entries) != 1 || d.entries[0].err != nil {
		return false
	}
	req := d.entries[0].req
	return !req.isNotification() && wire.Opens(req.method)
}

// socketTransport is an MCP transport over an accepted connection whose
// first frame was already read: the session reads that frame again, then
// the rest of the connection, through the MCP layer's own checking
// transport (package wire), which answers a junk or oversized line with a
// JSON-RPC error and goes on; replies go through the connection's outbox.
// Its connection carries a session id of its own so the daemon can tell
// the MCP layer which peer pid the session belongs to.
type socketTransport struct {
	id   string
	in   io.Reader
	conn net.Conn
	out  *outbox
}

func newSocketTransport(id string, conn net.Conn, out *outbox, fr *frameReader, first []byte) *socketTransport {
	replay := append(append([]byte(nil), first...), '\n')
	return &socketTransport{
		id:   id,
		in:   io.MultiReader(bytes.NewReader(replay), fr.r),
		conn: conn,
		out:  out,
	}
}

// Connect implements mcp.Transport, under the daemon's frame bound.
func (t *socketTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	w := &wire.Transport{
		Reader:    &socketReader{r: t.in, conn: t.conn},
		Writer:    &outboxWriter{out: t.out},
		MaxFrame:  MaxFrame - 1,
		SessionID: t.id,
	}
	return w.Connect(ctx)
}

// socketReader reads the connection; closing it stops reading only (a
// read deadline in the past wakes a blocked read), so replies already
// queued still go out.
type socketReader struct {
	r    io.Reader
	conn net.Conn
}

func (r *socketReader) Read(p []byte) (int, error) { return r.r.Read(p) }

func (r *socketReader) Close() error {
	return r.conn.SetReadDeadline(time.Unix(1, 0))
}

// outboxWriter hands each whole message the SDK writes to the outbox.
type outboxWriter struct{ out *outbox }

func (w *outboxWriter) Write(p []byte) (int, error) {
	if err := w.out.send(append([]byte(nil), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close lets the writer send what is queued, then close the connection.
func (w *outboxWriter) Close() error {
	w.out.finish()
	return nil
}

// stopOnDone ends a session's reads as soon as done ends (the daemon is
// stopping), so a shutdown does not wait out the drain bound that lets a
// half-closed client still get its answers: the SDK then cancels the calls
// still running, a consent dialog included.
type stopOnDone struct {
	mcp.Transport
	done context.Context
}

func (t *stopOnDone) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &stopOnDoneConn{Connection: c, done: t.done}, nil
}

type stopOnDoneConn struct {
	mcp.Connection
	done context.Context
}

// Unwrap gives the connection under this one, so the MCP server finds the
// wire connection that carries its pre-encoded results (the lean path).
func (c *stopOnDoneConn) Unwrap() mcp.Connection { return c.Connection }

func (c *stopOnDoneConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(c.done, cancel)
	defer stop()
	return c.Connection.Read(ctx)
}
