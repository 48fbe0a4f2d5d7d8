package main

import (
	"errors"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// The click phase: a headless click with settle on the synthetic window's
// "Click me" (its handler renames a label), as a model makes it: a read,
// then a click on the button's token from that read. It is make bench's
// BenchmarkHeadlessClick (native/act_bench_test.go) made inside ci/bench,
// so that one run measures it on each lane and the verdict can hold the
// lanes' click times against each other; the micro-benchmark stays the
// place for the act's finer parts.

// clickRuns is how many clicks a subject gets, as make bench's
// micro-benchmark makes.
const clickRuns = 20

// clickButton is the synthetic window's button whose handler renames a
// label.
const clickButton = "Click me"

// clickRow is one subject's clicks.
type clickRow struct {
	total []time.Duration // the click call, end to end
	// own is the driver's own share of each click: everything but the
	// wait for the app to go quiet (engine.ActTrace).
	own    []time.Duration
	failed string
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

// measureClicks reads the window and clicks the button clickRuns times.
func (s *session) measureClicks(pid int, c *clickRow) error {
	s.acts.take()
	for i := 0; i < clickRuns; i++ {
		res, _ := s.call("get_window_state", map[string]any{"pid": pid})
		if res.Err != nil {
			return callErr("read before a click", res)
		}
		tok, err := tokenOf(res, "push_button", clickButton)
		if err != nil {
			return err
		}
		res, d := s.call("click", map[string]any{"element_token": tok})
		if res.Err != nil {
			return callErr("click", res)
		}
		c.total = append(c.total, d)
		for _, t := range s.acts.take() {
			c.own = append(c.own, t.Total-t.Quiet)
		}
	}
	return nil
}

// tokenOf is the token of a read's element of that role and label.
func tokenOf(res engine.Result, role, label string) (string, error) {
	var read struct {
		Elements []struct {
			Role  string `json:"role"`
			Label string `json:"label"`
			Token string `json:"element_token"`
		} `json:"elements"`
	}
	if err := decode(res.Structured, &read); err != nil {
		return "", err
	}
	for _, e := range read.Elements {
		if e.Role == role && e.Label == label {
			return e.Token, nil
		}
	}
	return "", errors.New("read before a click: no " + role + " " + label)
}
