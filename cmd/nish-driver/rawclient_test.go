package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// rawClient speaks JSON-RPC line by line to a running server, so tests can
// send what no SDK client would.
type rawClient struct {
	t     *testing.T
	w     io.Writer
	lines chan []byte
	// guard bounds each wait for a reply, so a server that hangs fails the
	// test instead of stalling it.
	guard time.Duration
}

func newRawClient(t *testing.T, w io.Writer, r io.Reader) *rawClient {
	c := &rawClient{t: t, w: w, lines: make(chan []byte, 64), guard: 30 * time.Second}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	return c
}

// send writes one line as it is (a newline is added).
func (c *rawClient) send(line []byte) {
	c.t.Helper()
	if _, err := c.w.Write(append(append([]byte(nil), line...), '\n')); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// reply is one line the server wrote, taken apart.
type reply struct {
	line   []byte
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// next returns the next line's replies (several for a batch); ok is false
// once the server's output has ended.
func (c *rawClient) next() ([]reply, bool) {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			return nil, false
		}
		return parseReplies(c.t, line), true
	case <-time.After(c.guard):
		c.t.Fatalf("the server wrote nothing for %v", c.guard)
		return nil, false
	}
}

func parseReplies(t *testing.T, line []byte) []reply {
	t.Helper()
	trimmed := bytes.TrimSpace(line)
	var out []reply
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &out); err != nil {
			t.Fatalf("the server wrote a line that is not JSON-RPC: %.200s", line)
		}
		for i := range out {
			out[i].line = line
		}
		return out
	}
	var r reply
	if err := json.Unmarshal(trimmed, &r); err != nil {
		t.Fatalf("the server wrote a line that is not JSON-RPC: %.200s", line)
	}
	r.line = line
	return []reply{r}
}

// await reads until the reply with id (raw JSON) and returns it with every
// reply read before it. Server notifications (no id) are left out.
func (c *rawClient) await(id string) (reply, []reply) {
	c.t.Helper()
	var before []reply
	for {
		rs, ok := c.next()
		if !ok {
			c.t.Fatalf("the server's output ended before the reply to id %s (replies before: %s)", id, describe(before))
		}
		for _, r := range rs {
			if r.ID == nil && r.Error == nil && r.Result == nil {
				continue
			}
			if string(r.ID) == id && (r.Result != nil || r.Error != nil) && !bytes.HasPrefix(bytes.TrimSpace(r.line), []byte("[")) {
				return r, before
			}
			before = append(before, r)
		}
	}
}

// awaitBatch reads lines until one is a batch reply, and returns the
// replies read.
func (c *rawClient) awaitBatch() []reply {
	c.t.Helper()
	var out []reply
	for {
		rs, ok := c.next()
		if !ok {
			c.t.Fatalf("the server's output ended before a batch reply (replies before: %s)", describe(out))
		}
		out = append(out, rs...)
		for _, r := range rs {
			if bytes.HasPrefix(bytes.TrimSpace(r.line), []byte("[")) {
				return out
			}
		}
	}
}

// rest reads every remaining line until the server's output ends.
func (c *rawClient) rest() []reply {
	c.t.Helper()
	var out []reply
	for {
		rs, ok := c.next()
		if !ok {
			return out
		}
		out = append(out, rs...)
	}
}

func describe(rs []reply) string {
	var b bytes.Buffer
	for _, r := range rs {
		fmt.Fprintf(&b, "\n  %.300s", r.line)
	}
	return b.String()
}

// initialize opens an MCP session with the current handshake.
func (c *rawClient) initialize() {
	c.t.Helper()
	c.send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + mcpline.LegacyProtocol + `","capabilities":{},"clientInfo":{"name":"junk-test","version":"1"}}}`))
	if r, _ := c.await(`"init"`); r.Error != nil {
		c.t.Fatalf("initialize: %s", r.line)
	}
	c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
}

// tool calls a tool with raw JSON arguments under id and returns its
// structured content; it fails the test on a JSON-RPC error or isError.
func (c *rawClient) tool(id, name, args string) json.RawMessage {
	c.t.Helper()
	c.send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, args)))
	r, _ := c.await(id)
	var res struct {
		IsError    bool            `json:"isError"`
		Structured json.RawMessage `json:"structuredContent"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError {
		c.t.Fatalf("%s: %s", name, r.line)
	}
	return res.Structured
}
