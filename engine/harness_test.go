package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/audittest"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
	"github.com/nish-driver/nish-driver/schema"
)

// fakeHost is a host on the control pipe, as the engine sees it.
type fakeHost struct {
	mu       sync.Mutex
	policy   engine.ApprovalPolicy
	answer   func(engine.ApprovalRequest) error
	events   testkit.List[engine.HostEvent]
	requests testkit.List[engine.ApprovalRequest]
}

func (h *fakeHost) Emit(ev engine.HostEvent) {
	h.events.Add(ev)
}

func (h *fakeHost) Approve(ctx context.Context, req engine.ApprovalRequest) error {
	h.requests.Add(req)
	h.mu.Lock()
	ans := h.answer
	h.mu.Unlock()
	if ans == nil {
		return nil
	}
	return ans(req)
}

func (h *fakeHost) Policy() engine.ApprovalPolicy {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.policy
}

func (h *fakeHost) Events() []engine.HostEvent { return h.events.All() }

func (h *fakeHost) Requests() []engine.ApprovalRequest { return h.requests.All() }

func denyAll(engine.ApprovalRequest) error {
	return engine.Errf(engine.CodeApprovalDenied, "the host denied the call")
}

// coverage records which outcomes each tool produced across the contract
// test, so it can check that every tool met its successes and errors.
type coverage struct {
	mu   sync.Mutex
	seen map[string]map[string]bool
}

func (c *coverage) add(tool, outcome string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]map[string]bool{}
	}
	if c.seen[tool] == nil {
		c.seen[tool] = map[string]bool{}
	}
	c.seen[tool][outcome] = true
}

// harness is one driver on a mock desktop with one MCP connection.
type harness struct {
	t     *testing.T
	desk  *mock.Desktop
	demo  *mock.Demo
	d     *engine.Driver
	c     *engine.Conn
	clock *testkit.Clock
	host  *fakeHost
	audit *audittest.Log
	cov   *coverage
}

type harnessOption func(*engine.Options, *harness)

// withHost attaches a fake host that approves everything unless told
// otherwise.
func withHost() harnessOption {
	return func(o *engine.Options, h *harness) {
		h.host = &fakeHost{policy: engine.ApprovalPolicy{ApproveReads: true, PreApproved: map[string]bool{}}}
		o.Host = h.host
	}
}

// withBackend puts wrap(the mock desktop) between the engine and the mock,
// for a test that steps into the engine's calls to its backend.
func withBackend(wrap func(*mock.Desktop) engine.Backend) harnessOption {
	return func(o *engine.Options, h *harness) { o.Backend = wrap(h.desk) }
}

func newHarness(t *testing.T, cov *coverage, opts ...harnessOption) *harness {
	t.Helper()
	desk := mock.NewDemo()
	h := &harness{t: t, desk: desk, demo: desk.Demo(), clock: testkit.NewClock(time.Unix(1_800_000_000, 0)), audit: &audittest.Log{}, cov: cov}
	o := engine.Options{Clock: h.clock, Audit: h.audit, ConsentTimeout: 300 * time.Millisecond,
		CallTimeout: 300 * time.Millisecond}
	for _, f := range opts {
		f(&o, h)
	}
	h.d = enginekit.Start(t, desk, o)
	h.c = enginekit.Connect(t, h.d, "Test Host", 4242)
	return h
}

// calls is the harness's caller: every result checked by check.
func (h *harness) calls() enginecall.Caller {
	return enginecall.Caller{T: h.t, Conn: h.c, Check: h.check}
}

// call runs one tool call, validates its input (when it is meant to be a
// well-formed call) and its output against the schemas, checks that no
// secret leaked, and returns the result.
func (h *harness) call(tool string, args map[string]any) engine.Result {
	h.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	h.validInput(tool, args)
	return h.raw(tool, args)
}

// validInput fails the test when its own arguments break the input schema.
func (h *harness) validInput(tool string, args map[string]any) {
	h.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	if err := schema.ValidateInput(tool, args); err != nil {
		h.t.Fatalf("%s: the test's own arguments break the input schema: %v", tool, err)
	}
}

// raw runs a call without validating its input (for bad-input tests).
func (h *harness) raw(tool string, args any) engine.Result {
	h.t.Helper()
	return h.calls().Call(tool, args)
}

// check holds every result to the contract (enginekit.Check) and counts
// its outcome for the contract test's coverage.
func (h *harness) check(tool string, res engine.Result) {
	h.t.Helper()
	enginekit.Check(h.t, tool, res)
	if res.Err != nil {
		h.cov.add(tool, string(res.Err.Code))
	} else {
		h.cov.add(tool, "ok")
	}
}

// ok runs a call that must succeed and returns its structured result.
func (h *harness) ok(tool string, args map[string]any) map[string]any {
	h.t.Helper()
	h.validInput(tool, args)
	return h.calls().OK(tool, args)
}

// fail runs a call that must fail with code and returns the error object
// (failure tests may break the input schema on purpose).
func (h *harness) fail(code engine.Code, tool string, args map[string]any) map[string]any {
	h.t.Helper()
	return h.calls().Fail(code, tool, args)
}

// start opens a session on the demo's apps.
func (h *harness) start(args map[string]any) map[string]any {
	h.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	if _, ok := args["apps"]; !ok {
		args["apps"] = []any{"Form Demo", "Editor", "Chat"}
	}
	return h.ok("start_session", args)
}

// read reads the demo form and returns the result.
func (h *harness) readForm(extra map[string]any) map[string]any {
	h.t.Helper()
	args := map[string]any{"window_id": uint64(h.demo.Form.Window.ID())}
	for k, v := range extra {
		args[k] = v
	}
	return h.ok("get_window_state", args)
}

// num is m[key], a number, as an int; failing the test when m lacks it.
