package atspi

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// wireConn is one D-Bus connection: to the accessibility bus, or straight
// to one application's private socket (peer to peer, which skips the bus
// daemon's routing of every message). Calls are asynchronous: each is
// registered by serial, written (many at once in one system call), and its
// reply is delivered on the caller's channel by the one reader goroutine.
// A call never blocks the connection: a caller that gives up (its context
// ended) forgets its serials and late replies are dropped, so one app that
// stops answering cannot stall calls to others.
type wireConn struct {
	addr string
	peer bool // peer to peer: no bus daemon, no destination header
	conn net.Conn
	name string // our unique name on a bus (empty on a peer connection)

	wmu sync.Mutex // serializes writes; held for one whole batch

	mu      sync.Mutex
	serial  uint32
	pending map[uint32]pendingCall
	closed  bool
	why     error // why the connection closed
	done    chan struct{}

	// onSignal receives every signal message, on the reader goroutine. It
	// is set before the reader starts and must not block (see signals.go).
	onSignal signalFunc
	// signals counts the signal messages received (for tests and
	// measurements: which connection events arrive on).
	signals atomic.Uint64
	// counts counts the calls sent to chosen apps (callcount.go); nil
	// counts none.
	counts *callCounts
}

// pendingCall is where a reply goes.
type pendingCall struct {
	tag  int
	sink *sink
}

// sink collects replies for one caller. Putting never blocks, so the
// reader goroutine never waits on a caller, even one that gave up.
type sink struct {
	mu     sync.Mutex
	q      []reply
	head   int
	notify chan struct{}
}

func newSink() *sink { return &sink{notify: make(chan struct{}, 1)} }

func (s *sink) put(r reply) {
	s.mu.Lock()
	s.q = append(s.q, r)
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// take returns the oldest reply not yet taken.
func (s *sink) take() (reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.head == len(s.q) {
		return reply{}, false
	}
	r := s.q[s.head]
	s.q[s.head] = reply{}
	s.head++
	if s.head == len(s.q) {
		s.q, s.head = s.q[:0], 0
	}
	return r, true
}

// wait returns the next reply, waiting for it until ctx ends, and tells
// ctx's answer hook (WithAnswerHook) that it came.
func (s *sink) wait(ctx context.Context) (reply, error) {
	for {
		if r, ok := s.take(); ok {
			answered(ctx)
			return r, nil
		}
		select {
		case <-s.notify:
		case <-ctx.Done():
			// A reply may have come in together with the end.
			if r, ok := s.take(); ok {
				return r, nil
			}
			return reply{}, ctx.Err()
		}
	}
}

// answerHookKey finds a context's answer hook.
type answerHookKey struct{}

// WithAnswerHook returns ctx with f called each time a reply comes for a
// call made under it (an error reply too: the peer answered), on the
// caller's goroutine. It lets a caller bound a read of thousands of calls
// by the app's silence rather than by its length: a slow machine makes a
// long read of an app that answers every call.
func WithAnswerHook(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, answerHookKey{}, f)
}

// answered calls ctx's answer hook, if it has one.
func answered(ctx context.Context) {
	if f, ok := ctx.Value(answerHookKey{}).(func()); ok {
		f()
	}
}

// reply is one call's outcome. For an error reply, err is a *dbusError.
type reply struct {
	tag  int
	sig  string
	body []byte
	big  bool
	err  error
}

// decoder returns a decoder over the reply's body.
func (r *reply) decoder() *decoder { return &decoder{b: r.body, big: r.big} }

// dbusError is an error reply from the peer. Its message is the peer's
// text and is never shown to the model.
type dbusError struct {
	Name    string
	Message string
	// FromBus: the bus daemon sent it (the sender is org.freedesktop.DBus),
	// so its message is the daemon's words, not the app's.
	FromBus bool
}

// recipientLeft reports whether the bus daemon ended the call because the
// app disconnected before replying: dbus-daemon's NoReply then says so
// ("Message recipient disconnected from message bus without replying"),
// where a NoReply of its own reply timeout does not.
func (e *dbusError) recipientLeft() bool {
	return e.FromBus && e.Name == "org.freedesktop.DBus.Error.NoReply" &&
		strings.HasPrefix(e.Message, "Message recipient disconnected")
}

