package main

import (
	"context"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/native"
)

// timedBackend is the native backend with a stopwatch on the calls a read
// makes into it, so the table can say where a read's time goes: listing
// windows (X's list on X11, the accessibility bus's frames on Wayland;
// with or without the apps' names, the latter for a target by pid), the tree's structure (AT-SPI cache reply and fill-ins), the
// details of the rows returned (one AT-SPI call per element and property),
// and, by difference, the engine (targeting, rows, tokens, text). Every
// other method is the native backend's own, unchanged.
type timedBackend struct {
	*native.Backend

	mu sync.Mutex
	p  phases
}

// phases are the backend time of one call, by part.
type phases struct {
	windows, structure, details time.Duration
	// rest is the call's time outside the backend: the engine's own work.
	rest time.Duration
}

// take returns the time recorded since the last take and starts afresh.
func (t *timedBackend) take() phases {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.p
	t.p = phases{}
	return p
}

func (t *timedBackend) add(f func(p *phases, d time.Duration), since time.Time) {
	d := time.Since(since)
	t.mu.Lock()
	f(&t.p, d)
	t.mu.Unlock()
}

func (t *timedBackend) Windows(ctx context.Context) ([]engine.Window, error) {
	defer t.add(func(p *phases, d time.Duration) { p.windows += d }, time.Now())
	return t.Backend.Windows(ctx)
}

func (t *timedBackend) WindowsWithoutNames(ctx context.Context) ([]engine.Window, error) {
	defer t.add(func(p *phases, d time.Duration) { p.windows += d }, time.Now())
	return t.Backend.WindowsWithoutNames(ctx)
}

func (t *timedBackend) ReadStructure(ctx context.Context, w engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	defer t.add(func(p *phases, d time.Duration) { p.structure += d }, time.Now())
	return t.Backend.ReadStructure(ctx, w, budget)
}

func (t *timedBackend) ReadDetails(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	defer t.add(func(p *phases, d time.Duration) { p.details += d }, time.Now())
	return t.Backend.ReadDetails(ctx, w, nodes)
}

// medianPhases is the part-by-part median of a series of calls (each part
// on its own, so the parts need not add up to the median total).
func medianPhases(ps []phases) phases {
	var w, s, d, r []time.Duration
	for _, p := range ps {
		w = append(w, p.windows)
		s = append(s, p.structure)
		d = append(d, p.details)
		r = append(r, p.rest)
	}
	return phases{windows: stats.Median(w), structure: stats.Median(s), details: stats.Median(d), rest: stats.Median(r)}
}
