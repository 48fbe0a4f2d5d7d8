package wire

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxFrame is the longest line (the newline not counted) a
// connection takes when Transport.MaxFrame is zero: the SDK's own default,
// so stdio accepts what it always did.
const DefaultMaxFrame = mcp.DefaultMaxLineLength

// Transport is an MCP transport over a newline-delimited stream that keeps
// going after junk. The server owns one Connection per Connect.
type Transport struct {
	// Reader is the client's stream. Closing it must make a blocked Read
	// return (a socket); when it cannot (stdin), the reading goroutine
	// ends with the process.
	Reader io.ReadCloser
	// Writer receives whole reply lines, one Write each.
	Writer io.WriteCloser
	// MaxFrame bounds one line; 0 means DefaultMaxFrame.
	MaxFrame int
	// SessionID names the connection's session (a daemon tells its peers
	// apart by it); empty for stdio.
	SessionID string
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	max := t.MaxFrame
	if max <= 0 {
		max = DefaultMaxFrame
	}
	c := &Conn{
		rc:        t.Reader,
		w:         t.Writer,
		sessionID: t.SessionID,
		ids:       newIDTable(),
		held:      newHeld(),
		incoming:  make(chan incoming),
		closed:    make(chan struct{}),
	}
	go c.readLoop(newLineReader(t.Reader, max))
	return c, nil
}

// Conn is one connection of a Transport.
type Conn struct {
	rc        io.ReadCloser
	w         io.WriteCloser
	sessionID string
	ids       *idTable
	held      *held

	writeMu sync.Mutex
	// open is set once a call that opens the session (Opens) has been
	// answered with a result: the SDK then takes every call, and an error
	// it gives without a code is no lifecycle refusal (lifecycle.codeless).
	// The SDK answers an initialize before it takes the next call, so its
	// reply is written first.
	open atomic.Bool

	incoming  chan incoming
	closeOnce sync.Once
	closed    chan struct{}
}

// incoming is a message for the SDK, or the stream's end.
type incoming struct {
	msg jsonrpc.Message
	err error
}

var _ mcp.Connection = (*Conn)(nil)

// SessionID implements mcp.Connection.
func (c *Conn) SessionID() string { return c.sessionID }

// Read implements mcp.Connection: the next checked message.
func (c *Conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case in := <-c.incoming:
		return in.msg, in.err
	}
}

// Write implements mcp.Connection. A response goes out under the client's
// own id, with a sanitised error; a response to a call the client
// cancelled goes nowhere.
func (c *Conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		return c.writeLine(data)
	}
	// A held result is taken first, so that it is dropped even when the
	// reply itself goes nowhere.
	result := resp.Result
	if resp.Error == nil {
		result = c.held.take(result)
	}
	n, ok := resp.ID.Raw().(int64)
	if !ok {
		return nil
	}
	call, ok := c.ids.take(n)
	if !ok {
		return nil
	}
	lc := lifecycle{method: call.method, open: c.open.Load()}
	if resp.Error == nil && Opens(call.method) {
		c.open.Store(true)
	}
	line := encodeResponse(call.raw, result, resp.Error, lc)
	if call.group == nil {
		return c.writeLine(line)
	}
	if all := call.group.fill(call.slot, line); all != nil {
		return c.writeLine(all)
	}
	return nil
}

// Close implements mcp.Connection; it may be called more than once.
func (c *Conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		rerr := c.rc.Close()
		werr := c.w.Close()
		err = rerr
		if err == nil {
			err = werr
		}
	})
	return err
}

// writeLine writes one line. data is the caller's to give away: the
// encoders leave room for the newline, so a large reply is not copied
// again here.
func (c *Conn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// readLoop reads lines until the stream ends or the connection closes,
// answering junk itself and handing everything else to Read.
func (c *Conn) readLoop(lines *lineReader) {
	for {
		l, err := lines.next()
		if err != nil {
			c.deliver(incoming{err: err})
			return
		}
		if l.tooLong {
			err = c.writeLine(encodeError(nullID, codeInvalidRequest, msgTooLarge))
		} else {
			err = c.handle(checkLine(l.data))
		}
		if err != nil {
			c.deliver(incoming{err: err})
			return
		}
	}
}

// deliver hands a message to Read; false once the connection is closed.
func (c *Conn) deliver(in incoming) bool {
	select {
	case c.incoming <- in:
		return true
	case <-c.closed:
		return false
	}
}

// handle answers or hands over one checked line. Its error is a failed
// write of this layer's own reply.
func (c *Conn) handle(line checked) error {
	if line.fatal != nil {
		return c.writeLine(encodeError(line.fatal.id, line.fatal.code, line.fatal.message))
	}
	if !line.batch {
		e := line.entries[0]
		if e.err != nil {
			return c.writeLine(encodeError(e.err.id, e.err.code, e.err.message))
		}
		c.pass(e, nil, 0)
		return nil
	}
	// Each entry that earns a reply has a slot, in line order; the
	// invalid ones are filled before any call is handed over.
	slotOf := make([]int, len(line.entries))
	slots := 0
	for i, e := range line.entries {
		slotOf[i] = -1
		if e.err != nil || e.id != nil {
			slotOf[i] = slots
			slots++
		}
	}
	group := newBatchGroup(slots)
	for i, e := range line.entries {
		if e.err != nil {
			group.fill(slotOf[i], encodeError(e.err.id, e.err.code, e.err.message))
		}
	}
	for i, e := range line.entries {
		switch {
		case e.err != nil:
		case e.id != nil:
			c.pass(e, group, slotOf[i])
		default:
			c.pass(e, nil, 0)
		}
	}
	if all := group.release(); all != nil {
		return c.writeLine(all)
	}
	return nil
}

// pass hands one valid entry to the SDK: a call under a fresh internal
// id, a notification as it is (a cancellation with its id mapped), or a
// client's response.
func (c *Conn) pass(e entry, group *batchGroup, slot int) {
	switch {
	case e.response != nil:
		c.deliver(incoming{msg: e.response})
	case e.id != nil:
		n := c.ids.add(e.id, e.method, group, slot)
		c.deliver(incoming{msg: &jsonrpc.Request{ID: internalID(n), Method: e.method, Params: e.params}})
	case e.method == "notifications/cancelled":
		c.cancel(e.params)
	default:
		c.deliver(incoming{msg: &jsonrpc.Request{Method: e.method, Params: e.params}})
	}
}

// cancel handles notifications/cancelled: every call in flight under the
// named id loses its reply (MCP: a cancelled request is not answered), and
// the SDK hears of it under the internal id so the call's work stops. A
// cancellation naming no call in flight is ignored, as MCP allows.
func (c *Conn) cancel(params json.RawMessage) {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil {
		return
	}
	raw, ok := m["requestId"]
	if !ok {
		return
	}
	ns, calls := c.ids.cancel(raw)
	for i, n := range ns {
		if g := calls[i].group; g != nil {
			if all := g.fill(calls[i].slot, nil); all != nil {
				_ = c.writeLine(all)
			}
		}
		m["requestId"] = json.RawMessage(jsonInt(n))
		p, err := json.Marshal(m)
		if err != nil {
			continue
		}
		c.deliver(incoming{msg: &jsonrpc.Request{Method: "notifications/cancelled", Params: p}})
	}
}

// internalID is the SDK's id for internal number n (MakeID takes the
// float64 a JSON decoder would give; the counter stays far below 2^53).
func internalID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}
