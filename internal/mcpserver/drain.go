package mcpserver

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainBound is how long Run keeps answering after the client's input ends.
const DrainBound = 5 * time.Second

// DrainInput wraps a transport so that the end of the client's input does
// not cut off the answers to requests already read. The SDK cancels every
// request in flight as soon as a read fails, so a host that writes its
// requests and closes its end (`printf ... | nish-driver mcp`) would get no
// answers. Here the end of input is reported only once every call read so
// far has been answered, or after bound, whichever comes first; then the
// SDK cancels what is still running.
//
// The end of input is still the end of the connection for the person's
// safety: the server hears of it at once (whenInputEnds) and ends the
// connection's session, so a takeover stops typing and its indicator goes
// within the contract's 100 ms, and the calls still answered during the
// drain answer as calls of an ended session.
func DrainInput(t mcp.Transport, bound time.Duration) mcp.Transport {
	return &drainTransport{Transport: t, bound: bound}
}

type drainTransport struct {
	mcp.Transport
	bound time.Duration
}

func (t *drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, bound: t.bound, pending: map[string]bool{}, answered: make(chan struct{}, 1)}, nil
}

type drainConn struct {
	mcp.Connection
	bound time.Duration

	mu       sync.Mutex
	pending  map[string]bool // ids of calls read and not yet answered
	answered chan struct{}   // a pending call was answered
	ended    bool            // the client's input has ended
	onEnd    func()          // told once when it does (whenInputEnds)
}

// whenInputEnds has f called once, at the moment the client's input ends
// on conn (at once if it already has), when conn is or wraps a drained
// connection; it reports whether it is.
func whenInputEnds(conn mcp.Connection, f func()) bool {
	for conn != nil {
		if dc, ok := conn.(*drainConn); ok {
			dc.mu.Lock()
			ended := dc.ended
			if !ended {
				dc.onEnd = f
			}
			dc.mu.Unlock()
			if ended {
				f()
			}
			return true
		}
		u, ok := conn.(interface{ Unwrap() mcp.Connection })
		if !ok {
			return false
		}
		conn = u.Unwrap()
	}
	return false
}

// inputEnded records the end of input and tells the server.
func (c *drainConn) inputEnded() {
	c.mu.Lock()
	already := c.ended
	c.ended = true
	f := c.onEnd
	c.onEnd = nil
	c.mu.Unlock()
	if !already && f != nil {
		f()
	}
}

func requestKey(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

// Unwrap is the connection drainConn wraps (for holderOf).
func (c *drainConn) Unwrap() mcp.Connection { return c.Connection }

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[requestKey(req.ID)] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
	c.inputEnded()
	timeout := time.NewTimer(c.bound)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return nil, err
		}
		select {
		case <-c.answered:
		case <-timeout.C:
			return nil, err
		case <-ctx.Done():
			return nil, err
		}
	}
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok || err != nil {
		c.mu.Lock()
		if err != nil {
			// The client reads no more: there is nothing left to drain.
			clear(c.pending)
		} else {
			delete(c.pending, requestKey(resp.ID))
		}
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}
