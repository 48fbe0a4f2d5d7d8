package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// What waits in flight cost, on a mock window of about 400
// elements whose condition never holds: the CPU idle waits take, and the
// heap waits in flight hold. Benchmarks report these figures; no test
// asserts them. Run:
//
//	go test -run '^$' -bench 'IdleWaits|WaitsInFlight' -benchtime 1x ./engine/

// waitsPerSession spreads a benchmark's waits over sessions, as many
// as the engine lets one session hold (engine.MaxWaitsPerSession), so the
// same load is all in flight whatever the bound. A number of its own, so
// that the benchmark runs on code from before the bound too.
const waitsPerSession = 16

// countingDesktop is the mock with the waits listening to it counted
// (WaitChange calls in flight).
type countingDesktop struct {
	*mock.Desktop
	listening atomic.Int64
}

func (c *countingDesktop) WaitChange(ctx context.Context, w engine.WindowID, mark engine.ChangeMark, max time.Duration) (bool, error) {
	c.listening.Add(1)
	defer c.listening.Add(-1)
	return c.Desktop.WaitChange(ctx, w, mark, max)
}

// waitBench is a driver on a mock desktop with one app, "Big", whose one
// window holds about 400 elements.
type waitBench struct {
	b    *testing.B
	desk *countingDesktop
	d    *engine.Driver
	win  engine.WindowID
	n    int // sessions opened
}

func newWaitBench(b *testing.B) *waitBench {
	desk := mock.New()
	desk.SetConsent(mock.AllowAll)
	// As `nish-driver mcp --backend mock` keeps it: the call log bounded.
	desk.KeepCalls(1024)
	w := mock.DenseWindow(desk.AddApp("Big", "/usr/bin/big"), "Big", 61)
	cd := &countingDesktop{Desktop: desk}
	d := enginekit.Start(b, desk, engine.Options{Backend: cd, ConsentTimeout: 5 * time.Second})
	b.ReportMetric(float64(w.Len()), "elements")
	return &waitBench{b: b, desk: cd, d: d, win: w.ID()}
}

// session opens a connection with a session on "Big".
func (wb *waitBench) session() *engine.Conn {
	wb.n++
	c := enginekit.Connect(wb.b, wb.d, "Bench", 7000+wb.n)
	res := c.Call(context.Background(), "start_session", json.RawMessage(`{"apps":["Big"]}`))
	if res.Err != nil {
		wb.b.Fatalf("start_session: %s", res.Text)
	}
	return c
}

// waitLoad is a batch of waits in flight.
type waitLoad struct {
	n        int
	answered atomic.Int64 // before cancel
	busy     atomic.Int64 // answered busy
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// inFlight is how many of the load's waits have not been answered.
func (l *waitLoad) inFlight() int { return l.n - int(l.answered.Load()) }

// cancel ends the waits still in flight and waits for them.
func (l *waitLoad) cancel() {
	l.stop()
	l.wg.Wait()
}

// waits starts n waits that never meet their condition, perSession to a
// session, and returns once each is listening or has been answered
// (refused), or after 10 s: a wait that keeps waking (the old mock's
// marks pushed out by other waits' marks) may never be seen listening
// with all the others.
func (wb *waitBench) waits(n, perSession int) *waitLoad {
	ctx, stop := context.WithCancel(context.Background())
	l := &waitLoad{n: n, stop: stop}
	args, _ := json.Marshal(map[string]any{"window_id": uint64(wb.win), "timeout_ms": 30000,
		"condition": map[string]any{"kind": "appears", "label": "never shown"}})
	var c *engine.Conn
	for i := range n {
		if i%perSession == 0 {
			c = wb.session()
		}
		l.wg.Add(1)
		go func(c *engine.Conn) {
			defer l.wg.Done()
			res := c.Call(ctx, "wait_for", args)
			if ctx.Err() == nil {
				l.answered.Add(1)
				if res.Err != nil && res.Err.Code == engine.CodeBusy {
					l.busy.Add(1)
				}
			}
		}(c)
	}
	testkit.Poll(10*time.Second, func() bool {
		return wb.desk.listening.Load()+l.answered.Load() >= int64(n)
	})
	return l
}

// cpuTime is the process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIdleWaits reports the share of one core that waits take while
// nothing on the desktop changes, over 5 s once every wait is listening
// (waits=0: the driver's own idle, with one session).
func BenchmarkIdleWaits(b *testing.B) {
	for _, n := range []int{0, 1, 50} {
		b.Run(fmt.Sprintf("waits=%d", n), func(b *testing.B) {
			wb := newWaitBench(b)
			if n == 0 {
				wb.session()
			}
			var cpu, wall time.Duration
			for range b.N {
				l := wb.waits(n, waitsPerSession)
				runtime.GC()
				c0, t0 := cpuTime(b), time.Now()
				time.Sleep(5 * time.Second)
				cpu, wall = cpu+cpuTime(b)-c0, wall+time.Since(t0)
				l.cancel()
			}
			b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "core-%")
			if n > 0 {
				b.ReportMetric(100*cpu.Seconds()/wall.Seconds()/float64(n), "core-%/wait")
			}
		})
	}
}

// BenchmarkWaitsInFlight reports the heap in use (after a GC) that waits
// in flight hold on the 400-element window, over what the driver held
// before they began: 600 attempted from one session, 600 spread over
// sessions of 16, and one session's 16.
func BenchmarkWaitsInFlight(b *testing.B) {
	cases := []struct {
		name          string
		n, perSession int
	}{
		{"600_in_one_session", 600, 600},
		{"600_over_sessions_of_16", 600, waitsPerSession},
		{"16_in_one_session", 16, 16},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			wb := newWaitBench(b)
			var held, inUse uint64
			var refused, inFlight, listening int
			for range b.N {
				before := heapInUse()
				l := wb.waits(c.n, c.perSession)
				after := heapInUse()
				inFlight, listening, refused = l.inFlight(), int(wb.desk.listening.Load()), int(l.busy.Load())
				l.cancel()
				held, inUse = held+after-min(after, before), after
			}
			b.ReportMetric(float64(held)/float64(b.N)/(1<<20), "MB-held")
			b.ReportMetric(float64(inUse)/(1<<20), "MB-heap-in-use")
			b.ReportMetric(float64(inFlight), "in-flight")
			b.ReportMetric(float64(listening), "listening")
			b.ReportMetric(float64(refused), "refused")
			if inFlight > 0 {
				b.ReportMetric(float64(held)/float64(b.N)/float64(inFlight)/1024, "KB/wait")
			}
		})
	}
}

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
