package native_test

import (
	"context"
	"flag"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// desktops is the pool the desktop tests take their desktops from;
// waylandDesktops the pool of the Wayland tests (a headless GNOME session,
// sandbox's Wayland lane), swayDesktops that of the sway tests (the same
// lane with sway). TestMain makes them, each as large as the X11 pool: a
// Wayland pool's desktops start when tests ask, so a second one starts
// only when two of its tests run at once (with one, the second test held
// a parallel slot while it waited for the first to end).
var (
	desktops        *desktopPool
	waylandDesktops *desktopPool
	swayDesktops    *desktopPool
	// ownDesktops are the desktops tests start for themselves
	// (onOwnDesktop); only held is used.
	ownDesktops = &desktopPool{held: map[string]*sandbox.Desktop{}}
)

// maxDesktops bounds the pool: each desktop runs its test's apps (a browser,
// an office suite), and more desktops than cores only add load.
const maxDesktops = 4

// desktopPoolSize is how many desktop tests may run at once: go test's
// -parallel (GOMAXPROCS unless set), at most maxDesktops.
func desktopPoolSize() int {
	n := 1
	if f := flag.Lookup("test.parallel"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil {
			n = v
		}
	}
	return min(max(n, 1), maxDesktops)
}

// desktopPool hands each running desktop test a private desktop of its own.
// The first desktop starts with the pool (a machine that cannot start one
// fails the package at once); the others start when a second test needs
// one at the same time.
type desktopPool struct {
	opts  sandbox.Options // how its desktops start
	slots chan struct{}   // one token per desktop in use

	mu    sync.Mutex
	first *sandbox.Desktop
	free  []*sandbox.Desktop
	all   []*sandbox.Desktop
	held  map[string]*sandbox.Desktop // by top-level test name
}

// waylandPool is a pool of up to size Wayland desktops with the
// compositor, none started yet.
func waylandPool(c sandbox.Compositor, size int) *desktopPool {
	return &desktopPool{
		opts:  sandbox.Options{Wayland: true, Compositor: c, Screen: "1280x800x24"},
		slots: make(chan struct{}, size),
		held:  map[string]*sandbox.Desktop{},
	}
}

// makePools makes the three pools, each of desktopPoolSize desktops; the
// X11 pool's first desktop starts now.
func makePools() error {
	size := desktopPoolSize()
	pool, err := newDesktopPool(size)
	if err != nil {
		return err
	}
	desktops = pool
	waylandDesktops = waylandPool(sandbox.Mutter, size)
	swayDesktops = waylandPool(sandbox.Sway, size)
	return nil
}

func newDesktopPool(size int) (*desktopPool, error) {
	d, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		return nil, err
	}
	return &desktopPool{
		opts:  sandbox.Options{},
		slots: make(chan struct{}, size),
		first: d,
		free:  []*sandbox.Desktop{d},
		all:   []*sandbox.Desktop{d},
		held:  map[string]*sandbox.Desktop{},
	}, nil
}

