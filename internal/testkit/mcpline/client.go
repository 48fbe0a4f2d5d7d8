// Package mcpline is a bare MCP client over a newline-delimited JSON-RPC
// stream (a child's stdio, or pipes to an in-process server). It exists to
// time what an outside client sees: from the moment a request is written to
// the moment the reply's last byte (its newline) is read. It parses nothing
// of a reply beyond finding its id, so the client's own decoding never
// counts in the figure; a caller that wants to look inside decodes
// Reply.Line itself.
//
// It stands on the standard library alone, like testkit, so the MCP layer's
// benchmark and ci/bench share it.
package mcpline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Client talks to one server. It is not safe for concurrent use: calls go
// one at a time, as a model's loop makes them.
type Client struct {
	w    io.Writer
	r    *bufio.Reader
	next int
	line []byte // the last reply, reused between calls
}

// New returns a client writing requests to w and reading replies from r.
func New(w io.Writer, r io.Reader) *Client {
	return &Client{w: w, r: bufio.NewReaderSize(r, 1<<20)}
}

// Reply is one reply line and how long it took.
type Reply struct {
	// Line is the reply without its newline. It is valid until the next
	// call on the client.
	Line []byte
	// Elapsed runs from just before the request's write to just after the
	// reply's newline was read.
	Elapsed time.Duration
}

// Initialize opens the session as a host does: initialize under the
// protocol version given, then notifications/initialized.
func (c *Client) Initialize(protocol, clientName string) error {
	params := map[string]any{
		"protocolVersion": protocol,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": clientName, "version": "1"},
	}
	if _, err := c.Request("initialize", params); err != nil {
		return err
	}
	_, err := io.WriteString(c.w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return err
}

// Call sends tools/call for tool with args (any JSON value; nil for none)
// and returns its reply.
func (c *Client) Call(tool string, args any) (Reply, error) {
	params := map[string]any{"name": tool}
	if args != nil {
		params["arguments"] = args
	}
	return c.Request("tools/call", params)
}

// Request sends one request and waits for the reply carrying its id; other
// lines (notifications from the server) are read past and not timed apart.
func (c *Client) Request(method string, params any) (Reply, error) {
	c.next++
	id := c.next
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return Reply{}, err
	}
	msg = append(msg, '\n')
	want := []byte(`"id":` + strconv.Itoa(id) + `,`)
	start := time.Now()
	if _, err := c.w.Write(msg); err != nil {
		return Reply{}, err
	}
	for {
		line, err := c.readLine()
		if err != nil {
			return Reply{}, fmt.Errorf("mcpline: no reply to %s: %w", method, err)
		}
		if idOf(line, want) {
			return Reply{Line: line, Elapsed: time.Since(start)}, nil
		}
	}
}

// idOf says whether a reply line carries the id: servers put jsonrpc and
// id first, so only the line's head is searched, never the result.
func idOf(line, want []byte) bool {
	head := line[:min(len(line), 96)]
	return bytes.Contains(head, want)
}

// readLine reads one whole line into the client's buffer without the
// reader's per-line allocation.
func (c *Client) readLine() ([]byte, error) {
	c.line = c.line[:0]
	for {
		chunk, err := c.r.ReadSlice('\n')
		c.line = append(c.line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(c.line, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, err
		}
	}
}

// Result decodes a tools/call reply's result: whether it is an error, its
// first text block and its structuredContent as raw JSON. A JSON-RPC error
// reply is an error here.
func Result(line []byte) (isError bool, text string, structured json.RawMessage, err error) {
	var msg struct {
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		return false, "", nil, err
	}
	if msg.Error != nil {
		return false, "", nil, fmt.Errorf("mcpline: JSON-RPC error %d: %s", msg.Error.Code, msg.Error.Message)
	}
	if msg.Result == nil {
		return false, "", nil, errors.New("mcpline: a reply with neither result nor error")
	}
	for _, c := range msg.Result.Content {
		if c.Type == "text" {
			text = c.Text
			break
		}
	}
	return msg.Result.IsError, text, msg.Result.StructuredContent, nil
}
