// Package sandbox starts a private virtual desktop: an Xvfb display, a
// private session bus and the AT-SPI accessibility bus, in the order the
// stack needs (the AT-SPI bus must be up before anything asks
// org.a11y.Bus for its address, or D-Bus activation starts a second
// launcher and the first exits). Apps started through it run there, never on
// the person's screen. `nish-driver sandbox` offers it to users; the native
// integration tests and `make demo` run inside one.
//
// Accessibility is on for everything started there. Every program gets the
// environment switches the toolkits read (ACCESSIBILITY_ENABLED=1 for
// Chromium and Electron, GNOME_ACCESSIBILITY=1 for Firefox,
// QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 for Qt 5, SAL_ACCESSIBILITY_ENABLED=1
// for LibreOffice) and never NO_AT_BRIDGE. Command lines need more in one
// case: a Chromium-family program (the browsers, Electron apps such as
// VS Code or Slack) shows only its frame without
// --force-renderer-accessibility, which AppCommand adds and Command, kept
// as given for tests of exactly that case, does not. BrowserCommand starts
// Chromium or Firefox ready for tests: accessibility on, a throwaway
// profile, a fixed window, no first-run windows or bars.
//
// A Desktop stops only what it started.
package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Options shape a desktop.
type Options struct {
	// Screen is Xvfb's screen geometry (default 1920x1080x24).
	Screen string
	// Log receives the children's stderr (default: discarded).
	Log io.Writer
	// StartTimeout bounds each start-up step (default 15 s).
	StartTimeout time.Duration
	// Wayland starts a headless Wayland desktop with Xwayland
	// (wayland.go) in place of Xvfb.
	Wayland bool
	// Compositor is the Wayland desktop's compositor: Mutter (the
	// default, a GNOME session) or Sway (a wlroots one).
	Compositor Compositor
}

// Desktop is a running private desktop.
type Desktop struct {
	// Display is the X display name, ":N": Xvfb's, or on a Wayland
	// desktop Xwayland's.
	Display string
	// Wayland is the compositor's socket name (WAYLAND_DISPLAY) on a
	// Wayland desktop, else "".
	Wayland string
	// Root is the private directory holding the XDG folders.
	Root string

	vars  map[string]string
	opts  Options
	seat  io.Closer // the Wayland lane's keyboard (wayland_seat.go, sway_keyboard.go)
	mu    sync.Mutex
	procs []proc
}

