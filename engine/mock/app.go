package mock

import (
	"context"
	"fmt"

	"github.com/nish-driver/nish-driver/engine"
)

// App is one running process with its windows. Each instance (a start,
// or a restart under the same pid) is its own X client and its own AT-SPI
// bus connection, so its window ids and element ids are new.
type App struct {
	d *Desktop

	name  string
	exe   string
	pid   int
	start uint64

	alive bool
	hung  bool
	// silent: the app does not answer the window listing (StopAnsweringListings).
	silent bool
	// toolkit is the app's toolkit family (an engine.Toolkit constant);
	// offBus: the app is not on the accessibility bus (accessibility.go).
	toolkit string
	offBus  bool
	wake    chan struct{} // closed when a hang ends (resume, exit, restart)

	bus     string // the instance's bus name, ":1.N"
	xbase   uint64 // the instance's X resource id base
	nextWin uint64
	nextObj int
	windows []*Window // created by this instance, in creation order
}

// AddApp starts an app. Pids are handed out from 4000 up; each start gets
// a later start time.
func (d *Desktop) AddApp(name, exe string) *App {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := &App{d: d, name: name, exe: exe, pid: d.nextPid, toolkit: engine.ToolkitGTK}
	d.nextPid++
	d.startInstance(a)
	d.apps = append(d.apps, a)
	return a
}

// startInstance gives an app a fresh process instance. mu held.
func (d *Desktop) startInstance(a *App) {
	a.alive = true
	a.hung = false
	a.start = d.nextStart
	d.nextStart += 1000
	a.bus = fmt.Sprintf(":1.%d", 42+d.nextInst)
	a.xbase = 0x2a00000 + uint64(d.nextInst)*0x200000
	d.nextInst++
	a.nextWin = 0
	a.nextObj = 0
	a.windows = nil
	d.touch()
}

// App returns the first running app with that name, or nil.
func (d *Desktop) App(name string) *App {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range d.apps {
		if a.alive && a.name == name {
			return a
		}
	}
	return nil
}

// Apps returns every app ever added, running or not, in order.
func (d *Desktop) Apps() []*App {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]*App(nil), d.apps...)
}

// Pid is the app's process id.
func (a *App) Pid() int { return a.pid }

// Name is the app's name as window listings show it.
func (a *App) Name() string {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	return a.name
}

// Identity is what Process reports for the app's current instance.
func (a *App) Identity() engine.ProcessIdentity {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	return engine.ProcessIdentity{Pid: a.pid, StartTime: a.start, Exe: a.exe}
}

// Alive reports whether the app is running.
func (a *App) Alive() bool {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	return a.alive
}

// Windows returns the current instance's open windows in creation order.
func (a *App) Windows() []*Window {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	var out []*Window
	for _, w := range a.windows {
		if !w.closed {
			out = append(out, w)
		}
	}
	return out
}

// Exit ends the process: its windows vanish, calls on them fail with
// window_gone, and Process(pid) fails with window_gone. Calls waiting on a
// hang wake up and fail the same way.
func (a *App) Exit() {
	d := a.d
	d.mu.Lock()
	defer d.mu.Unlock()
	d.endInstance(a)
}

// endInstance closes an instance's windows and wakes its waiters. mu held.
func (d *Desktop) endInstance(a *App) {
	for _, w := range a.windows {
		d.closeWindow(w)
	}
	a.alive = false
	d.unhang(a)
	d.touch()
}

// Restart models pid reuse: the process exits and a new one with the same
// pid, name and executable starts. Its start time is later, its old
// windows are gone (add new ones with AddWindow), and its element ids and
// window ids are new.
func (a *App) Restart() {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	a.d.endInstance(a)
	a.d.startInstance(a)
}

// RestartAs is Restart for a different program taking over the pid.
func (a *App) RestartAs(name, exe string) {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	a.d.endInstance(a)
	a.name, a.exe = name, exe
	a.d.startInstance(a)
}

// Hang makes the app stop answering: every accessibility call on its
// windows (ReadTree, ReadText, ReadValue, DoAction, InsertText, SetText,
// SetNumber) blocks until the app resumes or the call's context ends, and
// then fails with app_not_responding. Calls the X server answers on its
// own (Windows, Process, Capture, Send, Raise) are not affected, as on X11.
func (a *App) Hang() {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	if a.hung || !a.alive {
		return
	}
	a.hung = true
	a.wake = make(chan struct{})
	a.d.touch()
}

// Resume ends a hang; calls still waiting carry on as if the app had been
// slow.
func (a *App) Resume() {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	a.d.unhang(a)
}

func (d *Desktop) unhang(a *App) {
	if a.hung {
		a.hung = false
		close(a.wake)
		d.touch()
	}
}

// StopAnsweringListings makes the app not answer the window listing, as a busy
// app on a Wayland session's accessibility bus does (the windows are the
// bus's there): Windows lists none of its windows, and lists the app
// itself as not answering (engine.Window.NotAnswering). AnswerListings
// ends it.
func (a *App) StopAnsweringListings() { a.setSilent(true) }

// AnswerListings makes the app answer the window listing again.
func (a *App) AnswerListings() { a.setSilent(false) }

func (a *App) setSilent(silent bool) {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	a.silent = silent
	a.d.touch()
}

// Hung reports whether the app is hung.
func (a *App) Hung() bool {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	return a.hung
}

// Process returns the identity of a running process; a pid no running app
// has is window_gone.
func (d *Desktop) Process(ctx context.Context, pid int) (engine.ProcessIdentity, error) {
	var id engine.ProcessIdentity
	err := d.plainCall(Call{Method: "Process", Pid: pid}, func() error {
		for _, a := range d.apps {
			if a.alive && a.pid == pid {
				id = engine.ProcessIdentity{Pid: a.pid, StartTime: a.start, Exe: a.exe}
				return nil
			}
		}
		return engine.Errf(engine.CodeWindowGone, "no process with pid %d", pid)
	})
	return id, err
}
