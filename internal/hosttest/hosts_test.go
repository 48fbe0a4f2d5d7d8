package hosttest

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/daemon"
	"github.com/nish-driver/nish-driver/internal/mcpserver"
	"github.com/nish-driver/nish-driver/internal/testkit/audittest"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpkit"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// legacyProtocol opens with initialize, as most hosts do today.
const legacyProtocol = mcpline.LegacyProtocol

// host is one transport serving one driver over a mock desktop.
type host struct {
	name   string // "stdio" or "daemon"
	desk   *mock.Desktop
	driver *engine.Driver
	audit  *audittest.Log
	// dial opens a new connection: what the client writes, what it reads,
	// and how the client's side goes away (a closed stdin or socket).
	dial func(t *testing.T) conn
	// kill is the daemon's kill method (nil on stdio, which has none).
	kill func(t *testing.T)
	// sessions lists the live session ids as a host can: the daemon's
	// sessions.list; on stdio, which has no such method, the driver's own
	// list, which sessions.list reads.
	sessions func(t *testing.T) []string
}

// conn is one client connection's raw streams.
type conn struct {
	w io.Writer
	r io.Reader
	// closeInput ends what the client sends (stdin closed, or the socket's
	// sending half shut): the host has gone.
	closeInput func()
	// abort drops the whole connection at once.
	abort func()
}

// hostOpts shapes the desktop and the driver of every host.
type hostOpts struct {
	// desk makes the desktop; nil is mock.NewDemo with the person allowing.
	desk func() *mock.Desktop
	// clock is the driver's and the desktop's clock; nil is the real one.
	clock engine.Clock
	// consentTimeout bounds the dialog (default 2 s).
	consentTimeout time.Duration
}

// eachHost runs fn once per transport, each on a fresh desktop and driver.
func eachHost(t *testing.T, o hostOpts, fn func(t *testing.T, h *host)) {
	for _, start := range []func(*testing.T, hostOpts) *host{stdioHost, daemonHost} {
		h := start(t, o)
		t.Run(h.name, func(t *testing.T) { fn(t, h) })
	}
}

func newDriver(t *testing.T, o hostOpts) (*mock.Desktop, *engine.Driver, *audittest.Log) {
	t.Helper()
	var desk *mock.Desktop
	if o.desk != nil {
		desk = o.desk()
	} else {
		desk = mock.NewDemo()
		desk.SetConsent(mock.AllowAll)
	}
	if o.consentTimeout == 0 {
		o.consentTimeout = 2 * time.Second
	}
	mem := &audittest.Log{}
	d := enginekit.Start(t, desk, engine.Options{Audit: mem, Clock: o.clock, ConsentTimeout: o.consentTimeout})
	return desk, d, mem
}

// TestBothHostsServeASession is the kit's own check: each transport opens,
// starts a session and reads a window.
func TestBothHostsServeASession(t *testing.T) {
	eachHost(t, hostOpts{}, func(t *testing.T, h *host) {
		cs, _ := h.started(t, "Kit Host", map[string]any{"apps": []string{"Form Demo"}})
		res := mcpkit.Call(t, cs, "get_window_state", map[string]any{"app": "Form Demo"})
		if res.IsError {
			t.Fatalf("get_window_state: %s", mcpkit.Structured(t, res))
		}
	})
}

// stdioHost serves each connection as `nish-driver mcp` serves its one:
// Server.Run over the wire transport on pipes (the end of input drained as
// on stdin). Connections share the driver, as they never do in a real
// stdio process; the tests open one at a time unless they say otherwise.
func stdioHost(t *testing.T, o hostOpts) *host {
	desk, d, mem := newDriver(t, o)
	h := &host{name: "stdio", desk: desk, driver: d, audit: mem}
	h.sessions = func(*testing.T) []string { return d.SessionIDs() }
	h.dial = func(t *testing.T) conn {
		t.Helper()
		server, err := mcpserver.New(d, mcpserver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := mcpkit.ServeStdio(t, server.Run)
		return conn{
			w:          p.In,
			r:          p.Out,
			closeInput: func() { p.In.Close() },
			abort: func() {
				p.In.Close()
				p.Out.Close()
			},
		}
	}
	return h
}

// daemonHost serves a daemon on a private socket; each dial is a new
// socket connection.
func daemonHost(t *testing.T, o hostOpts) *host {
	desk, d, mem := newDriver(t, o)
	dir, err := os.MkdirTemp("/tmp", "ndh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "run", "sock")
	ep, err := daemon.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := daemon.New(daemon.Options{Driver: d, Backend: desk,
		Metadata: func(context.Context) (any, error) { return map[string]string{"name": "nish-driver"}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ep) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("the daemon did not stop")
		}
	})
	h := &host{name: "daemon", desk: desk, driver: d, audit: mem}
	h.dial = func(t *testing.T) conn {
		t.Helper()
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return conn{w: c, r: c, closeInput: func() { c.CloseWrite() }, abort: func() { c.Close() }}
	}
	// control says hello on a connection of its own, then makes one call
	// of the daemon's control protocol.
	control := func(t *testing.T, method string) reply {
		t.Helper()
		c := h.dial(t)
		defer c.abort()
		rpc := newLines(c)
		if r := rpc.call(t, `{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":1}}`); r.Error != nil {
			t.Fatalf("hello: %+v", *r.Error)
		}
		return rpc.call(t, `{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`)
	}
	h.kill = func(t *testing.T) {
		t.Helper()
		if r := control(t, "kill"); r.Error != nil {
			t.Fatalf("kill: %+v", *r.Error)
		}
	}
	h.sessions = func(t *testing.T) []string {
		t.Helper()
		r := control(t, "sessions.list")
		var res daemon.SessionsResult
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
			t.Fatalf("sessions.list: %+v %s", r.Error, r.Result)
		}
		ids := []string{}
		for _, s := range res.Sessions {
			ids = append(ids, s.ID)
		}
		return ids
	}
	return h
}

// client opens a connection and an SDK client on it named name, after
// initialize and notifications/initialized.
func (h *host) client(t *testing.T, name string) (*mcp.ClientSession, conn) {
	t.Helper()
	c := h.dial(t)
	cs := mcpkit.Connect(t, name, &mcp.IOTransport{Reader: io.NopCloser(c.r), Writer: nopWriteCloser{c.w}}, legacyProtocol, nil)
	return cs, c
}

// started opens a client with a session on apps (the mock person allows).
func (h *host) started(t *testing.T, name string, args map[string]any) (*mcp.ClientSession, conn) {
	t.Helper()
	cs, c := h.client(t, name)
	res := mcpkit.Call(t, cs, "start_session", args)
	if res.IsError {
		t.Fatalf("start_session: %s", mcpkit.Structured(t, res))
	}
	return cs, c
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
