// Package mcpkit is what tests need to be an MCP client of the driver:
// connect over a transport, call a tool, read its structured result, and
// check the tool list. It is apart from testkit because it needs the
// go-sdk, which the engine's tests must not reach.
package mcpkit

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
)

// callBound bounds each client call: a driver that does not answer fails
// the test instead of hanging it.
const callBound = 20 * time.Second

// Connect makes a client named name and initializes a session over
// transport with protocol. On failure the test stops with detail() (what
// the driver's side wrote, for example), when given. The session is closed
// when the test ends.
func Connect(t testing.TB, name string, transport mcp.Transport, protocol string, detail func() string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callBound)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		more := ""
		if detail != nil {
			more = "\n" + detail()
		}
		t.Fatalf("MCP connect as %s: %v%s", name, err, more)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Call calls a tool; a protocol error fails the test (a tool's own failure
// is a result with IsError).
func Call(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callBound)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// Structured is a result's structuredContent as JSON.
func Structured(t testing.TB, res *mcp.CallToolResult) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ListsEveryTool fails the test unless tools/list names the engine's tools,
// in the engine's order.
func ListsEveryTool(t testing.TB, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callBound)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, engine.ToolNames()) {
		t.Errorf("tools/list = %v, want %v", names, engine.ToolNames())
	}
}
