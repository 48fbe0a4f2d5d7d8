package main

import (
	"errors"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// The click phase: a headless click with settle on a subject's button
// (subject.clickOn: the synthetic window's "Click me", whose handler
// renames a label; the fixture page's Save, which writes into a live
// status line), as a model makes it: a read, then a click on the button's
// token from that read. It is make bench's BenchmarkHeadlessClick and
// BenchmarkBrowserClick (native/) made inside ci/bench, so that one run
// measures it on each lane and the verdict can hold the lanes' click times
// against each other; the micro-benchmarks stay the place for the act's
// finer parts.
//
// Each click is made twice over: at once after its read (the engine keeps
// that read as the read before the act), and after a model's pause past
// the engine's keeping (reuseAge), as a model that thinks between its
// read and its click makes it: then the act reads the window before
// acting.

// clickRuns is how many clicks at once after a read a subject gets, as
// make bench's micro-benchmark makes; pausedClickRuns how many after a
// pause (each waits reuseAge).
const (
	clickRuns       = 20
	pausedClickRuns = 5
)

// clickRow is one subject's clicks.
type clickRow struct {
	total []time.Duration // the click call at once after a read, end to end
	// own is the driver's own share of each click: everything but the
	// wait for the app to go quiet (engine.ActTrace).
	own []time.Duration
	// paused and pausedOwn are the same for the clicks after a pause.
	paused, pausedOwn []time.Duration
	failed            string
}

// actLog keeps the engine's act traces of a session.
type actLog struct {
	mu  sync.Mutex
	all []engine.ActTrace
}

func (l *actLog) add(t engine.ActTrace) {
	l.mu.Lock()
	l.all = append(l.all, t)
	l.mu.Unlock()
}

// take returns the traces since the last take.
func (l *actLog) take() []engine.ActTrace {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.all
	l.all = nil
	return out
}

// measureClicks reads the window and clicks the button label clickRuns
// times at once after the read, then pausedClickRuns times after a pause.
func (s *session) measureClicks(pid int, label string, c *clickRow) error {
	s.acts.take()
	for i := 0; i < clickRuns+pausedClickRuns; i++ {
		paused := i >= clickRuns
		res, _ := s.call("get_window_state", map[string]any{"pid": pid})
		if res.Err != nil {
			return callErr("read before a click", res)
		}
		tok, err := tokenOf(res.Structured, "push_button", label)
		if err != nil {
			return err
		}
		if paused {
			time.Sleep(reuseAge)
		}
		res, d := s.call("click", map[string]any{"element_token": tok})
		if res.Err != nil {
			return callErr("click", res)
		}
		total, own := &c.total, &c.own
		if paused {
			total, own = &c.paused, &c.pausedOwn
		}
		*total = append(*total, d)
		for _, t := range s.acts.take() {
			*own = append(*own, t.Total-t.Quiet)
		}
	}
	return nil
}

// tokenOf is the token of a read's element of that role and label, from
// the read's structured result (engine.Result.Structured, or the
// structuredContent an MCP client got).
func tokenOf(structured any, role, label string) (string, error) {
	var read struct {
		Elements []struct {
			Role  string `json:"role"`
			Label string `json:"label"`
			Token string `json:"element_token"`
		} `json:"elements"`
	}
	if err := decode(structured, &read); err != nil {
		return "", err
	}
	for _, e := range read.Elements {
		if e.Role == role && e.Label == label {
			return e.Token, nil
		}
	}
	return "", errors.New("the read holds no " + role + " labelled " + label)
}
