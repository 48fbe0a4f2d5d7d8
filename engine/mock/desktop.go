package mock

import (
	"context"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// Screen is the mock's root window: one 1920x1080 screen, as on the test
// desktop's Xvfb.
var Screen = engine.Rect{X: 0, Y: 0, W: 1920, H: 1080}

// Desktop is the in-memory desktop. Its zero value is not usable; call New
// or NewDemo.
type Desktop struct {
	mu sync.Mutex
	// changed is signalled (under mu) whenever pending work or watcher
	// delivery progresses, for WaitIdle and WaitInput.
	changed *sync.Cond

	apps      []*App
	nextPid   int
	nextInst  int    // app instances: X client id bases and bus names
	nextStart uint64 // process start times, clock ticks since boot
	windows   map[engine.WindowID]*Window
	stack     []*Window // live windows, topmost first
	focus     *Window

	pointer engine.Point
	held    map[string]bool // keys held down, by keysym name
	pressed *Element        // the element under the last button-1 press
	// beforeHit runs once before the next hit-test (hittest.go).
	beforeHit func()
	// onWindowKeys runs after each batch of window keys (windowkeys.go).
	onWindowKeys func(sent string)

	// clock stamps the raw input the desktop reports (RawInput.Time);
	// nil is the wall clock. SetClock gives it the engine's.
	clock engine.Clock

	unavailable bool
	parts       map[string]engine.Feature        // parts reported otherwise than the desktop's status (SetPart)
	a11yOn      bool                             // the accessibility switch (accessibility.go)
	a11yBroken  bool                             // the switch does not answer
	qtBus       string                           // the AT_SPI_BUS check's state ("" ok)
	markSeq     uint64                           // the last mark made
	version     uint64                           // moved on by every change a read could show (touch)
	touched     chan struct{}                    // closed by the next touch; nil until a wait needs it
	stamps      int                              // window states stamped (Stamps)
	marks       map[engine.ChangeMark]*markState // what each recent mark saw
	listening   map[engine.WindowID]bool         // windows MarkChanges has seen
	leakSecure  bool                             // fault injection: ReadTree reports secure values
	captureErr  engine.Code

	calls    []Call
	callBase int // calls forgotten by ResetCalls
	// keepCalls bounds calls (KeepCalls); 0 keeps every call.
	keepCalls int
	texts     []TextCall
	sent      []engine.InputEvent
	person    []engine.RawInput

	watchers map[*watcher]struct{}

	consent     ConsentPolicy
	consentReqs []engine.ConsentRequest
	dialogs     []*dialog // consent dialogs on screen, oldest first

	indicators    []*indicator // every indicator shown, oldest first
	failIndicator bool

	clip clipboard

	timers    map[int]*time.Timer
	nextTimer int
	pending   int // After functions scheduled or running
	closed    bool

	demo *Demo
}

// New returns an empty desktop: no apps, the pointer in the middle of the
// screen, an empty clipboard with no owner, and a person who ignores the
// consent dialog until a test says otherwise (SetConsent).
func New() *Desktop {
	d := &Desktop{
		nextPid:   4000,
		nextStart: 100000,
		windows:   map[engine.WindowID]*Window{},
		pointer:   Screen.Center(),
		held:      map[string]bool{},
		watchers:  map[*watcher]struct{}{},
		consent:   Ignore,
		timers:    map[int]*time.Timer{},
		clip:      clipboard{state: ClipboardNoOwner},
	}
	d.changed = sync.NewCond(&d.mu)
	return d
}

// SetClock makes c the clock the desktop stamps raw input with: a test that
// gives the engine a fake clock gives the desktop the same one, as a real
// backend and the engine's real clock share the wall clock.
func (d *Desktop) SetClock(c engine.Clock) {
	d.mu.Lock()
	d.clock = c
	d.mu.Unlock()
}

// now is the time on the desktop's clock. mu held.
func (d *Desktop) now() time.Time {
	if d.clock == nil {
		return time.Now()
	}
	return d.clock.Now()
}

// After runs fn once dur has passed, without the desktop's lock held, so fn
// may change the desktop (a label that updates a moment after a click, a row
// that appears late). Scheduled functions are counted until they finish;
// WaitIdle waits for them, Close cancels those not yet started.
func (d *Desktop) After(dur time.Duration, fn func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.nextTimer++
	id := d.nextTimer
	d.pending++
	d.timers[id] = time.AfterFunc(dur, func() {
		d.mu.Lock()
		_, live := d.timers[id]
		delete(d.timers, id)
		d.mu.Unlock()
		if live {
			fn()
		}
		d.mu.Lock()
		d.pending--
		d.changed.Broadcast()
		d.mu.Unlock()
	})
}

// WaitIdle blocks until every function scheduled with After (including ones
// they schedule in turn) has run, or until timeout; it reports whether the
// desktop went idle.
func (d *Desktop) WaitIdle(timeout time.Duration) bool {
	return d.waitUntil(timeout, func() bool { return d.pending == 0 })
}

// waitUntil waits, with mu held between checks, until cond holds or the
// timeout passes.
func (d *Desktop) waitUntil(timeout time.Duration, cond func() bool) bool {
	stop := time.AfterFunc(timeout, func() {
		d.mu.Lock()
		d.changed.Broadcast()
		d.mu.Unlock()
	})
	defer stop.Stop()
	deadline := time.Now().Add(timeout)
	d.mu.Lock()
	defer d.mu.Unlock()
	for !cond() {
		if !time.Now().Before(deadline) {
			return false
		}
		d.changed.Wait()
	}
	return true
}

// Close cancels every After function that has not started. The desktop
// stays readable; nothing new is scheduled.
func (d *Desktop) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	for id, t := range d.timers {
		if t.Stop() {
			d.pending--
		}
		delete(d.timers, id)
	}
	d.changed.Broadcast()
}