func (e *dbusError) Error() string { return e.Name + ": " + e.Message }

// errConnClosed means the connection closed (the peer exited, the bus went
// away, or a write timed out) before a reply came.
var errConnClosed = errors.New("atspi: connection closed")

// errWriteTimeout means a write could not finish before the caller's
// deadline: the peer stopped reading. The connection is closed because a
// half-written message has broken the stream.
var errWriteTimeout = errors.New("atspi: peer stopped reading")

// dialWire connects to a D-Bus address and authenticates. On a bus (peer
// false) it also sends Hello and learns its unique name. onSignal, if not
// nil, receives the signals that arrive on the connection.
func dialWire(ctx context.Context, addr string, peer bool, onSignal signalFunc) (*wireConn, error) {
	network, target, err := parseAddress(addr)
	if err != nil {
		return nil, err
	}
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, network, target)
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	// A context that ends before its deadline (a caller bounded by its
	// app's silence) ends the handshake too.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	br := bufio.NewReaderSize(conn, 256<<10)
	err = authExternal(conn, br)
	if !stop() || err != nil {
		conn.Close()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	c := &wireConn{addr: addr, peer: peer, conn: conn, pending: map[uint32]pendingCall{}, done: make(chan struct{}), onSignal: onSignal}
	go c.readLoop(br)
	if !peer {
		r, err := c.call(ctx, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
		if err != nil {
			c.close(err)
			return nil, err
		}
		c.name = r.decoder().str()
	}
	return c, nil
}

// parseAddress turns a D-Bus address into a net.Dial network and target.
// Only unix transports are used by the accessibility stack.
func parseAddress(addr string) (network, target string, err error) {
	for _, one := range strings.Split(addr, ";") {
		kind, params, ok := strings.Cut(one, ":")
		if !ok || kind != "unix" {
			continue
		}
		for _, kv := range strings.Split(params, ",") {
			k, v, _ := strings.Cut(kv, "=")
			v = unescapeAddress(v)
			switch k {
			case "path":
				return "unix", v, nil
			case "abstract":
				return "unix", "@" + v, nil
			}
		}
	}
	return "", "", fmt.Errorf("atspi: no usable unix transport in the bus address")
}

// unescapeAddress undoes the %XX escapes of a D-Bus address value.
func unescapeAddress(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// authExternal runs the EXTERNAL authentication (the kernel vouches for our
// uid) and BEGINs the message stream.
func authExternal(conn net.Conn, br *bufio.Reader) error {
	uid := strconv.Itoa(os.Geteuid())
	hex := fmt.Sprintf("%x", uid)
	if _, err := conn.Write([]byte("\x00AUTH EXTERNAL " + hex + "\r\n")); err != nil {
		return err
	}
	line, err := br.ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "OK ") {
		return errors.New("atspi: the bus refused authentication")
	}
	_, err = conn.Write([]byte("BEGIN\r\n"))
	return err
}

// close shuts the connection once and fails every pending call.
func (c *wireConn) close(why error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.why = why
	pend := c.pending
	c.pending = nil
	c.mu.Unlock()
	close(c.done)
	_ = c.conn.Close()
	for _, p := range pend {
		p.sink.put(reply{tag: p.tag, err: errConnClosed})
	}
}

// isClosed reports whether the connection is unusable.
func (c *wireConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// closeReason is why the connection closed (nil while open).
func (c *wireConn) closeReason() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.why
}

// defaultWriteBound bounds a write whose context has no deadline.
const defaultWriteBound = 5 * time.Second

// maxMessage bounds one incoming message; larger is a broken stream.
const maxMessage = 256 << 20

// readLoop reads messages until the connection fails and routes replies.
func (c *wireConn) readLoop(br *bufio.Reader) {
	var fixed [16]byte
	for {
		if _, err := io.ReadFull(br, fixed[:]); err != nil {
			c.close(err)
			return
		}
		var order binary.ByteOrder = binary.LittleEndian
		big := false
		switch fixed[0] {
		case 'l':
		case 'B':
			order, big = binary.BigEndian, true
		default:
			c.close(errors.New("atspi: bad message from peer"))
			return
		}
		typ := fixed[1]
		bodyLen := int(order.Uint32(fixed[4:]))
		serial := order.Uint32(fixed[8:])
		fieldsLen := int(order.Uint32(fixed[12:]))
		padded := (fieldsLen + 7) &^ 7
		if bodyLen < 0 || fieldsLen < 0 || bodyLen+padded > maxMessage {
			c.close(errors.New("atspi: oversized message from peer"))
			return
		}
		rest := make([]byte, padded+bodyLen)
		if _, err := io.ReadFull(br, rest); err != nil {
			c.close(err)
			return
		}
		h := parseFields(rest[:fieldsLen], big)
		body := rest[padded:]
		switch typ {
		case msgReturn, msgError:
			c.deliver(h, body, big, typ == msgError)
		case msgCall:
			if fixed[2]&flagNoReplyExpected == 0 {
				c.refuse(h, serial)
			}
		case msgSignal:
			c.signals.Add(1)
			if c.onSignal != nil {
				c.onSignal(c, &h, body, big)
			}
		}
	}
}

// header is the part of a message header the package uses.
type header struct {
	replySerial uint32
	hasReply    bool
	errorName   string
	signature   string
	sender      string
	path        string
	iface       string
	member      string
}

// parseFields decodes the header field array (its bytes without the length
// prefix; the array starts 8-aligned at message offset 16).
func parseFields(b []byte, big bool) header {
	var h header
	// Alignment inside the header is relative to the message start; the
	// fields start at offset 16, a multiple of 8, so offsets in b align the
	// same way.
	d := decoder{b: b, big: big}
	for d.pos < len(b) && d.err == nil {
		d.align(8)
		if d.pos >= len(b) {
			break
		}
		code := d.byte1()
		sig := d.sig()
		switch {
		case code == fieldReplySerial && sig == "u":
			h.replySerial, h.hasReply = d.uint32(), true
		case code == fieldErrorName && sig == "s":
			h.errorName = d.str()
		case code == fieldSignature && sig == "g":
			h.signature = d.sig()
		case code == fieldSender && sig == "s":
			h.sender = d.str()
		case code == fieldPath && sig == "o":
			h.path = d.str()
		case code == fieldInterface && sig == "s":
			h.iface = d.str()
		case code == fieldMember && sig == "s":
			h.member = d.str()
		default:
			d.skip(sig)
		}
	}
	return h
}

// deliver hands a reply to the call waiting for it, if any still is.
func (c *wireConn) deliver(h header, body []byte, big, isErr bool) {
	if !h.hasReply {
		return
	}
	c.mu.Lock()
	p, ok := c.pending[h.replySerial]
	if ok {
		delete(c.pending, h.replySerial)
	}
	c.mu.Unlock()
	if !ok {
		return
	}
	r := reply{tag: p.tag, sig: h.signature, body: body, big: big}
	if isErr {
		e := &dbusError{Name: h.errorName, FromBus: h.sender == busDaemon}
		if h.signature != "" && h.signature[0] == 's' {
			d := decoder{b: body, big: big}
			e.Message = d.str()
		}
		r.err = e
	}
	p.sink.put(r)
}

// refuse answers a method call addressed to us: we export nothing.
func (c *wireConn) refuse(h header, serial uint32) {
	buf := appendError(nil, c.nextSerial(), serial, h.sender, "org.freedesktop.DBus.Error.UnknownMethod", "nothing is exported here")
	go func() {
		c.wmu.Lock()
		defer c.wmu.Unlock()
		_ = c.conn.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.conn.Write(buf)
	}()
}

// appendError encodes an error reply.
func appendError(buf []byte, serial, replyTo uint32, dest, name, text string) []byte {
	e := beginMessage(buf, msgError, flagNoReplyExpected, serial)
	e.field(fieldErrorName, "s", name)
	e.align(8)
	e.byte1(fieldReplySerial)
	e.sig("u")
	e.uint32(replyTo)
	if dest != "" {
		e.field(fieldDestination, "s", dest)
	}
	e.field(fieldSignature, "g", "s")
	e.endFields()
	bodyStart := len(e.buf)
	body := encoder{buf: e.buf, base: bodyStart}
	body.str(text)
	e.buf = body.buf
	e.endBody(bodyStart)
	return e.buf
}

func (c *wireConn) nextSerial() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.serial++
	if c.serial == 0 {
		c.serial = 1
	}
	return c.serial
}