// proc is a started child and a channel closed once it has been reaped.
type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// Start brings a desktop up. On failure everything it started is stopped.
func Start(ctx context.Context, opts Options) (*Desktop, error) {
	if opts.Screen == "" {
		opts.Screen = "1920x1080x24"
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 15 * time.Second
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	for _, tool := range []string{"Xvfb", "dbus-daemon", "gdbus"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("sandbox: %s is not installed (Debian: xvfb, dbus, libglib2.0-bin)", tool)
		}
	}
	if _, err := os.Stat(busLauncher); err != nil {
		return nil, fmt.Errorf("sandbox: %s is missing (Debian: at-spi2-core)", busLauncher)
	}
	if opts.Wayland {
		if err := checkWaylandTools(opts.Compositor); err != nil {
			return nil, err
		}
	}
	root, err := os.MkdirTemp("", "nish-sandbox-")
	if err != nil {
		return nil, err
	}
	d := &Desktop{Root: root, opts: opts, vars: map[string]string{}}
	if err := d.start(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

const busLauncher = "/usr/libexec/at-spi-bus-launcher"

func (d *Desktop) start(ctx context.Context) error {
	for _, dir := range []string{"runtime", "config", "cache", "data", "state", "home", "tmp"} {
		if err := os.MkdirAll(filepath.Join(d.Root, dir), 0o700); err != nil {
			return err
		}
	}
	d.vars = desktopVars(d.Root)
	if d.opts.Wayland {
		// Mutter needs the session bus; each compositor starts Xwayland
		// itself.
		if err := d.startSessionBus(ctx); err != nil {
			return err
		}
		if err := d.startWayland(ctx); err != nil {
			return err
		}
		if err := d.startSeat(ctx); err != nil {
			return err
		}
		return d.startAccessibilityBus(ctx)
	}
	if err := d.startX(ctx); err != nil {
		return err
	}
	if err := d.startSessionBus(ctx); err != nil {
		return err
	}
	return d.startAccessibilityBus(ctx)
}

// desktopVars are the variables of a desktop whose private folder is root,
// before its display and bus addresses are known: private XDG folders, HOME
// and TMPDIR, and accessibility on (an empty value is a variable Env
// removes).
//
// TMPDIR is private because single-instance apps keep their lock there:
// KeePassXC (through Qt's temporary folder) keeps keepassxc.lock and
// keepassxc.socket in /tmp, so with a shared /tmp a KeePassXC started on
// this desktop while another runs anywhere else on the machine (another
// desktop, the person's own session) hands its file to that one, prints
// "Another instance of KeePassXC is already running." and exits: it never
// joins this desktop's accessibility bus.
func desktopVars(root string) map[string]string {
	vars := map[string]string{
		"TMPDIR":            filepath.Join(root, "tmp"),
		"XDG_RUNTIME_DIR":   filepath.Join(root, "runtime"),
		"XDG_CONFIG_HOME":   filepath.Join(root, "config"),
		"XDG_CACHE_HOME":    filepath.Join(root, "cache"),
		"XDG_DATA_HOME":     filepath.Join(root, "data"),
		"XDG_STATE_HOME":    filepath.Join(root, "state"),
		"HOME":              filepath.Join(root, "home"),
		"GSETTINGS_BACKEND": "memory",
		"NO_AT_BRIDGE":      "",
		"GTK_A11Y":          "",
		"LANG":              "C.UTF-8",
		// A private X desktop is an X11 session, whatever the caller's is
		// (the Wayland lane says wayland).
		"XDG_SESSION_TYPE": "x11",
	}
	for k, v := range accessibilityVars {
		vars[k] = v
	}
	return vars
}

// startX starts Xvfb and lets it pick a free display itself (-displayfd):
// choosing a number here would race other sandboxes starting at the same
// moment (parallel test binaries), and two servers must never share one.
func (d *Desktop) startX(ctx context.Context) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", d.opts.Screen, "-nolisten", "tcp", "-noreset")
	cmd.Stdout, cmd.Stderr = d.opts.Log, d.opts.Log
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = childAttrs()
	if err := spawn(cmd); err != nil {
		w.Close()
		return fmt.Errorf("sandbox: Xvfb: %w", err)
	}
	w.Close()
	d.track(cmd)
	n, err := d.firstLine(ctx, r, "sandbox: Xvfb did not open a display in time")
	if err != nil {
		return err
	}
	if _, err := strconv.Atoi(n); err != nil {
		return errors.New("sandbox: Xvfb did not report its display")
	}
	d.Display = ":" + n
	d.vars["DISPLAY"] = d.Display
	return nil
}

// firstLine reads the first line a child prints on r, trimmed, and then
// reads and drops the rest, so the child never blocks on a full pipe. A
// child that prints nothing within the start timeout is the error late.
func (d *Desktop) firstLine(ctx context.Context, r io.Reader, late string) (string, error) {
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case line := <-got:
		return line, nil
	case <-time.After(d.opts.StartTimeout):
		return "", errors.New(late)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// startSessionBus starts a private session bus and reads its address.
func (d *Desktop) startSessionBus(ctx context.Context) error {
	out, err := d.startReading(fromStdout, "dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1")
	if err != nil {
		return err
	}
	a, err := d.firstLine(ctx, out, "sandbox: dbus-daemon did not start in time")
	if err != nil {
		return err
	}
	if a == "" {
		return errors.New("sandbox: dbus-daemon printed no address")
	}
	d.vars["DBUS_SESSION_BUS_ADDRESS"] = a
	return nil
}

// startAccessibilityBus starts the AT-SPI bus launcher and waits until
// org.a11y.Bus answers on the session bus.
func (d *Desktop) startAccessibilityBus(ctx context.Context) error {
	if err := d.startQuiet(busLauncher, "--launch-immediately"); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, d.opts.StartTimeout)
	defer cancel()
	wait := exec.CommandContext(wctx, "gdbus", "wait", "--session", "--timeout",
		strconv.Itoa(int(d.opts.StartTimeout/time.Second)), "org.a11y.Bus")
	wait.Env = d.Env()
	if out, err := wait.CombinedOutput(); err != nil {
		return fmt.Errorf("sandbox: the AT-SPI bus did not come up: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if d.Wayland != "" {
		// The launcher publishes nothing on X in a Wayland session; the
		// desktop runs Xwayland's session scripts, and at-spi2-core's copies
		// the bus's address onto Xwayland's root (wayland.go).
		if err := d.runXwaylandScripts(wctx); err != nil {
			return err
		}
	}
	return d.waitRootBusProperty(wctx)
}

// waitRootBusProperty waits until the launcher has published the bus's
// address on the X root window (AT_SPI_BUS). Qt 5 apps find the bus only
// there: one started before the property is set never joins the bus, and
// the launcher sets it a moment after it answers on the session bus.
func (d *Desktop) waitRootBusProperty(ctx context.Context) error {
	if err := d.waitRootProperty(ctx, "AT_SPI_BUS", " = "); err != nil {
		return fmt.Errorf("sandbox: the AT-SPI bus launcher did not publish AT_SPI_BUS on the root window: %w", err)
	}
	return nil
}

// waitRootProperty waits, within the start timeout, until xprop prints
// the root window's property prop with want in it.
func (d *Desktop) waitRootProperty(ctx context.Context, prop, want string) error {
	ctx, cancel := context.WithTimeout(ctx, d.opts.StartTimeout)
	defer cancel()
	for {
		cmd := exec.CommandContext(ctx, "xprop", "-root", prop)
		cmd.Env = d.Env()
		out, err := cmd.Output()
		if err == nil && strings.Contains(string(out), want) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%v (%s)", ctx.Err(), strings.TrimSpace(string(out)))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Vars returns the environment variables that reach this desktop.
func (d *Desktop) Vars() map[string]string {
	out := make(map[string]string, len(d.vars))
	for k, v := range d.vars {
		out[k] = v
	}
	return out
}

// Env is the process environment with this desktop's variables in place of
// the caller's (NO_AT_BRIDGE and GTK_A11Y are removed, not emptied).
func (d *Desktop) Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ours := d.vars[k]; ours || k == "WAYLAND_DISPLAY" || k == "AT_SPI_BUS_ADDRESS" {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range d.vars {
		if v == "" && (k == "NO_AT_BRIDGE" || k == "GTK_A11Y") {
			continue
		}
		env = append(env, k+"="+v)
	}
	return env
}

// Command prepares a program to run on this desktop, in its own process
// group so Close can stop it and everything it starts.
func (d *Desktop) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = d.Env()
	cmd.SysProcAttr = childAttrs()
	return cmd
}

// Start runs a program on this desktop and stops it with the desktop. Its
// exit is reaped in the background; use Done to wait for it.
func (d *Desktop) Start(cmd *exec.Cmd) error {
	if err := spawn(cmd); err != nil {
		return err
	}
	d.track(cmd)
	return nil
}

// track reaps a started child in the background and stops it on Close.
func (d *Desktop) track(cmd *exec.Cmd) {
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	d.trackWaited(cmd, done)
}

func (d *Desktop) trackWaited(cmd *exec.Cmd, done chan struct{}) {
	if cmd.Process == nil {
		return
	}
	d.mu.Lock()
	d.procs = append(d.procs, proc{cmd: cmd, done: done})
	d.mu.Unlock()
}

// Close stops every process the desktop started (newest first, each with
// its process group) and removes its private directory.
func (d *Desktop) Close() error {
	d.closeSeat()
	d.mu.Lock()
	procs := d.procs
	d.procs = nil
	d.mu.Unlock()
	for i := len(procs) - 1; i >= 0; i-- {
		_ = syscall.Kill(-procs[i].cmd.Process.Pid, syscall.SIGTERM)
	}
	deadline := time.After(2 * time.Second)
	for _, p := range procs {
		select {
		case <-p.done:
		case <-deadline:
		}
		// The group may hold children that outlived their parent.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	killStragglers(d.Root)
	if d.Root != "" {
		return os.RemoveAll(d.Root)
	}
	return nil
}
