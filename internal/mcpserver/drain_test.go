package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/internal/testkit"
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

// TestDrainInputWaitsForAnswersBeforeReportingTheEnd: the end of input is
// reported at once when nothing is pending, after the answer when a call
// is pending, and at the bound when the call is never answered. The first
// two have an hour's bound, so returning at all shows they did not wait
// for it; no case states how fast anything must be.
func TestDrainInputWaitsForAnswersBeforeReportingTheEnd(t *testing.T) {
	id, _ := jsonrpc.MakeID(float64(7))
	call := &jsonrpc.Request{ID: id, Method: "tools/call"}
	note := &jsonrpc.Request{Method: "notifications/initialized"}
	tests := []struct {
		name   string
		msgs   []jsonrpc.Message
		answer bool // the call is answered while the end waits
		bound  time.Duration
	}{
		{"nothing pending ends at once", []jsonrpc.Message{note}, false, time.Hour},
		{"a pending call is answered first", []jsonrpc.Message{call}, true, time.Hour},
		{"an unanswered call ends at the bound", []jsonrpc.Message{call}, false, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := DrainInput(scriptTransport{&scriptConn{msgs: tt.msgs}}, tt.bound).Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for range tt.msgs {
				if _, err := conn.Read(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var answered atomic.Bool
			reading := make(chan struct{})
			if tt.answer {
				go func() {
					<-reading
					// The host's answer comes a moment after the end of
					// input; a drain that did not wait would be caught
					// ending before it (the pause's length is not relied on).
					time.Sleep(50 * time.Millisecond)
					answered.Store(true)
					conn.Write(ctx, &jsonrpc.Response{ID: id})
				}()
			}
			start := time.Now()
			close(reading)
			testkit.Returns(t, 30*time.Second, "the end of input", func() { _, err = conn.Read(ctx) })
			waited := time.Since(start)
			if !errors.Is(err, io.EOF) {
				t.Errorf("end of input reported as %v, want io.EOF", err)
			}
			if tt.answer && !answered.Load() {
				t.Error("the end of input was reported before the pending call was answered")
			}
			if tt.bound < time.Hour && waited < tt.bound {
				t.Errorf("an unanswered call's end came after %v, before its bound %v", waited, tt.bound)
			}
		})
	}
}
