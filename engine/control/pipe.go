// Package control speaks the control pipe (docs/contract.md#control-pipe):
// newline-delimited JSON between the driver and the host app that started it,
// over two inherited file descriptors. The host sends a few methods
// (takeover.resume, session.revoke, approval.answer, approval.policy); the
// driver sends acks, events and approval requests.
//
// The pipe is the only way a host can resume a paused takeover, so it
// answers nothing else: an unknown method is unknown_method, and nothing the
// host writes is echoed back beyond a bounded request id.
package control

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// MaxLine is the longest line either side may send, without its newline.
const MaxLine = 64 << 10

// Defaults for Options.
const (
	DefaultApprovalTimeout = 60 * time.Second
	DefaultQueueLen        = 256
)

// closeWait bounds how long Close waits for queued lines to be written.
const closeWait = time.Second

// Options tunes a Pipe. The zero value gives the spec's behaviour.
type Options struct {
	// ApprovalTimeout is how long Approve waits for the host's answer
	// (default 60 s); no answer in time is approval_denied.
	ApprovalTimeout time.Duration
	// QueueLen bounds the lines waiting to be written to the host (default
	// 256). Beyond it lines are dropped: a host that does not read loses
	// events, the driver never blocks.
	QueueLen int
}

// Pipe is one control pipe. It implements engine.HostChannel. Emit,
// Approve and Policy are safe for concurrent use, also before Run starts.
type Pipe struct {
	in   io.Reader
	cmds engine.HostCommands
	opts Options

	out *writer

	mu        sync.Mutex
	pending   map[string]chan bool
	policy    engine.ApprovalPolicy
	nextID    uint64
	running   bool
	inputDone chan struct{} // closed when Run returns: no answer can arrive
	inputOnce sync.Once
}

var _ engine.HostChannel = (*Pipe)(nil)

// New makes a pipe reading host → driver lines from in and writing driver →
// host lines to out. cmds is the engine the host's methods act on. The
// writer starts at once; call Run to read and Close to stop writing.
func New(in io.Reader, out io.Writer, cmds engine.HostCommands, opts Options) *Pipe {
	if opts.ApprovalTimeout <= 0 {
		opts.ApprovalTimeout = DefaultApprovalTimeout
	}
	if opts.QueueLen <= 0 {
		opts.QueueLen = DefaultQueueLen
	}
	return &Pipe{
		in:        in,
		cmds:      cmds,
		opts:      opts,
		out:       newWriter(out, opts.QueueLen),
		pending:   map[string]chan bool{},
		policy:    engine.ApprovalPolicy{ApproveReads: true, PreApproved: map[string]bool{}},
		inputDone: make(chan struct{}),
	}
}

// Run reads and answers the host's lines until the input ends (nil), it
// fails (the read error), or ctx ends (ctx's error). When Run returns no
// approval answer can arrive any more, so waiting and later approvals are
// denied. A read blocked in the input is not interrupted by ctx; its
// goroutine ends when the input does.
func (p *Pipe) Run(ctx context.Context) error {
	p.mu.Lock()
	if p.running {
		p.mu.Unlock()
		return errors.New("control: Run called twice")
	}
	p.running = true
	p.mu.Unlock()
	defer p.endInput()

	lines := make(chan inputLine)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(bufio.NewReader(p.in), lines, stop)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				return nil
			}
			if l.err != nil {
				return l.err
			}
			p.handle(l)
		}
	}
}

func (p *Pipe) endInput() { p.inputOnce.Do(func() { close(p.inputDone) }) }

// Emit sends one event to the host without waiting; it is dropped when the
// host is not reading.
func (p *Pipe) Emit(ev engine.HostEvent) { p.out.send(ev) }

// Close stops the writer after the queued lines are written (waiting at
// most a second) and denies every waiting approval. Emit after Close drops.
func (p *Pipe) Close() error {
	p.endInput()
	return p.out.close(closeWait)
}
