package wire

import (
	"bufio"
	"context"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/internal/testkit"
)

// heldBody is a whole tool result as a server would encode it itself.
const heldBody = `{"content":[{"type":"text","text":"held <text>"}],"structuredContent":{"ok":true,"rows":[1,2,3]}}`

// heldServer serves tools that hand their result over through Hold: "now"
// returns at once, "wait" holds its result and then waits until the call
// is cancelled.
func heldServer(t *testing.T) (io.WriteCloser, *bufio.Scanner, *Conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conns := make(chan *Conn, 1)
	var conn *Conn
	ready := make(chan struct{})
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "now", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ready
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: conn.Hold([]byte(heldBody))}, nil
	})
	s.AddTool(&mcp.Tool{Name: "wait", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ready
		p := conn.Hold([]byte(heldBody))
		<-ctx.Done()
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: p}, nil
	})
	ss, err := s.Connect(context.Background(), connSpy{&Transport{Reader: inR, Writer: outW}, conns}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn = <-conns
	close(ready)
	t.Cleanup(func() { inW.Close(); ss.Close() })
	out := bufio.NewScanner(outR)
	send(t, inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if !out.Scan() {
		t.Fatal("no reply to initialize")
	}
	send(t, inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return inW, out, conn
}

// The reply to a call whose result was held carries the held bytes in the
// placeholder's place, under the client's own id, and the connection keeps
// nothing afterwards.
func TestAHeldResultGoesOutInThePlaceholdersPlace(t *testing.T) {
	w, out, conn := heldServer(t)
	for _, id := range []string{`"a"`, `7`, `1.5`} {
		send(t, w, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"now"}}`)
		if !out.Scan() {
			t.Fatal("no reply")
		}
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":` + heldBody + `}`
		if got := out.Text(); got != want {
			t.Errorf("reply\n got %s\nwant %s", got, want)
		}
	}
	if n := conn.held.size(); n != 0 {
		t.Errorf("%d results still held after their replies", n)
	}
}

// A call the client cancels gets no reply, and its held result is dropped
// when the SDK hands over the reply that goes nowhere.
func TestACancelledCallDropsItsHeldResult(t *testing.T) {
	w, out, conn := heldServer(t)
	send(t, w, `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"wait"}}`)
	testkit.Eventually(t, 10*time.Second, "the wait tool held its result", func() bool { return conn.held.size() == 1 })
	send(t, w, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}`)
	testkit.Eventually(t, 10*time.Second, "the held result dropped", func() bool { return conn.held.size() == 0 })
	send(t, w, `{"jsonrpc":"2.0","id":"n","method":"tools/call","params":{"name":"now"}}`)
	if !out.Scan() {
		t.Fatal("no reply")
	}
	if want := `{"jsonrpc":"2.0","id":"n","result":` + heldBody + `}`; out.Text() != want {
		t.Errorf("the reply after the cancelled call is %s, want %s", out.Text(), want)
	}
}

// A result that only looks like a placeholder (another connection's tag,
// or a number this connection never held) goes out as the SDK wrote it.
func TestOnlyThisConnectionsPlaceholdersAreReplaced(t *testing.T) {
	h := newHeld()
	other := newHeld()
	c := &Conn{held: other}
	p, _ := c.Hold([]byte(heldBody)).MarshalJSON()
	for _, result := range []string{
		`{"content":[],"structuredContent":` + string(p) + `}`,
		`{"content":[],"structuredContent":"` + h.tag + `99"}`,
		`{"content":[],"structuredContent":"` + h.tag + `x"}`,
		`{"content":[{"type":"text","text":"` + h.tag + `1"}]}`,
	} {
		if got := string(h.take([]byte(result))); got != result {
			t.Errorf("%s became %s", result, got)
		}
	}
}

// A newer protocol's SDK writes fields around structuredContent on every
// result (_meta before, resultType after): they stay around the held
// result's own fields, as the SDK would have written them for the real
// result.
func TestFieldsAroundThePlaceholderStayAroundTheHeldResult(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"nish-driver"}}`
	inner := heldBody[1 : len(heldBody)-1]
	for _, tc := range []struct{ before, after, want string }{
		{"", `,"resultType":"complete"`, `{` + inner + `,"resultType":"complete"}`},
		{meta + ",", `,"resultType":"complete"`, `{` + meta + "," + inner + `,"resultType":"complete"}`},
		{meta + ",", "", `{` + meta + "," + inner + `}`},
	} {
		h := newHeld()
		c := &Conn{held: h}
		p, _ := c.Hold([]byte(heldBody)).MarshalJSON()
		got := string(h.take([]byte(`{` + tc.before + `"content":[],"structuredContent":` + string(p) + tc.after + `}`)))
		if got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
		if n := h.size(); n != 0 {
			t.Errorf("%d results still held", n)
		}
	}
}
