package mcpserver

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// bigWindowRows is the mock's dense window size whose full read returns
// 5,000 rows (six elements a message row), the size of the bench's
// 1,000-row synthetic window.
const bigWindowRows = 1000

// newBigWindowServer is a stdio server over a mock desktop holding one
// app, "Big Chat", whose dense window reads 5,000 rows and more, with a
// session on it.
func newBigWindowServer(tb testing.TB) (*stdioServer, *mock.Window) {
	desk := mock.New()
	desk.SetConsent(mock.AllowAll)
	app := desk.AddApp("Big Chat", "/usr/bin/big-chat")
	win := mock.DenseWindow(app, "big — Chat", bigWindowRows)
	s := newStdioServer(tb, desk)
	s.mustCall(tb, "start_session", map[string]any{"apps": []any{"Big Chat"}, "input": "headless"})
	return s, win
}

// engineConn is a second engine connection on the same driver with its
// own session, for timing the engine alone.
func engineConn(tb testing.TB, s *stdioServer) *engine.Conn {
	tb.Helper()
	conn := enginekit.Connect(tb, s.driver, "engine bench", 1)
	raw, _ := json.Marshal(map[string]any{"apps": []any{"Big Chat"}, "input": "headless"})
	if res := conn.Call(context.Background(), "start_session", raw); res.Err != nil {
		tb.Fatal(res.Err.Text())
	}
	return conn
}

// disturb makes a structural change and takes it back, so the next read
// cannot keep the previous snapshot and reads the window whole.
func disturb(win *mock.Window) {
	bar := win.Find("status_bar", "")
	bar.Add("label", "busy").Remove()
}

var fullRead = map[string]any{"app": "Big Chat", "max_elements": 5000}

// BenchmarkReadOverStdio times a 5,000-row full read of the mock's dense
// window twice over: the engine's call alone, and what a client on the
// other end of the stdio wire path sees (request written to the reply's
// last byte). "cold" reads follow a structural change; "kept" reads are
// of the unchanged window. The bytes of one reply are reported too.
//
//	go test ./internal/mcpserver -run '^$' -bench ReadOverStdio -cpuprofile cpu.out
func BenchmarkReadOverStdio(b *testing.B) {
	for _, mode := range []struct {
		name    string
		disturb bool
	}{{"cold", true}, {"kept", false}} {
		b.Run("engine/"+mode.name, func(b *testing.B) {
			s, win := newBigWindowServer(b)
			conn := engineConn(b, s)
			raw, _ := json.Marshal(fullRead)
			ctx := context.Background()
			conn.Call(ctx, "get_window_state", raw)
			b.ResetTimer()
			for b.Loop() {
				if mode.disturb {
					b.StopTimer()
					disturb(win)
					b.StartTimer()
				}
				if res := conn.Call(ctx, "get_window_state", raw); res.Err != nil {
					b.Fatal(res.Err.Text())
				}
			}
		})
		b.Run("client/"+mode.name, func(b *testing.B) {
			s, win := newBigWindowServer(b)
			size := len(s.mustCall(b, "get_window_state", fullRead).Line)
			var total time.Duration
			n := 0
			for b.Loop() {
				if mode.disturb {
					disturb(win)
				}
				r, err := s.client.Call("get_window_state", fullRead)
				if err != nil {
					b.Fatal(err)
				}
				total += r.Elapsed
				n++
			}
			b.ReportMetric(stats.Ms(total)/float64(n), "client-ms/op")
			b.ReportMetric(float64(size), "reply-bytes")
		})
	}
}
