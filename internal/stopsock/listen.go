package stopsock

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/nish-driver/nish-driver/internal/daemon"
)

// Listener is one driver's stop socket.
type Listener struct {
	Path string

	ln   *net.UnixListener
	dev  uint64
	ino  uint64
	kill func() []string
	log  *slog.Logger
	euid int

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Listen makes this process's stop socket in dir (created 0700 when
// missing, refused unless it is this user's own with mode 0700) and serves
// it until Close. kill is what a stop does: the engine's kill switch, which
// answers the sessions it ended. Sockets in dir left by drivers that are
// gone are removed first. A nil logger discards.
func Listen(dir string, kill func() []string, logger *slog.Logger) (*Listener, error) {
	return listenAs(dir, os.Getpid(), kill, logger)
}

// listenAs is Listen under the name of pid (tests run several listeners in
// one process).
func listenAs(dir string, pid int, kill func() []string, logger *slog.Logger) (*Listener, error) {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := daemon.EnsurePrivateDir(dir); err != nil {
		return nil, err
	}
	sweepGone(dir)
	final, tmp := filepath.Join(dir, sockName(pid)), filepath.Join(dir, tempName(pid))
	if len(tmp) > daemon.MaxSocketPath {
		return nil, fmt.Errorf("the stop socket's path %s is longer than the %d bytes Unix sockets allow", tmp, daemon.MaxSocketPath)
	}
	// Both names carry this process's pid, so whatever is there was left by
	// an earlier process with the same pid, which is gone.
	os.Remove(tmp)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w", tmp, err)
	}
	ln.SetUnlinkOnClose(false)
	fail := func(err error) (*Listener, error) {
		ln.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fail(fmt.Errorf("cannot set the stop socket's mode: %w", err))
	}
	// Listening already, so under its final name it never refuses a
	// connection while its driver lives.
	if err := os.Rename(tmp, final); err != nil {
		return fail(fmt.Errorf("cannot put the stop socket in place: %w", err))
	}
	l := &Listener{Path: final, ln: ln, kill: kill, log: logger, euid: os.Geteuid(), conns: map[net.Conn]struct{}{}}
	l.dev, l.ino = fileID(final)
	l.wg.Add(1)
	go l.serve()
	return l, nil
}

// fileID is a path's device and inode, zero when it cannot be read.
func fileID(path string) (dev, ino uint64) {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0, 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return uint64(st.Dev), st.Ino
}

func (l *Listener) serve() {
	defer l.wg.Done()
	for {
		c, err := l.ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of descriptors and the like: wait a moment, keep serving.
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if !l.track(c) {
			c.Close()
			return
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer l.untrack(c)
			l.serveConn(c)
		}()
	}
}

func (l *Listener) track(c net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.conns[c] = struct{}{}
	return true
}

func (l *Listener) untrack(c net.Conn) {
	l.mu.Lock()
	delete(l.conns, c)
	l.mu.Unlock()
	c.Close()
}

// serveConn answers one connection: the peer check, then its requests in
// order, all within ConnBound.
func (l *Listener) serveConn(c *net.UnixConn) {
	peer, err := daemon.ReadPeer(c)
	if err != nil {
		l.log.Warn("stop socket: cannot read a connection's peer credentials; closed")
		return
	}
	if err := daemon.Admit(peer, l.euid); err != nil {
		l.log.Warn("stop socket: refused a connection from another user", "peer_uid", peer.UID)
		return
	}
	c.SetDeadline(time.Now().Add(ConnBound))
	r := bufio.NewReaderSize(c, MaxFrame)
	helloed := false
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return // an oversized frame closes the connection
		}
		if len(bytes.TrimSpace(line)) > 0 {
			out, ok := l.answer(peer, &helloed, bytes.TrimSpace(line))
			if ok {
				if _, werr := c.Write(encodeLine(out)); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// answer handles one request line; ok is false for a notification.
func (l *Listener) answer(peer daemon.Peer, helloed *bool, line []byte) (reply, bool) {
	if !json.Valid(line) {
		return errorReply(nil, daemon.CodeParseError, "the line is not one JSON value"), true
	}
	if line[0] == '[' {
		return errorReply(nil, daemon.CodeInvalidRequest, "batches are not taken here"), true
	}
	req, bad := daemon.DecodeRequest(line)
	if bad != nil {
		return *bad, true
	}
	notification := req.ID == nil
	out := l.handle(peer, helloed, req)
	return out, !notification
}

func (l *Listener) handle(peer daemon.Peer, helloed *bool, req daemon.Request) reply {
	switch req.Method {
	case "hello":
		res, err := daemon.Hello(req.Params, Methods, peer)
		if err != nil {
			return rpcErrorReply(req.ID, err)
		}
		*helloed = true
		return resultReply(req.ID, res)
	case "kill":
		if !*helloed {
			return errorReply(req.ID, daemon.CodeHandshake, daemon.HelloFirst)
		}
		if err := daemon.NoParams(req.Params); err != nil {
			return rpcErrorReply(req.ID, err)
		}
		ended := l.kill()
		if ended == nil {
			ended = []string{}
		}
		l.log.Info("nish-driver stop pulled the kill switch", "peer_pid", peer.PID, "sessions_ended", len(ended))
		return resultReply(req.ID, daemon.KillResult{Ended: ended})
	}
	return errorReply(req.ID, daemon.CodeMethodNotFound, "method not found")
}

// Close stops listening, ends the connections being served, and removes
// the socket while it is still the one this listener made.
func (l *Listener) Close() {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	l.ln.Close()
	if dev, ino := fileID(l.Path); dev == l.dev && ino == l.ino && ino != 0 {
		os.Remove(l.Path)
	}
	l.wg.Wait()
}