// take holds a desktop for t until t ends, waiting while all are in use.
func (p *desktopPool) take(t *testing.T) *sandbox.Desktop {
	t.Helper()
	p.slots <- struct{}{}
	p.mu.Lock()
	var d *sandbox.Desktop
	if n := len(p.free); n > 0 {
		d, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	if d == nil {
		var err error
		if d, err = sandbox.Start(context.Background(), p.opts); err != nil {
			<-p.slots
			t.Fatalf("starting another test desktop: %v", err)
		}
		p.mu.Lock()
		p.all = append(p.all, d)
		p.mu.Unlock()
	}
	p.hold(t, d, func() {
		p.mu.Lock()
		p.free = append(p.free, d)
		p.mu.Unlock()
		<-p.slots
	})
	return d
}

// hold records that t holds d (the helpers find it through t: deskOf)
// until t ends, and then runs release. Call it before the test's own
// clean-ups are registered: registered first, it runs last, so the test's
// clean-ups (the apps it started) still find the desktop.
func (p *desktopPool) hold(t *testing.T, d *sandbox.Desktop, release func()) {
	p.mu.Lock()
	p.held[t.Name()] = d
	p.mu.Unlock()
	t.Cleanup(func() {
		p.mu.Lock()
		delete(p.held, t.Name())
		p.mu.Unlock()
		release()
	})
}

// heldBy is the desktop the top-level test named root holds, or nil.
func (p *desktopPool) heldBy(root string) *sandbox.Desktop {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held[root]
}

func (p *desktopPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range p.all {
		_ = d.Close()
	}
}

// onDesktop begins a desktop test: t runs in parallel with the other
// desktop tests, on a desktop no other test uses while it runs.
func onDesktop(t *testing.T) {
	t.Helper()
	onPooled(t, desktops, "onDesktop")
}

// onWaylandDesktop begins a test on a Wayland desktop (headless mutter
// with Xwayland) held as onDesktop holds an X11 one: the helpers find it
// through t alike.
func onWaylandDesktop(t *testing.T) {
	t.Helper()
	onPooled(t, waylandDesktops, "onWaylandDesktop")
}

// onSwayDesktop begins a test on a sway desktop (headless sway with
// Xwayland), held as onWaylandDesktop holds a GNOME one.
func onSwayDesktop(t *testing.T) {
	t.Helper()
	onPooled(t, swayDesktops, "onSwayDesktop")
}

// onPooled begins a parallel top-level test on a desktop of pool; who
// names the caller for the misuse's message.
func onPooled(t *testing.T, pool *desktopPool, who string) {
	t.Helper()
	atTop(t, who)
	t.Parallel()
	pool.take(t)
}

// atTop fails t unless it is a top-level test: a test holds its desktop
// by its top-level name, which its subtests find it by (deskOf). who names
// the caller for the misuse's message.
func atTop(t *testing.T, who string) {
	t.Helper()
	if strings.Contains(t.Name(), "/") {
		t.Fatal(who + " belongs at the top of a top-level test, not in a subtest")
	}
}

// onOwnDesktop begins a test that changes its desktop for good (kills the
// compositor, PipeWire or the accessibility bus; runs a window manager
// whose marks on the root outlive it) on a desktop of its own, made like
// pool's, started for it and closed when it ends: a pooled desktop would
// hand the change to the next test. alone keeps it out of the parallel
// run, for a test that counts the process's goroutines (as
// aloneOnDesktop). The helpers find it through t as a pooled one.
func onOwnDesktop(t *testing.T, pool *desktopPool, alone bool) *sandbox.Desktop {
	t.Helper()
	atTop(t, "onOwnDesktop")
	if !alone {
		t.Parallel()
	}
	d, err := sandbox.Start(context.Background(), pool.opts)
	if err != nil {
		t.Fatalf("starting the test's own desktop: %v", err)
	}
	ownDesktops.hold(t, d, func() { _ = d.Close() })
	return d
}

// aloneOnDesktop begins a desktop test that must be the only test in the
// process, one that counts the process's goroutines: it does not call
// t.Parallel, so it runs before any parallel test starts.
func aloneOnDesktop(t *testing.T) {
	t.Helper()
	desktops.take(t)
}

// deskOf is the desktop t's top-level test holds. Benchmarks run one at a
// time after the tests and use the first desktop.
func deskOf(tb testing.TB) *sandbox.Desktop {
	root, _, _ := strings.Cut(tb.Name(), "/")
	if d := desktops.heldBy(root); d != nil {
		return d
	}
	for _, pool := range []*desktopPool{waylandDesktops, swayDesktops} {
		if d := pool.heldBy(root); d != nil {
			return d
		}
	}
	if d := ownDesktops.heldBy(root); d != nil {
		return d
	}
	if _, bench := tb.(*testing.B); bench {
		return desktops.first
	}
	tb.Fatalf("%s uses a test desktop without onDesktop(t) at its top", root)
	return nil
}