// batch collects calls for one connection and writes them in one go.
type batch struct {
	c       *wireConn
	buf     []byte
	serials []uint32
}

// add encodes one call whose reply will go to the sink with tag. A call
// that is not on the package's list (appcalls.go) is not encoded: its
// reply is errCallRefused at once.
func (b *batch) add(sk *sink, tag int, dest, path, iface, member string, args ...any) {
	if !callAllowed(dest, iface, member, args) {
		sk.put(reply{tag: tag, err: errCallRefused})
		return
	}
	b.c.counts.sent(dest)
	serial := b.c.nextSerial()
	if b.c.peer {
		dest = ""
	}
	b.buf = appendCall(b.buf, serial, 0, dest, path, iface, member, args)
	b.serials = append(b.serials, serial)
	b.c.mu.Lock()
	if b.c.closed {
		b.c.mu.Unlock()
		sk.put(reply{tag: tag, err: errConnClosed})
		return
	}
	b.c.pending[serial] = pendingCall{tag: tag, sink: sk}
	b.c.mu.Unlock()
}

// flush writes the batch. A write that cannot finish by the context's
// deadline closes the connection (its pending calls fail).
func (b *batch) flush(ctx context.Context) error {
	if len(b.buf) == 0 {
		return nil
	}
	c := b.c
	c.wmu.Lock()
	defer c.wmu.Unlock()
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(defaultWriteBound)
	}
	_ = c.conn.SetWriteDeadline(dl)
	// A context cancelled before its deadline ends the write too.
	stop := context.AfterFunc(ctx, func() { _ = c.conn.SetWriteDeadline(time.Unix(1, 0)) })
	_, err := c.conn.Write(b.buf)
	stop()
	b.buf = b.buf[:0]
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			c.close(errWriteTimeout)
			return errWriteTimeout
		}
		// Any other failed write means the other end is gone (an app
		// killed under its private socket gives EPIPE or ECONNRESET): the
		// connection is closed, as a failed read would find it.
		c.close(err)
		return fmt.Errorf("%w: %v", errConnClosed, err)
	}
	return nil
}

