package control

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// wait bounds every test's wait for a line; it is a hang guard, not a
// timing assertion.
const wait = 30 * time.Second

// fakeCmds is the engine as the pipe sees it.
type fakeCmds struct {
	mu       sync.Mutex
	resumes  []string
	revokes  []string
	paused   []string // sessions TakeoverResume resumes
	sessions []string // sessions SessionRevoke revokes
	ms       int64
}

func (f *fakeCmds) TakeoverResume(session string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resumes = append(f.resumes, session)
	return pick(f.paused, session)
}

func (f *fakeCmds) SessionRevoke(session string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revokes = append(f.revokes, session)
	return pick(f.sessions, session)
}

func (f *fakeCmds) MonotonicMs() int64 { return f.ms }

func pick(all []string, session string) []string {
	if session == "" {
		return all
	}
	for _, s := range all {
		if s == session {
			return []string{s}
		}
	}
	return nil
}

// harness runs a Pipe over two io.Pipes and plays the host.
type harness struct {
	t      *testing.T
	p      *Pipe
	cmds   *fakeCmds
	hostW  *io.PipeWriter // host → driver
	lines  chan string    // driver → host, as the host reads them
	runErr chan error
	cancel context.CancelFunc
}

func start(t *testing.T, opts Options) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cmds := &fakeCmds{paused: []string{"mcp:host:1"}, sessions: []string{"mcp:host:1", "mcp:host:2"}, ms: 18234}
	h := &harness{t: t, p: New(inR, outW, cmds, opts), cmds: cmds, hostW: inW,
		lines: make(chan string, 64), runErr: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.runErr <- h.p.Run(ctx) }()
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, MaxLine+1)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		h.p.Close()
		outR.Close()
		outW.Close()
	})
	return h
}

func (h *harness) send(line string) {
	h.t.Helper()
	if _, err := h.hostW.Write([]byte(line + "\n")); err != nil {
		h.t.Fatalf("host write: %v", err)
	}
}

// next is the next line the driver wrote.
func (h *harness) next() string {
	h.t.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok {
			h.t.Fatal("the driver's output ended")
		}
		return l
	case <-time.After(wait):
		h.t.Fatal("no line from the driver")
	}
	return ""
}

// nextObject is the next line decoded.
func (h *harness) nextObject() map[string]any {
	h.t.Helper()
	l := h.next()
	var m map[string]any
	if err := json.Unmarshal([]byte(l), &m); err != nil {
		h.t.Fatalf("driver line %q is not an object: %v", l, err)
	}
	return m
}

// expectError reads the next line and checks it is an error event with code.
func (h *harness) expectError(code engine.Code) map[string]any {
	h.t.Helper()
	m := h.nextObject()
	if m["event"] != "error" {
		h.t.Fatalf("want an error event, got %v", m)
	}
	body, _ := m["error"].(map[string]any)
	if body["code"] != string(code) {
		h.t.Fatalf("error code %v, want %s", body["code"], code)
	}
	disp, _ := body["disposition"].(map[string]any)
	if disp["retry"] != "never" || body["suggestion"] == "" || body["message"] == "" {
		h.t.Fatalf("error body is not the contract's shape: %v", body)
	}
	return m
}

// approveAsync runs Approve in the background.
func (h *harness) approveAsync(ctx context.Context, req engine.ApprovalRequest) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- h.p.Approve(ctx, req) }()
	return ch
}

func result(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(wait):
		t.Fatal("Approve did not return")
	}
	return nil
}

func wantDenied(t *testing.T, err error) {
	t.Helper()
	e, ok := err.(*engine.Error)
	if !ok || e.Code != engine.CodeApprovalDenied {
		t.Fatalf("want approval_denied, got %v", err)
	}
}
