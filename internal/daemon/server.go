package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/mcpserver"
)

// RegistryTimeout bounds the backend's probes behind a doctor report: the
// daemon's doctor method and the command's doctor and manifest, which give
// the same report.
const RegistryTimeout = 10 * time.Second

// Options configures a daemon.
type Options struct {
	// Driver is the one engine every connection shares: the display owner.
	Driver *engine.Driver
	// Backend answers the doctor method.
	Backend engine.Backend
	// Metadata builds the metadata method's answer: what `nish-driver
	// manifest` prints.
	Metadata func(ctx context.Context) (any, error)
	// Logger receives lifecycle lines only (listening, a peer refused, a
	// client dropped and why, sessions opened and closed), never payloads.
	// Nil discards.
	Logger *slog.Logger
	// WriteTimeout bounds one write to a client (default WriteTimeout).
	WriteTimeout time.Duration
	// RegistryTimeout bounds the backend's probes behind doctor and
	// metadata (default 10 s).
	RegistryTimeout time.Duration
	// DrainBound is how long an MCP connection whose client closed its
	// sending side keeps answering the calls already read (default
	// mcpserver.DrainBound). A daemon shutdown does not wait for it.
	DrainBound time.Duration
}

// Server serves the daemon socket: connections, their handshakes, the
// daemon's methods and MCP sessions, and the shutdown.
type Server struct {
	opts Options
	log  *slog.Logger
	mcp  *mcpserver.Server
	euid int

	mu      sync.Mutex
	clients map[*client]struct{}
	closing bool
	wg      sync.WaitGroup

	// peerPids maps an MCP session's id (see peerConnection) to the pid of
	// the socket peer it runs for.
	peerPids sync.Map
	seq      atomic.Uint64

	// onDrop, when set (tests), hears each client dropped and why.
	onDrop func(reason string)
}

// client is one accepted connection.
type client struct {
	out *outbox

	mu sync.Mutex
	ss *mcp.ServerSession
}

