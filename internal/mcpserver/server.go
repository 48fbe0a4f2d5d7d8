// Package mcpserver is the MCP face of the engine: it registers the
// engine's tool table on a go-sdk server, hands each call's raw arguments to
// the engine (which decodes them by the contract's rules), and renders the
// engine's result, success or failure, as an MCP tool result.
//
// It uses the SDK's low-level Server.AddTool on purpose. The typed AddTool
// validates arguments against the input schema before a handler runs and
// answers with the SDK's own text, which breaks two of the contract's rules:
// unknown arguments are ignored and wrong-typed ones count as absent
// (docs/contract.md#arguments), and every failure carries the error envelope
// (docs/contract.md#error-envelope). The engine is the only judge of
// arguments here.
//
// The engine never imports this package; it stays free of the SDK.
package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema/input"
)

// ServerName is the implementation name reported in initialize.
const ServerName = "nish-driver"

// Options configures the MCP layer.
type Options struct {
	// PeerPid returns the host's process id for a session. Nil means the
	// stdio case: the host is this process's parent (os.Getppid). A daemon
	// passes the socket peer's pid.
	PeerPid func(ss *mcp.ServerSession) int
	// Logger receives the layer's own lifecycle lines (sessions opened and
	// closed, a tool's name and outcome code). It never receives arguments
	// or app text. Nil discards.
	Logger *slog.Logger
}

// Server is a go-sdk server carrying the engine's tools, together with the
// engine connections of its MCP sessions. Everything of *mcp.Server is
// available (Connect serves another transport, such as a daemon socket).
type Server struct {
	*mcp.Server
	sessions *sessions
	holders  *holders
}

// New builds the MCP server over a driver: every tool of the engine's table,
// its input schema from package schema/input, truthful annotations, no output
// schema (docs/contract.md#tool-schemas), the contract's _meta on initialize
// and tools/list, and one engine connection per MCP session.
func New(d *engine.Driver, opts Options) (*Server, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	peerPid := opts.PeerPid
	if peerPid == nil {
		peerPid = func(*mcp.ServerSession) int { return os.Getppid() }
	}
	tools, err := Tools()
	if err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: ServerName, Version: engine.DriverVersion}, &mcp.ServerOptions{
		// tools/list always fits one page.
		PageSize: max(mcp.DefaultPageSize, len(tools)+1),
		// Tools only: no logging, prompts or resources, and the list never
		// changes while the server runs.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	sess := newSessions(d, peerPid, logger)
	lean := &holders{}
	for _, t := range tools {
		server.AddTool(t, toolHandler(t.Name, sess, lean, logger))
	}
	server.AddReceivingMiddleware(contractMeta, toolOrder, sess.middleware)
	return &Server{Server: server, sessions: sess, holders: lean}, nil
}

// Run serves one session over t (stdio, for the mcp command) until the
// client leaves or ctx ends, then ends the session's engine connection
// before returning, so the indicator is gone and the audit log has the
// session's end when the process exits. Requests read before the client's
// input ended are still answered (DrainInput).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.serve(ctx, DrainInput(t, DrainBound))
	s.Close()
	return err
}

// serve is the SDK's Server.Run through this Server's Connect (the SDK's
// own Run would connect past it): serve one session until it ends, or
// close it when ctx ends.
func (s *Server) serve(ctx context.Context, t mcp.Transport) error {
	ss, err := s.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-ended
		return ctx.Err()
	case err := <-ended:
		return err
	}
}

// Close ends the engine connection of every session and waits until each
// has finished closing. Sessions still connected keep their MCP transport;
// their later calls open a fresh engine connection.
func (s *Server) Close() { s.sessions.closeAll() }

// Tools returns the MCP definitions of every engine tool, in the engine's
// order: name, description, annotations and input schema, and never an
// output schema.
func Tools() ([]*mcp.Tool, error) {
	specs := engine.Tools()
	out := make([]*mcp.Tool, 0, len(specs))
	for _, spec := range specs {
		in, ok := input.Schema(spec.Name)
		if !ok {
			return nil, fmt.Errorf("mcpserver: tool %s has no input schema", spec.Name)
		}
		out = append(out, &mcp.Tool{
			Name:        spec.Name,
			Description: spec.Description,
			InputSchema: in,
			Annotations: annotations(spec),
		})
	}
	return out, nil
}

// annotations states what a tool can do, truthfully: read tools only read;
// act tools may change the person's apps. No tool is idempotent (a second
// click is a second click) and none reaches beyond the local desktop.
func annotations(spec engine.ToolSpec) *mcp.ToolAnnotations {
	destructive := spec.Destructive
	openWorld := false
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    spec.ReadOnly,
		DestructiveHint: &destructive,
		IdempotentHint:  false,
		OpenWorldHint:   &openWorld,
	}
}

// toolHandler runs one tool on the calling session's engine connection.
// It never returns a Go error: the SDK would turn it into a text-only
// error without the envelope.
func toolHandler(name string, sess *sessions, lean *holders, logger *slog.Logger) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (out *mcp.CallToolResult, _ error) {
		defer func() {
			if r := recover(); r != nil {
				logger.Error("tool handler panicked", "tool", name)
				out = Render(engine.Failure(engine.Errf(engine.CodeInternal, "tool %s failed unexpectedly", name)))
			}
		}()
		conn, release := sess.forCall(req)
		defer release()
		var raw []byte
		if req.Params != nil {
			raw = req.Params.Arguments
		}
		res := conn.Call(ctx, name, raw)
		outcome := "ok"
		if res.Err != nil {
			outcome = string(res.Err.Code)
		}
		logger.Debug("tool call", "tool", name, "outcome", outcome)
		return lean.renderFor(req.Session, res), nil
	}
}
