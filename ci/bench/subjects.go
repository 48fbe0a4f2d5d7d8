package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// subject is one window the benchmark measures.
type subject struct {
	name string
	// argv starts the app; a leading "synthetic.py" is the fixture in the
	// testdata folder, run with /usr/bin/python3.
	argv []string
	// bus is (part of) the app's name on the AT-SPI bus.
	bus string
	// rows is the synthetic window's row count (0 for real apps).
	rows int
	// mcp marks the subjects the MCP phase (mcp.go) measures too.
	mcp bool
	// wayland marks the subjects measured on the Wayland lane as well
	// (lane.go), beside their X11 rows.
	wayland bool
	// clickOn, when set, is the label of the push button the click phase
	// clicks headless (click.go), on every lane the subject is measured on.
	clickOn string
	// windowKeys marks the subjects typed into headless on the
	// window_keys path (windowkeys.go).
	windowKeys bool
	// browser, when set, is a web browser showing the fixture page
	// (web/form.html in the testdata folder), started with the sandbox's
	// BrowserCommand on a throwaway profile; argv is then unused.
	browser sandbox.Browser
	// walkTitle, when set, is the title prefix the pyatspi walk looks for
	// instead of the driver's window title (a browser's frame and its X
	// window need not name the page alike).
	walkTitle string
	// everyday, when set, is an everyday app started with its fixture
	// (everyday.go); argv is then unused.
	everyday everydayApp
	// noWalk, when set, says why the subject has no pyatspi baseline.
	noWalk string
	// settle: before timing, read until two full reads in a row hold the
	// same element count (a document or a sheet lays out after its window
	// shows).
	settle bool
}

// browserPage is the fixture page's title, the prefix of the browser
// window's title.
const browserPage = "Form Fixture"

// The buttons the click phase clicks: the synthetic window's, whose
// handler renames a label, and the fixture page's, whose handler writes
// "clicked: Save N" into the page's live status line.
const (
	syntheticButton = "Click me"
	pageButton      = "Save"
)

// subjects lists what one run measures, in order: the synthetic window at
// three sizes, then real apps, then the browsers on the fixture page, then
// the everyday Qt and LibreOffice apps; the Wayland lane measures the
// synthetic window at 200 and 1,000 rows and gnome-calculator (GTK 4)
// again. None
// is optional: a subject that cannot be measured is a failed row and a
// non-zero exit.
func subjects() []subject {
	var s []subject
	for _, rows := range []int{200, 500, 1000} {
		s = append(s, subject{
			name:    fmt.Sprintf("synthetic %d rows", rows),
			argv:    []string{"synthetic.py", fmt.Sprint(rows)},
			bus:     "synthetic.py",
			rows:    rows,
			mcp:     rows == 200 || rows == 1000,
			wayland: rows == 200 || rows == 1000,
		})
		if rows != 500 {
			s[len(s)-1].clickOn = syntheticButton
		}
	}
	return append(append(s,
		subject{name: "gtk3-widget-factory", argv: []string{"gtk3-widget-factory"}, bus: "gtk3-widget-factory"},
		subject{name: "gtk3-demo", argv: []string{"gtk3-demo"}, bus: "gtk3-demo"},
		subject{name: "mousepad", argv: []string{"mousepad"}, bus: "mousepad"},
		subject{name: "gedit", argv: []string{"gedit"}, bus: "gedit"},
		subject{name: "gnome-calculator", argv: []string{"gnome-calculator"}, bus: "gnome-calculator", wayland: true},
		subject{name: "zenity --password", argv: []string{"zenity", "--password"}, bus: "zenity"},
		subject{name: "Chromium form.html", browser: sandbox.Chromium, bus: sandbox.Chromium.AppName(), walkTitle: browserPage, clickOn: pageButton, windowKeys: true},
		subject{name: "Firefox form.html", browser: sandbox.Firefox, bus: sandbox.Firefox.AppName(), walkTitle: browserPage, clickOn: pageButton, windowKeys: true},
	), everydaySubjects()...)
}

// bench holds what every subject's measurement shares.
type bench struct {
	desk        *sandbox.Desktop
	lane        lane // the kind of desktop desk is
	testdata    string
	runs, walks int
	// bin is the built driver the MCP phase starts.
	bin     string
	stopped map[int]bool // pids of apps already measured and stopped
}

// running is a started app.
type running struct {
	cmd *exec.Cmd
	// pid is the app's pid on the accessibility bus (the started process's
	// own unless it handed over to another).
	pid int
}

