package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// The MCP phase measures what an outside client sees: the built
// nish-driver binary started as a host starts it (a child speaking MCP on
// its stdio), timed from the request's write to the reply's last byte,
// beside the engine's own time for the same call in-process. It runs for
// the subjects marked mcp (the 200- and 1,000-row synthetic windows).

// wholeRuns is how many whole reads each side makes, each after reuseAge
// so that it is a whole read, not a kept one.
const wholeRuns = 3

// firstRuns is how many fresh drivers each side starts for a first read.
const firstRuns = 3

// loopCall is one call of the agent loop measured on both sides.
type loopCall struct {
	name string
	tool string
	args func(pid int) map[string]any
	// first is the first call of a driver that has not met the app
	// before, made once by each of firstRuns drivers: on the client side
	// a newly started binary's first call after start_session; on the
	// engine side the first call of a fresh engine and backend. The read
	// phase read the app already, so the app has built its accessible
	// objects: what remains is the driver's own first-time work
	// (connecting, subscribing, learning action names).
	first bool
	// whole waits reuseAge before each call: a read is then a whole read,
	// and a click comes after a pause between its read and it, as a
	// model's that thinks before it clicks.
	whole bool
	// click makes the call on the token of the subject's button
	// (subject.clickOn), from a read {pid} just before it, not timed.
	click bool
	// engine, when set, gives the engine's figures for the call from the
	// phase that already made them in-process (the read phase's whole
	// reads, the click phase's clicks).
	engine func(r *row) []time.Duration
}

// loopCalls are the calls of the MCP phase, in order: the one list the
// phase, its table and its checks go by.
var loopCalls = []loopCall{
	{name: "first read", tool: "get_window_state", first: true, args: fullReadArgs},
	{name: "whole read", tool: "get_window_state", whole: true, args: fullReadArgs,
		engine: func(r *row) []time.Duration { return r.wholeReads }},
	{name: "re-read (kept)", tool: "get_window_state", args: fullReadArgs},
	{name: "find_elements", tool: "find_elements", args: func(pid int) map[string]any {
		return map[string]any{"pid": pid, "role": "push_button", "label": syntheticButton}
	}},
	{name: "click", tool: "click", click: true, engine: func(r *row) []time.Duration { return r.click.total }},
	{name: "click after a pause", tool: "click", click: true, whole: true,
		engine: func(r *row) []time.Duration { return r.click.paused }},
}

func fullReadArgs(pid int) map[string]any { return map[string]any{"pid": pid, "max_elements": 5000} }

// loopFigures are one call's figures on both sides.
type loopFigures struct {
	engine, client []time.Duration
	replyBytes     int // the whole reply line the client read
}

// mcpRow is one subject's MCP phase.
type mcpRow struct {
	calls  map[string]*loopFigures
	failed string
}

func (m *mcpRow) figures(name string) *loopFigures {
	if m.calls == nil {
		m.calls = map[string]*loopFigures{}
	}
	f, ok := m.calls[name]
	if !ok {
		f = &loopFigures{}
		m.calls[name] = f
	}
	return f
}

// runs is how many times a call is made on each side.
func (b *bench) loopRuns(c loopCall) int {
	switch {
	case c.first:
		return firstRuns
	case c.whole:
		return wholeRuns
	}
	return b.runs
}

// measureEngineLoop times the loop's calls in-process on the session the
// read phase used, before its click phase (a read right after an act is
// another read): the first read is a fresh engine's; the calls other
// phases time are left to fromPhases.
func (b *bench) measureEngineLoop(s *session, pid int, r *row) error {
	for _, c := range loopCalls {
		f := r.mcp.figures(c.name)
		switch {
		case c.engine != nil:
			continue
		case c.first:
			for i := 0; i < b.loopRuns(c); i++ {
				d, err := b.firstCall(c, pid)
				if err != nil {
					return err
				}
				f.engine = append(f.engine, d)
			}
			continue
		}
		if res, _ := s.call(c.tool, c.args(pid)); res.Err != nil { // warm-up
			return callErr("engine "+c.name, res)
		}
		for i := 0; i < b.loopRuns(c); i++ {
			res, d := s.call(c.tool, c.args(pid))
			if res.Err != nil {
				return callErr("engine "+c.name, res)
			}
			f.engine = append(f.engine, d)
		}
	}
	return nil
}

// firstCall times call c as the first of a fresh engine and backend
// with a session on pid.
func (b *bench) firstCall(c loopCall, pid int) (time.Duration, error) {
	fresh, err := b.sessionOn(pid)
	if err != nil {
		return 0, fmt.Errorf("engine %s: %v", c.name, err)
	}
	defer fresh.close()
	res, d := fresh.call(c.tool, c.args(pid))
	if res.Err != nil {
		return 0, callErr("engine "+c.name, res)
	}
	return d, nil
}

// fromPhases takes the engine's figures of the calls other phases timed
// (the whole reads, the clicks) from the row.
func (m *mcpRow) fromPhases(r *row) {
	for _, c := range loopCalls {
		if c.engine != nil && (!c.click || r.click != nil) {
			m.figures(c.name).engine = c.engine(r)
		}
	}
}

// driverProcess is the built binary serving MCP on its stdio.
type driverProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	client *mcpline.Client
	stderr bytes.Buffer
}

