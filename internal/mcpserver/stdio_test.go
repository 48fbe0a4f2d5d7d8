package mcpserver

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// stdioServer is a whole MCP server over the mock, served through the wire
// transport on pipes (the stdio path: DrainInput, the checks of every
// line, the reply splicing), with a bare client on the other ends.
type stdioServer struct {
	server *Server
	driver *engine.Driver
	client *mcpline.Client
}

// newStdioServer serves desk; it closes desk when the test ends.
func newStdioServer(tb testing.TB, desk *mock.Desktop) *stdioServer {
	tb.Helper()
	d := enginekit.Start(tb, desk, engine.Options{})
	server, err := New(d, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	p := mcpkit.ServeStdio(tb, server.Run)
	c := mcpline.New(p.In, p.Out)
	if err := c.Initialize(legacyProtocol, "lean bench"); err != nil {
		tb.Fatal(err)
	}
	return &stdioServer{server: server, driver: d, client: c}
}

// mustCall makes one call over the pipes and fails on an error result.
func (s *stdioServer) mustCall(tb testing.TB, tool string, args any) mcpline.Reply {
	tb.Helper()
	r, err := s.client.Call(tool, args)
	if err != nil {
		tb.Fatal(err)
	}
	isErr, text, _, err := mcpline.Result(r.Line)
	if err != nil || isErr {
		tb.Fatalf("%s failed: %v %s", tool, err, text)
	}
	return r
}
