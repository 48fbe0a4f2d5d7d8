package mcpserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	mcpwire "github.com/nish-driver/nish-driver/internal/mcpserver/wire"
)

// holder is a connection that can carry a tool result the server encoded
// itself (wire.Conn): the lean path. The SDK's own encoding of a large
// result costs more than the engine's read of it (EncodeResult says why),
// so on such a connection a result is encoded once, here, and the SDK
// carries a placeholder that the connection swaps for the bytes.
type holder interface {
	Hold(result []byte) mcpwire.Placeholder
}

// unwrapper is a connection wrapping another (DrainInput's, the daemon's).
type unwrapper interface {
	Unwrap() mcp.Connection
}

// holderOf finds the holder under a chain of wrapping connections; nil
// when the transport is another (the SDK's in-memory one in tests).
func holderOf(c mcp.Connection) holder {
	for c != nil {
		if h, ok := c.(holder); ok {
			return h
		}
		u, ok := c.(unwrapper)
		if !ok {
			return nil
		}
		c = u.Unwrap()
	}
	return nil
}

// holders maps each server session to its connection's holder, when it
// has one.
type holders struct {
	mu sync.Mutex
	m  map[*mcp.ServerSession]holder
}

func (h *holders) set(ss *mcp.ServerSession, hd holder) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[*mcp.ServerSession]holder{}
	}
	h.m[ss] = hd
}

func (h *holders) drop(ss *mcp.ServerSession) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.m, ss)
}

func (h *holders) of(ss *mcp.ServerSession) holder {
	if ss == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m[ss]
}

// capture is a transport that remembers the connection it made.
type capture struct {
	mcp.Transport
	conn mcp.Connection
}

func (c *capture) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := c.Transport.Connect(ctx)
	c.conn = conn
	return conn, err
}

// Connect serves one more session over t, as the SDK's Connect does, and
// takes the lean path for its tool results when t's connection is the
// wire transport's. A call that arrives before Connect returns takes the
// SDK's path: the same bytes, encoded more slowly.
func (s *Server) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	c := &capture{Transport: t}
	ss, err := s.Server.Connect(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	// The client's input ending is the connection's end for the engine:
	// its session ends then, not once the drain is over (drain.go).
	whenInputEnds(c.conn, func() { s.sessions.close(ss) })
	if h := holderOf(c.conn); h != nil {
		s.holders.set(ss, h)
		go func() {
			_ = ss.Wait()
			s.holders.drop(ss)
		}()
	}
	return ss, nil
}

// renderFor is Render for the session a call came on: on the lean path
// the result is encoded here and handed to the connection, and the SDK
// sees only a placeholder.
func (h *holders) renderFor(ss *mcp.ServerSession, res engine.Result) *mcp.CallToolResult {
	hd := h.of(ss)
	if hd == nil {
		return Render(res)
	}
	body, err := EncodeResult(res)
	if err != nil {
		return Render(res)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: hd.Hold(body)}
}
