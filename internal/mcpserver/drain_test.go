package mcpserver

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scriptConn reads the given messages, then io.EOF.
type scriptConn struct {
	msgs []jsonrpc.Message
}

func (c *scriptConn) Read(context.Context) (jsonrpc.Message, error) {
	if len(c.msgs) == 0 {
		return nil, io.EOF
	}
	m := c.msgs[0]
	c.msgs = c.msgs[1:]
	return m, nil
}
func (c *scriptConn) Write(context.Context, jsonrpc.Message) error { return nil }
func (c *scriptConn) Close() error                                 { return nil }
func (c *scriptConn) SessionID() string                            { return "" }

type scriptTransport struct{ conn *scriptConn }

func (t scriptTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

func TestDrainInputWaitsForAnswersBeforeReportingTheEnd(t *testing.T) {
	id, _ := jsonrpc.MakeID(float64(7))
	call := &jsonrpc.Request{ID: id, Method: "tools/call"}
	note := &jsonrpc.Request{Method: "notifications/initialized"}
	tests := []struct {
		name     string
		msgs     []jsonrpc.Message
		answerIn time.Duration // 0: never answered
		minWait  time.Duration
		maxWait  time.Duration
	}{
		{"nothing pending ends at once", []jsonrpc.Message{note}, 0, 0, 100 * time.Millisecond},
		{"a pending call is answered first", []jsonrpc.Message{call}, 150 * time.Millisecond, 150 * time.Millisecond, 2 * time.Second},
		{"an unanswered call ends at the bound", []jsonrpc.Message{call}, 0, 300 * time.Millisecond, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := DrainInput(scriptTransport{&scriptConn{msgs: tt.msgs}}, 300*time.Millisecond).Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for range tt.msgs {
				if _, err := conn.Read(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if tt.answerIn > 0 {
				go func() {
					time.Sleep(tt.answerIn)
					conn.Write(ctx, &jsonrpc.Response{ID: id})
				}()
			}
			start := time.Now()
			_, err = conn.Read(ctx)
			waited := time.Since(start)
			if !errors.Is(err, io.EOF) {
				t.Errorf("end of input reported as %v, want io.EOF", err)
			}
			if waited < tt.minWait || waited > tt.maxWait {
				t.Errorf("waited %v, want between %v and %v", waited, tt.minWait, tt.maxWait)
			}
		})
	}
}
