package mcpserver

import (
	"context"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	mcpwire "github.com/nish-driver/nish-driver/internal/mcpserver/wire"
)

// sessions keeps one engine connection per MCP server session. The
// connection is opened when the session initializes (or, for a client of
// the sessionless protocol that never sends initialize, at its first
// request) and closed when the MCP connection ends, which ends the engine
// session and removes any takeover indicator.
type sessions struct {
	d       *engine.Driver
	peerPid func(*mcp.ServerSession) int
	logger  *slog.Logger

	mu    sync.Mutex
	conns map[*mcp.ServerSession]*engine.Conn
	// live counts connections opened and not yet fully closed; closed is
	// signalled (under mu) each time one finishes closing.
	live   int
	closed *sync.Cond
}

func newSessions(d *engine.Driver, peerPid func(*mcp.ServerSession) int, logger *slog.Logger) *sessions {
	s := &sessions{d: d, peerPid: peerPid, logger: logger, conns: map[*mcp.ServerSession]*engine.Conn{}}
	s.closed = sync.NewCond(&s.mu)
	return s
}

// middleware opens the engine connection once initialize (or the
// sessionless protocol's server/discover) has succeeded, naming the client.
func (s *sessions) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		if mcpwire.Opens(method) {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
				s.open(ss, clientName(req, ss))
			}
		}
		return res, err
	}
}

// open returns the session's engine connection, making it on first use and
// renaming the client when initialize names it.
func (s *sessions) open(ss *mcp.ServerSession, client string) *engine.Conn {
	info := engine.ClientInfo{Name: client, Pid: s.peerPid(ss)}
	s.mu.Lock()
	conn, ok := s.conns[ss]
	if !ok {
		conn = s.d.Connect(info)
		s.conns[ss] = conn
		s.live++
	}
	s.mu.Unlock()
	if ok {
		if client != "" {
			conn.SetClient(info)
		}
		return conn
	}
	s.logger.Info("mcp session opened")
	go func() {
		// Wait returns once the transport is closed and every in-flight
		// request has finished, so no call runs on the connection after it.
		_ = ss.Wait()
		s.close(ss)
	}()
	return conn
}

// close ends the session's engine connection.
func (s *sessions) close(ss *mcp.ServerSession) {
	s.mu.Lock()
	conn := s.conns[ss]
	delete(s.conns, ss)
	s.mu.Unlock()
	if conn != nil {
		conn.Close()
		s.mu.Lock()
		s.live--
		s.closed.Broadcast()
		s.mu.Unlock()
		s.logger.Info("mcp session closed")
	}
}

// closeAll ends every open connection and waits until every close under
// way has finished. A connection opened meanwhile (a new session on a
// daemon) stays open and is not waited for.
func (s *sessions) closeAll() {
	s.mu.Lock()
	open := make([]*mcp.ServerSession, 0, len(s.conns))
	for ss := range s.conns {
		open = append(open, ss)
	}
	s.mu.Unlock()
	for _, ss := range open {
		s.close(ss)
	}
	s.mu.Lock()
	for s.live > len(s.conns) {
		s.closed.Wait()
	}
	s.mu.Unlock()
}

// forCall returns the connection a tool call runs on, and a release to
// call after it. A call without a server session (never seen from the SDK)
// runs on a connection of its own that ends with the call.
func (s *sessions) forCall(req *mcp.CallToolRequest) (*engine.Conn, func()) {
	if req.Session == nil {
		conn := s.d.Connect(engine.ClientInfo{Name: clientName(req, nil)})
		return conn, conn.Close
	}
	s.mu.Lock()
	conn, ok := s.conns[req.Session]
	s.mu.Unlock()
	if ok {
		return conn, func() {}
	}
	return s.open(req.Session, clientName(req, req.Session)), func() {}
}

// clientName is the client's clientInfo.name: from the request's own _meta
// under the sessionless protocol, else from the session's initialize.
func clientName(req mcp.Request, ss *mcp.ServerSession) string {
	if r, ok := req.(interface{ ClientInfo() *mcp.Implementation }); ok {
		if info := r.ClientInfo(); info != nil {
			return info.Name
		}
	}
	if ss != nil {
		if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
			return p.ClientInfo.Name
		}
	}
	return ""
}
