package mcpserver

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// legacyProtocol opens with initialize (mcpline.LegacyProtocol).
const legacyProtocol = mcpline.LegacyProtocol

// harness is one in-process MCP server over a mock desktop, with one client
// connected to it through a transport that records the raw results.
type harness struct {
	t      *testing.T
	desk   *mock.Desktop
	server *Server
	sess   *sessions
	client *mcp.ClientSession
	wire   *wire
}

type harnessOpts struct {
	protocol string // "" is the SDK client's default
	peerPid  func(*mcp.ServerSession) int
	consent  mock.ConsentPolicy // nil: the person clicks Deny
}

func newHarness(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	desk := mock.NewDemo()
	if o.consent == nil {
		o.consent = mock.Deny
	}
	desk.SetConsent(o.consent)
	d := enginekit.Start(t, desk, engine.Options{ConsentTimeout: 300 * time.Millisecond})
	server, err := New(d, Options{PeerPid: o.peerPid})
	if err != nil {
		t.Fatal(err)
	}
	sess := server.sessions
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	w := &wire{Transport: ct, methods: map[string]string{}, results: map[string][]json.RawMessage{}}
	client := mcp.NewClient(&mcp.Implementation{Name: "Harness Client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, w, &mcp.ClientSessionOptions{ProtocolVersion: o.protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &harness{t: t, desk: desk, server: server, sess: sess, client: cs, wire: w}
}

// call sends one tools/call with arguments exactly as given (any JSON
// value, or nil for none) and fails the test on a protocol error.
func (h *harness) call(name string, args any) *mcp.CallToolResult {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := h.client.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		h.t.Fatalf("%s: protocol error instead of a tool result: %v", name, err)
	}
	if res == nil {
		h.t.Fatalf("%s: no result", name)
	}
	return res
}

// startOnFirstApp starts a session on the app of list_windows' first row,
// with the arguments in extra besides apps, and fails the test unless it
// starts.
func (h *harness) startOnFirstApp(extra map[string]any) {
	h.t.Helper()
	lw := h.call("list_windows", nil)
	if lw.IsError {
		h.t.Fatalf("list_windows failed: %v", lw.Content)
	}
	var windows engine.ListWindowsResult
	b, _ := json.Marshal(lw.StructuredContent)
	if err := json.Unmarshal(b, &windows); err != nil || len(windows.Windows) == 0 {
		h.t.Fatalf("list_windows: %s", b)
	}
	args := map[string]any{"apps": []any{windows.Windows[0].Pid}}
	maps.Copy(args, extra)
	if res := h.call("start_session", args); res.IsError {
		h.t.Fatalf("start_session failed: %v", res.Content[0].(*mcp.TextContent).Text)
	}
}

// wire is a client transport that remembers the raw JSON of every result,
// by method, so tests can check exactly what went over the wire.
type wire struct {
	mcp.Transport
	mu      sync.Mutex
	methods map[string]string            // request id -> method
	results map[string][]json.RawMessage // method -> results, in order
}

func (w *wire) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &wireConn{Connection: c, w: w}, nil
}

// last returns the raw JSON of the latest result of a method.
func (w *wire) last(method string) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.results[method]
	if len(r) == 0 {
		return nil
	}
	return r[len(r)-1]
}

type wireConn struct {
	mcp.Connection
	w *wire
}

func idKey(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

func (c *wireConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.w.mu.Lock()
		c.w.methods[idKey(req.ID)] = req.Method
		c.w.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil && resp.Error == nil {
		c.w.mu.Lock()
		m := c.w.methods[idKey(resp.ID)]
		c.w.results[m] = append(c.w.results[m], append(json.RawMessage(nil), resp.Result...))
		c.w.mu.Unlock()
	}
	return msg, err
}

// count is the number of open engine connections, which the server itself
// never needs to know.
func (s *sessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}
