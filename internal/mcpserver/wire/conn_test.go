package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pipeServer serves an SDK server with a tool that waits until its call is
// cancelled over a Transport on pipes; it returns the client's ends.
func pipeServer(t *testing.T) (io.WriteCloser, *bufio.Scanner, *Conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "wait", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return &mcp.CallToolResult{}, nil
	})
	tr := &Transport{Reader: inR, Writer: outW}
	conns := make(chan *Conn, 1)
	ss, err := s.Connect(context.Background(), connSpy{tr, conns}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inW.Close(); ss.Close() })
	return inW, bufio.NewScanner(outR), <-conns
}

// connSpy hands the test the Conn the server got.
type connSpy struct {
	*Transport
	conns chan *Conn
}

func (s connSpy) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := s.Transport.Connect(ctx)
	s.conns <- c.(*Conn)
	return c, err
}

func send(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// A batch's reply is one array; a call of it that the client cancels is
// left out, and the table forgets it.
func TestABatchAnswersTogetherWithoutItsCancelledCall(t *testing.T) {
	w, out, conn := pipeServer(t)
	send(t, w, `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if !out.Scan() {
		t.Fatal("no reply to initialize")
	}
	send(t, w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(t, w, `[{"jsonrpc":"2.0","id":1.50,"method":"tools/call","params":{"name":"wait","arguments":{}}},{"jsonrpc":"2.0","id":[],"method":"ping"},{"jsonrpc":"2.0","id":"p","method":"ping"}]`)
	send(t, w, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.50}}`)
	if !out.Scan() {
		t.Fatal("no reply to the batch")
	}
	var replies []map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &replies); err != nil {
		t.Fatalf("the batch reply is not an array: %s", out.Bytes())
	}
	if len(replies) != 2 || string(replies[0]["id"]) != "null" || string(replies[1]["id"]) != `"p"` {
		t.Errorf("batch reply %s, want the invalid entry's error then the ping", out.Bytes())
	}
	send(t, w, `{"jsonrpc":"2.0","id":1.50,"method":"ping"}`)
	if !out.Scan() {
		t.Fatal("no reply to the ping")
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || string(r["id"]) != "1.50" {
		t.Errorf("ping reply %s, want id 1.50", out.Bytes())
	}
	if n := conn.ids.size(); n != 0 {
		t.Errorf("%d calls still in the table", n)
	}
}