// startDriver starts `nish-driver mcp` on the bench's desktop.
func (b *bench) startDriver() (*driverProcess, error) {
	p := &driverProcess{cmd: b.desk.Command(b.bin, "mcp")}
	p.cmd.Stderr = &p.stderr
	in, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := b.desk.Start(p.cmd); err != nil {
		return nil, err
	}
	p.stdin = in
	p.client = mcpline.New(in, out)
	if err := p.client.Initialize(mcpline.LegacyProtocol, "bench"); err != nil {
		p.stop(b)
		return nil, fmt.Errorf("initialize: %v", err)
	}
	return p, nil
}

// stop closes the driver's input, which ends its session, and waits for
// it to exit (killing it after a grace period).
func (p *driverProcess) stop(b *bench) {
	p.stdin.Close()
	_, _ = b.desk.Stop(p.cmd, 10*time.Second)
}

// call makes one tool call and fails on a protocol error or an error
// result (named by its code only: the text may quote the app).
func (p *driverProcess) call(tool string, args map[string]any) (mcpline.Reply, error) {
	r, err := p.client.Call(tool, args)
	if err != nil {
		return r, err
	}
	isErr, _, structured, err := mcpline.Result(r.Line)
	if err != nil {
		return r, err
	}
	if isErr {
		var env struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.Unmarshal(structured, &env)
		return r, fmt.Errorf("%s: %s", tool, env.Error.Code)
	}
	return r, nil
}

// measureClientLoop times the loop's calls through the built binary over
// stdio: the first reads each on a binary of its own, the other calls on
// one more, each with a session on pid (the scripted person allows it);
// the clicks on the button labelled clickOn (none when it is "").
func (b *bench) measureClientLoop(pid int, clickOn string, m *mcpRow) error {
	var p *driverProcess
	defer func() {
		if p != nil {
			p.stop(b)
		}
	}()
	for _, c := range loopCalls {
		if c.click && clickOn == "" {
			continue
		}
		f := m.figures(c.name)
		if c.first {
			for i := 0; i < b.loopRuns(c); i++ {
				r, err := b.clientFirst(c, pid)
				if err != nil {
					return err
				}
				f.client = append(f.client, r.Elapsed)
				f.replyBytes = len(r.Line) + 1
			}
			continue
		}
		if p == nil {
			var err error
			if p, err = b.clientSession(pid); err != nil {
				return err
			}
		}
		args := func() (map[string]any, error) {
			if !c.click {
				return c.args(pid), nil
			}
			return p.clickArgs(pid, clickOn)
		}
		if !c.whole {
			a, err := args()
			if err == nil {
				_, err = p.call(c.tool, a) // warm-up
			}
			if err != nil {
				return fmt.Errorf("client %s: %v", c.name, err)
			}
		}
		for i := 0; i < b.loopRuns(c); i++ {
			a, err := args()
			if err != nil {
				return fmt.Errorf("client %s: %v", c.name, err)
			}
			if c.whole {
				time.Sleep(reuseAge)
			}
			r, err := p.call(c.tool, a)
			if err != nil {
				return fmt.Errorf("client %s: %v", c.name, err)
			}
			f.client = append(f.client, r.Elapsed)
			f.replyBytes = len(r.Line) + 1
		}
	}
	return nil
}

// clientFirst times call c as the first of a newly started binary with a
// session on pid.
func (b *bench) clientFirst(c loopCall, pid int) (mcpline.Reply, error) {
	p, err := b.clientSession(pid)
	if err != nil {
		return mcpline.Reply{}, err
	}
	defer p.stop(b)
	r, err := p.call(c.tool, c.args(pid))
	if err != nil {
		return r, fmt.Errorf("client %s: %v", c.name, err)
	}
	return r, nil
}

// clientSession starts the built binary and a session on pid in it, the
// scripted person allowing it.
func (b *bench) clientSession(pid int) (*driverProcess, error) {
	p, err := b.startDriver()
	if err != nil {
		return nil, fmt.Errorf("driver binary: %v", err)
	}
	if err := b.clientConsent(p, pid); err != nil {
		p.stop(b)
		return nil, err
	}
	return p, nil
}

// clientConsent starts a session on pid over MCP.
func (b *bench) clientConsent(p *driverProcess, pid int) error {
	return b.allowed(func() error {
		if _, err := p.call("start_session", map[string]any{"apps": []any{pid}}); err != nil {
			return fmt.Errorf("start_session over MCP: %v", err)
		}
		return nil
	})
}

// clickArgs reads the window {pid} and gives a click's arguments: the
// token of its push button labelled label.
func (p *driverProcess) clickArgs(pid int, label string) (map[string]any, error) {
	r, err := p.call("get_window_state", map[string]any{"pid": pid})
	if err != nil {
		return nil, err
	}
	_, _, structured, err := mcpline.Result(r.Line)
	if err != nil {
		return nil, err
	}
	tok, err := tokenOf(structured, "push_button", label)
	if err != nil {
		return nil, err
	}
	return map[string]any{"element_token": tok}, nil
}

// buildDriver builds the driver binary into dir, for a run without -bin.
func buildDriver(dir string) (string, error) {
	bin := filepath.Join(dir, "nish-driver")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/nish-driver")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", errors.New("go build ./cmd/nish-driver failed (run from the repository root)")
	}
	return bin, nil
}
