package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/person"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/native"
)

// row is one subject's figures. Durations are of conn.Call alone: the
// bytes a host would send are counted, not timed (the MCP layer's encoding
// is not the driver's read).
type row struct {
	subject subject
	lane    lane
	// failed is why the subject could not be measured ("" when it was).
	// It names a step and an error code or local error, never app text.
	failed string

	elements  int  // the full read's element_count
	truncated bool // the full read stopped at max_elements

	fullFirst  time.Duration   // the first (cold) full read
	fullReads  []time.Duration // re-reads of the unchanged window
	fullParts  []phases        // where each re-read's time went
	wholeReads []time.Duration // full reads each past the engine's keeping: the app read whole
	wholeParts []phases        // where each whole read's time went
	skelReads  []time.Duration // skeleton reads after a warm-up
	dfltReads  []time.Duration // default reads ({pid}: 250 rows) after a warm-up
	dfltParts  []phases        // where each default read's time went
	fullBytes  int             // structuredContent JSON + text of a full read
	skelBytes  int             // the same for a skeleton read
	walkMs     []float64       // pyatspi walks of the same window
	walkElems  int             // elements the pyatspi walk visited
	walkFailed string          // why the baseline is missing ("" when measured)
	mcp        *mcpRow         // the MCP phase, for the subjects that have one
	click      *clickRow       // the headless clicks, for the subjects that have them
	typing     *typeRow        // type_text on the window_keys path, for the subjects that have it
}

func (r row) fullMedian() time.Duration  { return stats.Median(r.fullReads) }
func (r row) wholeMedian() time.Duration { return stats.Median(r.wholeReads) }
func (r row) skelMedian() time.Duration  { return stats.Median(r.skelReads) }
func (r row) walkMedian() float64        { return stats.Median(r.walkMs) }

// skelPercent is the skeleton read's bytes as a percentage of the full
// read's.
func (r row) skelPercent() float64 {
	if r.fullBytes == 0 {
		return 0
	}
	return 100 * float64(r.skelBytes) / float64(r.fullBytes)
}

// speedup is the pyatspi walk's median over the driver's full re-read
// median (0 when either is missing).
func (r row) speedup() float64 {
	d := stats.Ms(r.fullMedian())
	if d == 0 || len(r.walkMs) == 0 {
		return 0
	}
	return r.walkMedian() / d
}

// measure starts the subject, measures it and stops it.
func (b *bench) measure(s subject) row {
	r := row{subject: s, lane: b.lane}
	app, err := b.start(s)
	if err != nil {
		r.failed = "start: " + err.Error()
		return r
	}
	defer b.stop(app)
	if s.mcp {
		r.mcp = &mcpRow{}
	}
	if err := b.measureReads(app.pid, &r); err != nil {
		r.failed = err.Error()
		return r
	}
	if r.mcp != nil {
		r.mcp.fromPhases(&r)
		if err := b.measureClientLoop(app.pid, r.subject.clickOn, r.mcp); err != nil {
			r.mcp.failed = err.Error()
			r.failed = "MCP phase: " + err.Error()
		}
	}
	return r
}

// session is a fresh engine on the native backend with one connection.
type session struct {
	b    *timedBackend
	d    *engine.Driver
	conn *engine.Conn
	acts *actLog // the engine's traces of the session's acts
}

func (b *bench) openSession() (*session, error) {
	vars := b.desk.Vars()
	nb, err := native.Open(native.Options{Display: b.desk.Display, Getenv: func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return os.Getenv(k)
	}})
	if err != nil {
		return nil, fmt.Errorf("native backend: %v", err)
	}
	tb := &timedBackend{Backend: nb}
	acts := &actLog{}
	d := engine.New(engine.Options{Backend: tb, ConsentTimeout: 20 * time.Second, ActTrace: acts.add})
	return &session{b: tb, d: d, conn: d.Connect(engine.ClientInfo{Name: "bench", Pid: os.Getpid()}), acts: acts}, nil
}

func (s *session) close() {
	s.conn.Close()
	s.d.Shutdown()
	s.b.Close()
}

