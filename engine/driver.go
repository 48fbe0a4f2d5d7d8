package engine

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nish-driver/nish-driver/engine/audit"
)

// Versions the driver reports in initialize, tools/list, the manifest, the
// doctor and the daemon's metadata.
const (
	ContractVersion        = "0.8.0"
	ToolsListSchemaVersion = 1
	DoctorSchemaVersion    = 2
)

// DriverVersion is set at build time (-ldflags -X).
var DriverVersion = "0.1.0-dev"

// Options configures a Driver.
type Options struct {
	Backend Backend
	// Host is the control pipe; nil when the driver runs without one.
	Host HostChannel
	// Audit receives the audit records; nil writes none.
	Audit audit.Sink
	// Clock is the time source; nil is the real clock.
	Clock Clock
	// ConsentTimeout bounds the consent dialog (default 120 s).
	ConsentTimeout time.Duration
	// CallTimeout bounds how long one backend call may wait for an answer
	// from the app (default DefaultCallTimeout); a call whose app keeps
	// answering may run to 10 times that (callbound.go).
	CallTimeout time.Duration
	// KeyInterval paces synthetic typing, one character per interval, so
	// apps keep up and the person's input is noticed between characters
	// (default 5 ms).
	KeyInterval time.Duration
	// SettleQuiet and SettleMax shape the settle loop after an act
	// (defaults 50 ms and 1,000 ms).
	SettleQuiet, SettleMax time.Duration
	// ZoomBudget bounds every read of a whole window, whatever the read
	// returns (default DefaultZoomBudget).
	ZoomBudget Budget
	// ActTrace, when set, receives where the time of every act that got
	// as far as acting went (benchmarks; never arguments or app text).
	ActTrace func(ActTrace)
}

// Driver is one driver process's engine: the backend, every session, the
// row-number registry and the host channel. It is safe for concurrent use.
type Driver struct {
	opts    Options
	backend Backend
	clock   Clock
	start   time.Time

	mu       sync.Mutex
	sessions map[string]*Session
	conns    map[*Conn]struct{}

	// releaseMu sends one session's releases of held keys and buttons at
	// a time, so the releases of two sessions ending at once (the kill
	// switch) never interleave.
	releaseMu sync.Mutex

	rows *rowRegistry

	// takeoverCap is whether the desktop can give a takeover, read the
	// first time one is asked for (takeover_refusal.go).
	takeoverMu  sync.Mutex
	takeoverCap *Capability

	// snapSeq numbers every snapshot of every session of the process, so
	// a snapshot id (and with it a token) is never issued twice.
	snapSeq atomic.Uint64
}

// DefaultCallTimeout is how long a backend call may wait for an app's
// answer unless Options say otherwise; a backend that asks an app outside
// a call (a listing's second ask) gives it as long.
const DefaultCallTimeout = 2 * time.Second

// New makes a Driver.
func New(opts Options) *Driver {
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if opts.ConsentTimeout == 0 {
		opts.ConsentTimeout = 120 * time.Second
	}
	if opts.CallTimeout == 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.KeyInterval == 0 {
		opts.KeyInterval = 5 * time.Millisecond
	}
	if opts.SettleQuiet == 0 {
		opts.SettleQuiet = 50 * time.Millisecond
	}
	if opts.SettleMax == 0 {
		opts.SettleMax = time.Second
	}
	if opts.ZoomBudget == (Budget{}) {
		opts.ZoomBudget = DefaultZoomBudget()
	}
	return &Driver{
		opts:     opts,
		backend:  opts.Backend,
		clock:    opts.Clock,
		start:    opts.Clock.Now(),
		sessions: map[string]*Session{},
		conns:    map[*Conn]struct{}{},
		rows:     newRowRegistry(),
	}
}

// SetHost attaches the control pipe after the driver is made (the control
// pipe needs the driver as its HostCommands, and the driver needs the pipe).
func (d *Driver) SetHost(h HostChannel) {
	d.mu.Lock()
	d.opts.Host = h
	d.mu.Unlock()
}

func (d *Driver) host() HostChannel {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.opts.Host
}

// MonotonicMs is the driver's monotonic clock in milliseconds since it started.
func (d *Driver) MonotonicMs() int64 { return d.clock.Since(d.start).Milliseconds() }