// SetUnavailable switches the whole desktop off (or back on): every backend
// call fails with backend_unavailable, as when the display or the AT-SPI bus
// cannot be reached, and the registry reports the backend unavailable.
func (d *Desktop) SetUnavailable(off bool) {
	d.change(func() { d.unavailable = off })
}

// SetPart makes the registry report one part of the capability table as
// given (a desktop without XInput 2.1's raw events, a Wayland session's
// missing input portal) instead of with the desktop's own status.
func (d *Desktop) SetPart(f engine.Feature) {
	d.mu.Lock()
	if d.parts == nil {
		d.parts = map[string]engine.Feature{}
	}
	d.parts[f.ID] = f
	d.mu.Unlock()
}

// LeakSecureValues makes ReadTree report secure elements' values, as a
// toolkit that ignores the protected state would. It exists so tests can
// show the engine's own guard keeps such values from the model even when a
// backend lets them through.
func (d *Desktop) LeakSecureValues(on bool) {
	d.change(func() { d.leakSecure = on })
}

func errUnavailable() error {
	return engine.Errf(engine.CodeBackendUnavailable, "the mock desktop is switched off")
}

func errGone(id engine.WindowID) error {
	return engine.Errf(engine.CodeWindowGone, "window %d is gone", uint64(id))
}

func errNotResponding(pid int) error {
	return engine.Errf(engine.CodeAppNotResponding, "app pid %d did not answer in time", pid)
}

// liveWindow returns a window that exists and whose app is running. mu held.
func (d *Desktop) liveWindow(id engine.WindowID) *Window {
	w := d.windows[id]
	if w == nil || w.closed || !w.app.alive {
		return nil
	}
	return w
}

// appCall runs one accessibility call against a window's app. It fails at
// once when the desktop is off or the window is gone; while the app is hung
// it waits until the app resumes (then goes on) or the context ends (then
// app_not_responding, as a D-Bus call that timed out). fn runs with mu held
// and the window resolved again after any wait.
func (d *Desktop) appCall(ctx context.Context, c Call, fn func(w *Window) error) error {
	i := d.record(c)
	err := d.appCallWait(ctx, c.Window, fn)
	d.finish(i, err)
	return err
}

func (d *Desktop) appCallWait(ctx context.Context, id engine.WindowID, fn func(w *Window) error) error {
	for {
		d.mu.Lock()
		if d.unavailable {
			d.mu.Unlock()
			return errUnavailable()
		}
		w := d.liveWindow(id)
		if w == nil {
			d.mu.Unlock()
			return errGone(id)
		}
		app := w.app
		if !app.hung {
			if ctx.Err() != nil {
				d.mu.Unlock()
				return errNotResponding(app.pid)
			}
			err := fn(w)
			d.mu.Unlock()
			return err
		}
		wake := app.wake
		d.mu.Unlock()
		select {
		case <-ctx.Done():
			return errNotResponding(app.pid)
		case <-wake:
		}
	}
}

// plainCall runs a call that does not need the app to answer (X server
// requests): it records the call and fails only when the desktop is off.
// fn runs with mu held.
func (d *Desktop) plainCall(c Call, fn func() error) error {
	i := d.record(c)
	d.mu.Lock()
	var err error
	if d.unavailable {
		err = errUnavailable()
	} else {
		err = fn()
	}
	d.mu.Unlock()
	d.finish(i, err)
	return err
}
