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

	"github.com/nish-driver/nish-driver/internal/person"
	"github.com/nish-driver/nish-driver/internal/testkit/mcpline"
)

// The MCP phase measures what an outside client sees: the built
// nish-driver binary started as a host starts it (a child speaking MCP on
// its stdio), timed from the request's write to the reply's last byte,
// beside the engine's own time for the same call in-process. It runs for
// the subjects marked mcp (the 200- and 1,000-row synthetic windows).

// coldRuns is how many cold (whole) reads each side makes, each after
// reuseAge so that it is a whole read, not a kept one.
const coldRuns = 3

// loopCall is one call of the agent loop measured on both sides.
type loopCall struct {
	name string
	tool string
	args func(pid int) map[string]any
	// cold waits reuseAge before each call (a click: between its read and
	// it, as a model that thinks before it clicks).
	cold bool
	// click makes the call on the token of the subject's button
	// (subject.clickOn), from a read {pid} just before it, not timed.
	click bool
	// engine, when set, gives the engine's figures for the call from the
	// phase that already made them in-process (the read phase's whole
	// reads, the click phase's clicks).
	engine func(r *row) []time.Duration
}

// loopCalls are the calls of the MCP phase, in order.
var loopCalls = []loopCall{
	{name: "cold read", tool: "get_window_state", cold: true, args: fullReadArgs,
		engine: func(r *row) []time.Duration { return r.wholeReads }},
	{name: "re-read (kept)", tool: "get_window_state", args: fullReadArgs},
	{name: "find_elements", tool: "find_elements", args: func(pid int) map[string]any {
		return map[string]any{"pid": pid, "role": "push_button", "label": syntheticButton}
	}},
	{name: "click", tool: "click", click: true, engine: func(r *row) []time.Duration { return r.click.total }},
	{name: "click after a pause", tool: "click", click: true, cold: true,
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
	if c.cold {
		return coldRuns
	}
	return b.runs
}

// measureEngineLoop times the loop's calls in-process on the session the
// read phase used, before its click phase (a read right after an act is
// another read); the calls other phases time are left to fromPhases.
func (b *bench) measureEngineLoop(s *session, pid int, r *row) error {
	for _, c := range loopCalls {
		f := r.mcp.figures(c.name)
		if c.engine != nil {
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

// fromPhases takes the engine's figures of the calls other phases timed
// (the cold reads, the clicks) from the row.
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
	if err := p.client.Initialize("2025-11-25", "bench"); err != nil {
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
// stdio: a session on pid (the scripted person allows it), then each call;
// the clicks on the button labelled clickOn (none when it is "").
func (b *bench) measureClientLoop(pid int, clickOn string, m *mcpRow) error {
	p, err := b.startDriver()
	if err != nil {
		return fmt.Errorf("driver binary: %v", err)
	}
	defer p.stop(b)
	who, err := person.Open(b.desk.Display)
	if err != nil {
		return fmt.Errorf("person: %v", err)
	}
	defer who.Close()
	answered := who.Answer(15*time.Second, "allow")
	_, err = p.call("start_session", map[string]any{"apps": []any{pid}})
	if perr := <-answered; perr != nil && err != nil {
		return fmt.Errorf("start_session over MCP: the person could not answer: %v", perr)
	}
	if err != nil {
		return fmt.Errorf("start_session over MCP: %v", err)
	}
	for _, c := range loopCalls {
		if c.click && clickOn == "" {
			continue
		}
		f := m.figures(c.name)
		args := func() (map[string]any, error) {
			if !c.click {
				return c.args(pid), nil
			}
			return p.clickArgs(pid, clickOn)
		}
		if !c.cold {
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
			if c.cold {
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