// call runs one tool call as a host's would arrive, and times it.
func (s *session) call(tool string, args map[string]any) (engine.Result, time.Duration) {
	raw, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	t0 := time.Now()
	res := s.conn.Call(ctx, tool, raw)
	return res, time.Since(t0)
}

// callErr describes a failed call by tool and error code only: the
// failure's text may quote the app.
func callErr(step string, res engine.Result) error {
	return fmt.Errorf("%s: %s", step, res.Err.Code)
}

// waitForWindow polls list_windows until the app shows a window: being on
// the accessibility bus comes before being mapped.
func (s *session) waitForWindow(pid int) error {
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		res, _ := s.call("list_windows", nil)
		if res.Err == nil {
			var lw struct {
				Windows []struct {
					Pid int `json:"pid"`
				} `json:"windows"`
			}
			if decode(res.Structured, &lw) == nil {
				for _, w := range lw.Windows {
					if w.Pid == pid {
						return nil
					}
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("list_windows: no window of the app appeared")
}

// sessionOn opens a fresh engine on the native backend and starts a
// session on pid, the scripted person clicking Allow.
func (b *bench) sessionOn(pid int) (*session, error) {
	s, err := b.openSession()
	if err != nil {
		return nil, err
	}
	if err := b.consent(s, pid); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// consent starts the session once the app shows a window.
func (b *bench) consent(s *session, pid int) error {
	if err := s.waitForWindow(pid); err != nil {
		return err
	}
	return b.allowed(func() error {
		if res, _ := s.call("start_session", map[string]any{"apps": []any{pid}}); res.Err != nil {
			return callErr("start_session", res)
		}
		return nil
	})
}

// allowed runs start, a start_session call, while the scripted person
// clicks Allow on the consent dialog it opens.
func (b *bench) allowed(start func() error) error {
	who, err := person.Open(b.desk.Display)
	if err != nil {
		return fmt.Errorf("person: %v", err)
	}
	defer who.Close()
	answered := who.Answer(15*time.Second, "allow")
	err = start()
	if perr := <-answered; perr != nil && err != nil {
		return fmt.Errorf("%v (the person could not answer: %v)", err, perr)
	}
	return err
}

// measureReads opens a session on pid with the scripted person clicking
// Allow, then times the reads and runs the baseline.
func (b *bench) measureReads(pid int, r *row) error {
	s, err := b.sessionOn(pid)
	if err != nil {
		return err
	}
	defer s.close()

	fullArgs := map[string]any{"pid": pid, "max_elements": 5000}
	if r.subject.settle {
		if err := s.settle(fullArgs); err != nil {
			return err
		}
	}
	res, first := s.call("get_window_state", fullArgs)
	if res.Err != nil {
		return callErr("full read", res)
	}
	r.fullFirst = first
	var full struct {
		ElementCount int  `json:"element_count"`
		Truncated    bool `json:"truncated"`
		Window       struct {
			Title string `json:"title"`
		} `json:"window"`
	}
	if err := decode(res.Structured, &full); err != nil {
		return fmt.Errorf("full read: %v", err)
	}
	r.elements, r.truncated = full.ElementCount, full.Truncated
	if r.fullBytes, err = resultBytes(res); err != nil {
		return fmt.Errorf("full read: %v", err)
	}
	// The cold read was the warm-up; now the unchanged window again.
	if r.fullReads, r.fullParts, err = s.repeat("full re-read", fullArgs, b.runs, 0); err != nil {
		return err
	}
	if r.subject.mcp || r.subject.wayland || r.subject.browser != 0 {
		if r.wholeReads, r.wholeParts, err = s.repeat("whole read", fullArgs, wholeRuns, reuseAge); err != nil {
			return err
		}
	}

	skelArgs := map[string]any{"pid": pid, "skeleton": true}
	res, _ = s.call("get_window_state", skelArgs)
	if res.Err != nil {
		return callErr("skeleton read", res)
	}
	if r.skelBytes, err = resultBytes(res); err != nil {
		return fmt.Errorf("skeleton read: %v", err)
	}
	if r.skelReads, _, err = s.repeat("skeleton read", skelArgs, b.runs, 0); err != nil {
		return err
	}

	// The default read (the whole structure, details of the first 250
	// rows): not a target of its own, but it shows what the full read's
	// details cost.
	dfltArgs := map[string]any{"pid": pid}
	if res, _ = s.call("get_window_state", dfltArgs); res.Err != nil {
		return callErr("default read", res)
	}
	if r.dfltReads, r.dfltParts, err = s.repeat("default read", dfltArgs, b.runs, 0); err != nil {
		return err
	}
	if r.mcp != nil {
		if err := b.measureEngineLoop(s, pid, r); err != nil {
			r.mcp.failed = err.Error()
			return err
		}
	}
	if r.subject.clickOn != "" {
		r.click = &clickRow{}
		if err := s.measureClicks(pid, r.subject.clickOn, r.click); err != nil {
			r.click.failed = err.Error()
			return err
		}
	}

	if r.subject.windowKeys {
		r.typing = &typeRow{}
		if err := s.measureWindowKeys(b, pid, r.typing); err != nil {
			r.typing.failed = err.Error()
			return err
		}
	}

	// The baseline walks the window the driver read (the app's topmost),
	// found by its title; the walk's own failure leaves the driver's
	// figures standing but fails the row.
	if r.subject.noWalk != "" {
		return nil
	}
	title := full.Window.Title
	if r.subject.walkTitle != "" {
		title = r.subject.walkTitle
	}
	r.walkMs, r.walkElems, err = b.walk(pid, title)
	if err != nil {
		r.walkFailed = err.Error()
		return fmt.Errorf("pyatspi walk: %v", err)
	}
	return nil
}

// settleBound bounds the wait for a window's content to lay out.
const settleBound = 60 * time.Second

// settle reads the window until two full reads in a row hold the same
// element count (more than the frame): the subject's content is laid out.
// A read that fails meanwhile (Calc answers nothing while it loads a big
// sheet) is tried again until the bound. These reads are the warm-up; the
// first timed read comes after reuseAge, so that it is a whole read, not
// the last settling read kept.
func (s *session) settle(args map[string]any) error {
	prev := -1
	var last error
	for deadline := time.Now().Add(settleBound); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		res, _ := s.call("get_window_state", args)
		if res.Err != nil {
			last, prev = callErr("settling read", res), -1
			continue
		}
		var got struct {
			ElementCount int `json:"element_count"`
		}
		if err := decode(res.Structured, &got); err != nil {
			return fmt.Errorf("settling read: %v", err)
		}
		if got.ElementCount > 1 && got.ElementCount == prev {
			time.Sleep(reuseAge)
			return nil
		}
		prev = got.ElementCount
	}
	if last != nil {
		return last
	}
	return errors.New("the window's content did not settle")
}

// reuseAge is past the age up to which the engine reuses a young read
// of an unchanged window.
const reuseAge = engine.ReuseMaxAge + 500*time.Millisecond

// repeat times n calls of the same read, and the backend's parts of each;
// each call after a pause of wait (reuseAge makes each a whole read of the
// app, not the engine's kept snapshot).
func (s *session) repeat(step string, args map[string]any, n int, wait time.Duration) ([]time.Duration, []phases, error) {
	out := make([]time.Duration, 0, n)
	parts := make([]phases, 0, n)
	for i := 0; i < n; i++ {
		time.Sleep(wait)
		s.b.take()
		res, d := s.call("get_window_state", args)
		if res.Err != nil {
			return nil, nil, callErr(step, res)
		}
		p := s.b.take()
		p.rest = d - p.windows - p.structure - p.details
		out = append(out, d)
		parts = append(parts, p)
	}
	return out, parts, nil
}

// resultBytes is what a host receives for a result: the structuredContent
// as JSON plus the text block.
func resultBytes(res engine.Result) (int, error) {
	b, err := json.Marshal(res.Structured)
	if err != nil {
		return 0, err
	}
	return len(b) + len(res.Text), nil
}

// decode reads a result value into a struct of the fields wanted.
func decode(v any, into any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}