// ClientInfo identifies the MCP client of one connection.
type ClientInfo struct {
	Name string // clientInfo.name
	Pid  int    // the host's process id
}

// Conn is one MCP connection. It owns at most one session.
type Conn struct {
	d      *Driver
	client ClientInfo
	id     string

	mu      sync.Mutex
	session *Session
	closed  bool
}

// Connect registers a new MCP connection.
func (d *Driver) Connect(client ClientInfo) *Conn {
	c := &Conn{d: d, client: client}
	d.mu.Lock()
	c.id = d.connIDLocked(c, client)
	d.conns[c] = struct{}{}
	d.mu.Unlock()
	return c
}

// SetClient updates the client's identity once MCP initialize has named it
// (the session id is formed from it, unique as Connect's is).
func (c *Conn) SetClient(client ClientInfo) {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.client = client
	if c.session == nil {
		c.id = c.d.connIDLocked(c, client)
	}
}

// connIDLocked is the session id of connection c for client, with d.mu
// held (a connection's id is written under d.mu and its own mu): the
// SessionID form, unique among the live connections. Two connections of
// one process under one client name (the daemon serves several) would
// otherwise share an id in sessions.list, the audit log and the host's
// session.revoke. The first keeps the plain form, so hosts with one
// connection see no change; another alive at the same time gets the first
// free suffix, mcp:<client>:<pid>:2, :3, ...
// (docs/contract.md#sessions).
func (d *Driver) connIDLocked(c *Conn, client ClientInfo) string {
	base := SessionID(client.Name, client.Pid)
	taken := map[string]bool{}
	for o := range d.conns {
		if o != c {
			taken[o.id] = true
		}
	}
	id := base
	for n := 2; taken[id]; n++ {
		id = base + ":" + strconv.Itoa(n)
	}
	return id
}

// Close ends the connection's session (removing any indicator) and forgets
// the connection.
func (c *Conn) Close() {
	c.mu.Lock()
	c.closed = true
	s := c.session
	c.mu.Unlock()
	if s != nil {
		c.d.endSession(s, "connection_closed")
	}
	c.d.mu.Lock()
	delete(c.d.conns, c)
	c.d.mu.Unlock()
}

// ImageBlock is a screenshot to send as an MCP image block.
type ImageBlock struct {
	MIMEType string
	Data     []byte
}

// Result is the outcome of one tool call, ready for the MCP layer: on
// success Structured is the tool's result value and Text its text; on
// failure Err is set, Structured is the envelope and Text the contract's
// failure text.
type Result struct {
	Structured any
	Text       string
	Image      *ImageBlock
	Err        *Error
}

// Failure builds the Result of a failed call. It is the one place an engine
// error becomes what the model sees.
func Failure(err error) Result {
	e := AsError(err)
	return Result{Structured: e.Envelope(), Text: e.Text(), Err: e}
}

type toolHandler func(ctx context.Context, c *Conn, a *Args) Result

// Call runs one tool call. It never panics: a panic in a handler becomes
// internal, and every failure carries a table code.
func (c *Conn) Call(ctx context.Context, tool string, raw json.RawMessage) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = Failure(Errf(CodeInternal, "tool %s failed unexpectedly", tool))
		}
	}()
	spec, ok := LookupTool(tool)
	if !ok {
		return Failure(Errf(CodeInvalidArguments, "unknown tool"))
	}
	s := c.liveSession()
	if spec.NeedsSession {
		var err *Error
		if s, err = c.sessionFor(); err != nil {
			return Failure(err)
		}
	}
	args, err := ParseArgs(raw)
	if err != nil {
		return Failure(err)
	}
	if s == nil || spec.Kind == KindSession {
		// The session tools answer about the session itself, whatever
		// happens to it meanwhile; start_session binds its own dialog.
		return spec.run(ctx, c, args)
	}
	// Every read and act ends with the session's grant, and then answers
	// as the end says, never with what it found (callscope.go).
	scope := s.grantScope()
	ctx, unbind := bindCall(ctx, scope)
	defer unbind()
	res = spec.run(ctx, c, args)
	if err := endedDuring(scope); err != nil {
		return Failure(err)
	}
	return res
}
