package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// helperEnv names the socket a re-executed test binary connects to as a
// client under another uid (see cross-uid test).
const helperEnv = "NISH_DAEMON_TEST_CLIENT"

func TestMain(m *testing.M) { testkit.HelperClientMain(m, helperEnv) }

// testDaemon is a daemon serving a mock desktop on a socket of its own.
type testDaemon struct {
	t      *testing.T
	path   string
	srv    *Server
	desk   *mock.Desktop
	driver *engine.Driver
	cancel context.CancelFunc
	done   chan error

	mu    sync.Mutex
	drops []string
	drop  chan string
}

type daemonOpts struct {
	writeTimeout   time.Duration
	drainBound     time.Duration
	consentTimeout time.Duration
	metadata       func(ctx context.Context) (any, error)
}

// metadataStub is what the test daemons answer to metadata.
type metadataStub struct {
	Name    string `json:"name"`
	Padding string `json:"padding,omitempty"`
}

func startDaemon(t *testing.T, o daemonOpts) *testDaemon {
	t.Helper()
	path := filepath.Join(testkit.ShortDir(t, "ndd"), "run", "sock")
	ep, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	desk := mock.NewDemo()
	t.Cleanup(desk.Close)
	if o.consentTimeout == 0 {
		o.consentTimeout = 2 * time.Second
	}
	d := engine.New(engine.Options{Backend: desk, ConsentTimeout: o.consentTimeout})
	if o.metadata == nil {
		o.metadata = func(context.Context) (any, error) { return metadataStub{Name: "nish-driver"}, nil }
	}
	srv, err := New(Options{Driver: d, Backend: desk, Metadata: o.metadata, WriteTimeout: o.writeTimeout, DrainBound: o.drainBound})
	if err != nil {
		t.Fatal(err)
	}
	td := &testDaemon{t: t, path: path, srv: srv, desk: desk, driver: d, done: make(chan error, 1), drop: make(chan string, 16)}
	srv.onDrop = func(reason string) {
		td.mu.Lock()
		td.drops = append(td.drops, reason)
		td.mu.Unlock()
		select {
		case td.drop <- reason:
		default:
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	td.cancel = cancel
	go func() { td.done <- srv.Serve(ctx, ep) }()
	t.Cleanup(func() { td.stop() })
	return td
}

// stop ends the daemon and waits for Serve to return.
func (td *testDaemon) stop() error {
	td.cancel()
	select {
	case err, ok := <-td.done:
		if ok {
			close(td.done)
		}
		return err
	case <-time.After(30 * time.Second):
		td.t.Fatal("the daemon did not stop")
		return nil
	}
}

// waitDrop waits until the daemon drops a client and returns why.
func (td *testDaemon) waitDrop() string {
	td.t.Helper()
	select {
	case r := <-td.drop:
		return r
	case <-time.After(30 * time.Second):
		td.t.Fatal("no client was dropped")
		return ""
	}
}

// rpcClient is a raw line client of the socket.
type rpcClient struct {
	t    *testing.T
	conn *net.UnixConn
	r    *bufio.Reader
}

func dial(t *testing.T, path string) *rpcClient {
	t.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rpcClient{t: t, conn: c, r: bufio.NewReaderSize(c, 1<<20)}
}

// helloClient is a client that has completed hello.
func helloClient(t *testing.T, path string) *rpcClient {
	t.Helper()
	c := dial(t, path)
	if r := c.call(`{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":1}}`); r["error"] != nil {
		t.Fatalf("hello failed: %s", r["error"])
	}
	return c
}

func (c *rpcClient) send(line string) {
	c.t.Helper()
	c.conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(c.conn, line+"\n"); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// recvLine reads one reply line (raw).
func (c *rpcClient) recvLine() ([]byte, error) {
	c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	return c.r.ReadBytes('\n')
}

// recv reads one reply as an object, members kept raw.
func (c *rpcClient) recv() map[string]json.RawMessage {
	c.t.Helper()
	line, err := c.recvLine()
	if err != nil {
		c.t.Fatalf("recv: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		c.t.Fatalf("reply is not an object: %v: %s", err, line)
	}
	return m
}

func (c *rpcClient) call(line string) map[string]json.RawMessage {
	c.t.Helper()
	c.send(line)
	return c.recv()
}

// expectClosed reads until the daemon closes the connection, and returns
// how many whole lines arrived first.
func (c *rpcClient) expectClosed() int {
	c.t.Helper()
	n := 0
	for {
		_, err := c.recvLine()
		if err == nil {
			n++
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			c.t.Fatal("the daemon did not close the connection")
		}
		return n
	}
}

// errorOf decodes a reply's error member.
type wireError struct {
	Code    int               `json:"code"`
	Message string            `json:"message"`
	Data    *engine.ErrorBody `json:"data"`
}

func errorOf(t *testing.T, reply map[string]json.RawMessage) wireError {
	t.Helper()
	raw, ok := reply["error"]
	if !ok {
		t.Fatalf("expected an error, got %v", stringify(reply))
	}
	var e wireError
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func resultOf(t *testing.T, reply map[string]json.RawMessage, into any) {
	t.Helper()
	raw, ok := reply["result"]
	if !ok {
		t.Fatalf("expected a result, got %v", stringify(reply))
	}
	if err := json.Unmarshal(raw, into); err != nil {
		t.Fatal(err)
	}
}

func stringify(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}