// forget drops the batch's serials that are still pending, so late replies
// are discarded.
func (b *batch) forget() {
	b.c.mu.Lock()
	for _, s := range b.serials {
		delete(b.c.pending, s)
	}
	b.c.mu.Unlock()
	b.serials = b.serials[:0]
}

// send writes one call that expects no reply (the peer sends none) and
// does not wait: for clean-up calls whose outcome changes nothing.
func (c *wireConn) send(ctx context.Context, dest, path, iface, member string, args ...any) error {
	if !callAllowed(dest, iface, member, args) {
		return errCallRefused
	}
	c.counts.sent(dest)
	if c.peer {
		dest = ""
	}
	b := batch{c: c, buf: appendCall(nil, c.nextSerial(), flagNoReplyExpected, dest, path, iface, member, args)}
	return b.flush(ctx)
}

// call makes one call and waits for its reply or the context's end.
func (c *wireConn) call(ctx context.Context, dest, path, iface, member string, args ...any) (*reply, error) {
	sk := newSink()
	b := batch{c: c}
	b.add(sk, 0, dest, path, iface, member, args...)
	if err := b.flush(ctx); err != nil {
		b.forget()
		return nil, err
	}
	r, err := sk.wait(ctx)
	if err != nil {
		b.forget()
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	return &r, nil
}