// New makes a daemon over one driver.
func New(opts Options) (*Server, error) {
	if opts.Driver == nil || opts.Backend == nil || opts.Metadata == nil {
		return nil, errors.New("daemon: Driver, Backend and Metadata are required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = WriteTimeout
	}
	if opts.RegistryTimeout <= 0 {
		opts.RegistryTimeout = RegistryTimeout
	}
	if opts.DrainBound <= 0 {
		opts.DrainBound = mcpserver.DrainBound
	}
	s := &Server{opts: opts, log: opts.Logger, euid: os.Geteuid(), clients: map[*client]struct{}{}}
	m, err := mcpserver.New(opts.Driver, mcpserver.Options{PeerPid: s.peerPid, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	s.mcp = m
	return s, nil
}

// peerPid is the MCP layer's way to learn a session's host pid.
func (s *Server) peerPid(ss *mcp.ServerSession) int {
	if pid, ok := s.peerPids.Load(ss.ID()); ok {
		return pid.(int)
	}
	return 0
}

// Serve accepts connections on ep until ctx ends. Then it closes every
// client, ends every MCP session's engine connection, removes the socket
// and releases the lock, and returns.
func (s *Server) Serve(ctx context.Context, ep *Endpoint) error {
	defer ep.Close()
	// Every connection's work ends with this context, whichever way
	// serving stops.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { ep.stopAccepting() })
	defer stop()
	var err error
	for {
		c, aerr := ep.Accept()
		if aerr != nil {
			if ctx.Err() != nil || errors.Is(aerr, net.ErrClosed) {
				break
			}
			// Out of descriptors and the like: wait a moment, keep serving.
			s.log.Warn("accepting a connection failed", "error", aerr.Error())
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		s.wg.Add(1)
		go s.serveConn(ctx, c)
	}
	if ctx.Err() == nil {
		err = errors.New("the socket stopped accepting connections")
	}
	cancel()
	s.shutdown()
	return err
}

// shutdown closes every client and waits for their goroutines, then ends
// the MCP layer's engine connections.
func (s *Server) shutdown() {
	s.mu.Lock()
	s.closing = true
	open := make([]*client, 0, len(s.clients))
	for c := range s.clients {
		open = append(open, c)
	}
	s.mu.Unlock()
	for _, c := range open {
		c.close()
	}
	s.wg.Wait()
	s.mcp.Close()
}

func (c *client) close() {
	c.out.abort("")
	c.mu.Lock()
	ss := c.ss
	c.mu.Unlock()
	if ss != nil {
		go ss.Close()
	}
}

// track registers a client; false once the daemon is shutting down.
func (s *Server) track(c *client) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.clients[c] = struct{}{}
	return true
}

func (s *Server) untrack(c *client) {
	s.mu.Lock()
	delete(s.clients, c)
	s.mu.Unlock()
}

func (s *Server) dropped(reason string) {
	s.log.Warn("client dropped", "reason", reason)
	if s.onDrop != nil {
		s.onDrop(reason)
	}
}

// serveConn runs one connection: the peer check, then the first frame
// decides between the daemon's own methods and MCP.
func (s *Server) serveConn(ctx context.Context, conn *net.UnixConn) {
	defer s.wg.Done()
	peer, err := ReadPeer(conn)
	if err != nil {
		s.log.Warn("cannot read a connection's peer credentials; closed")
		conn.Close()
		return
	}
	if err := Admit(peer, s.euid); err != nil {
		s.log.Warn("refused a connection from another user", "peer_uid", peer.UID)
		conn.Close()
		return
	}
	c := &client{out: newOutbox(conn, s.opts.WriteTimeout, s.dropped)}
	if !s.track(c) {
		c.out.abort("")
		<-c.out.done
		return
	}
	defer s.untrack(c)
	fr := newFrameReader(conn, MaxFrame)
	first, err := fr.next()
	if err == nil && isMCPOpening(first) {
		s.serveMCP(ctx, c, conn, peer, fr, first)
		return
	}
	ctl := &control{s: s, peer: peer}
	for frame := first; err == nil; frame, err = fr.next() {
		s.answer(ctx, ctl, c.out, frame)
	}
	if errors.Is(err, errFrameTooLarge) {
		c.out.abort("oversized frame")
	} else {
		// The client closed its side: its replies still go out.
		c.out.finish()
	}
	<-c.out.done
}

// answer handles one frame of a control connection, in order, and queues
// its reply: one response, or one array for a batch, or nothing when every
// entry was a notification.
func (s *Server) answer(ctx context.Context, ctl *control, out *outbox, frame []byte) {
	d := decodeFrame(frame)
	if d.fatal != nil {
		s.send(out, d.fatal)
		return
	}
	replies := make([]*Response, 0, len(d.entries))
	for _, e := range d.entries {
		if e.err != nil {
			replies = append(replies, e.err)
			continue
		}
		res, rerr := ctl.handle(ctx, e.req)
		if e.req.isNotification() {
			continue
		}
		if rerr != nil {
			replies = append(replies, errorResponse(e.req.id, rerr.Code, rerr.Message, rerr.Data))
			continue
		}
		b, err := marshal(res)
		if err != nil {
			replies = append(replies, errorResponse(e.req.id, CodeInternalError, "the result could not be encoded", nil))
			continue
		}
		replies = append(replies, resultResponse(e.req.id, b))
	}
	switch {
	case len(replies) == 0:
	case d.batch:
		s.send(out, replies)
	default:
		s.send(out, replies[0])
	}
}

func (s *Server) send(out *outbox, v any) {
	b, err := encode(v)
	if err != nil {
		s.log.Error("a reply could not be encoded")
		return
	}
	_ = out.send(b) // a full queue has dropped the client; nothing more to do
}

// marshal encodes a result without HTML escaping and without the newline.
func marshal(v any) (json.RawMessage, error) {
	b, err := encode(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b[:len(b)-1]), nil
}

// serveMCP turns the connection into an MCP session of the shared server,
// and returns when the session has ended and its replies are written.
func (s *Server) serveMCP(ctx context.Context, c *client, conn net.Conn, peer Peer, fr *frameReader, first []byte) {
	id := fmt.Sprintf("unix-%d", s.seq.Add(1))
	s.peerPids.Store(id, int(peer.PID))
	defer s.peerPids.Delete(id)
	t := newSocketTransport(id, conn, c.out, fr, first)
	transport := &stopOnDone{Transport: mcpserver.DrainInput(t, s.opts.DrainBound), done: ctx}
	ss, err := s.mcp.Connect(ctx, transport, nil)
	if err != nil {
		s.log.Error("an MCP session could not start on the socket")
		c.out.abort("")
		<-c.out.done
		return
	}
	c.mu.Lock()
	c.ss = ss
	c.mu.Unlock()
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		ss.Close()
	}
	s.log.Info("socket connection is an MCP session", "peer_pid", peer.PID)
	_ = ss.Wait()
	c.out.finish()
	<-c.out.done
}