const startTimeout = 30 * time.Second

// pageTimeout bounds a browser's start until the fixture page's tree is on
// the bus (the window comes first; a cold Chromium takes several seconds).
const pageTimeout = 45 * time.Second

// command is the subject's prepared process.
func (b *bench) command(s subject) (*exec.Cmd, error) {
	if s.everyday != 0 {
		return b.everydayCommand(s)
	}
	if s.browser != 0 {
		return b.desk.BrowserCommand(s.browser, "file://"+filepath.Join(b.testdata, "web", "form.html"))
	}
	argv := s.argv
	if argv[0] == "synthetic.py" {
		argv = append([]string{"/usr/bin/python3", filepath.Join(b.testdata, "synthetic.py")}, argv[1:]...)
	}
	return b.desk.Command(argv[0], argv[1:]...), nil
}

// start runs the subject's app on the desktop and waits until it is on the
// accessibility bus (the synthetic fixture also says "ready" once shown; a
// browser, once the fixture page's last button is in its tree). A
// browser's pid on the bus is the started process's: both browsers
// register from their main process.
func (b *bench) start(s subject) (*running, error) {
	cmd, err := b.command(s)
	if err != nil {
		return nil, fmt.Errorf("no command: %v", err)
	}
	var ready chan struct{}
	if s.rows > 0 {
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		ready = make(chan struct{})
		go func() {
			sc := bufio.NewScanner(out)
			said := false
			for sc.Scan() {
				if !said && strings.Contains(sc.Text(), "ready") {
					said = true
					close(ready)
				}
			}
		}()
	}
	if err := b.desk.Start(cmd); err != nil {
		return nil, fmt.Errorf("did not start: %v", err)
	}
	r := &running{cmd: cmd, pid: cmd.Process.Pid}
	if _, _, office := s.everyday.office(); office {
		if r.pid, err = b.officePid(cmd); err != nil {
			r.pid = cmd.Process.Pid
			b.stop(r)
			return nil, err
		}
		return r, nil
	}
	if ready != nil {
		select {
		case <-ready:
		case <-time.After(startTimeout):
			b.stop(r)
			return nil, errors.New("the fixture did not say ready in time")
		}
	}
	pid, err := b.waitOnBus(s.bus, r.pid)
	if err != nil {
		b.stop(r)
		return nil, err
	}
	r.pid = pid
	if s.browser != 0 {
		if err := b.waitPage(r.pid); err != nil {
			b.stop(r)
			return nil, err
		}
	}
	return r, nil
}

// waitPage waits until the fixture page's last element (the button below
// the fold) is in the browser's accessible tree: the page's tree is built
// after the window appears.
func (b *bench) waitPage(pid int) error {
	ctx := context.Background()
	apps, err := b.desk.AccessibleApps(ctx)
	if err != nil {
		return err
	}
	for _, a := range apps {
		if a.Pid == pid {
			if err := b.desk.WaitForElement(ctx, a, sandbox.RolePushButton, "Far button", pageTimeout); err != nil {
				return errors.New("the fixture page did not show in the browser's tree in time")
			}
			return nil
		}
	}
	return errors.New("the browser left the accessibility bus")
}

// waitOnBus waits until the app is registered on the accessibility bus and
// returns its pid there: the started process's if it is listed, else that
// of a newly listed app of the same name (never one measured before).
func (b *bench) waitOnBus(name string, pid int) (int, error) {
	ctx := context.Background()
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		apps, _ := b.desk.AccessibleApps(ctx)
		other := 0
		for _, a := range apps {
			if a.Pid == pid {
				return pid, nil
			}
			if a.Pid > 0 && !b.stopped[a.Pid] && strings.Contains(strings.ToLower(a.Name), strings.ToLower(name)) {
				other = a.Pid
			}
		}
		if other != 0 {
			return other, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0, fmt.Errorf("not on the accessibility bus within %v", startTimeout)
}

// stop kills the app's process group (and the app's own process if it
// left the group) and waits until the sandbox has reaped it, so the next
// subject runs alone.
func (b *bench) stop(r *running) {
	pids := []int{r.cmd.Process.Pid}
	if r.pid != r.cmd.Process.Pid {
		pids = append(pids, r.pid)
	}
	_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGKILL)
		b.stopped[p] = true
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, p := range pids {
		for time.Now().Before(deadline) && syscall.Kill(p, 0) == nil {
			time.Sleep(10 * time.Millisecond)
		}
	}
}
