package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"time"
)

// The Wayland lane: a headless Wayland desktop as a person's Wayland
// session looks to the driver, with one of two compositors. Mutter (the
// default) stands for GNOME: --headless with a virtual monitor, no GPU,
// PipeWire and WirePlumber for its screen casts. Sway (wayland_sway.go)
// stands for the wlroots desktops. Either runs Xwayland for the X11 apps
// and the consent dialog, on the same private session bus and AT-SPI bus
// as the X11 lane, and gives its seat a keyboard. Its environment is what
// the desktop's session gives its apps: XDG_SESSION_TYPE=wayland,
// XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY, and DISPLAY for Xwayland. Apps on
// it are Wayland clients (GTK picks Wayland by itself; Qt, Firefox and
// Chromium are told to); one started with UseX11 runs on Xwayland instead.
//
// The order matters: mutter aborts without a session bus, its screen casts
// start only once PipeWire runs, and the AT-SPI bus launcher publishes
// AT_SPI_BUS on Xwayland's root window, so it starts after the compositor.

// Compositor is the Wayland lane's compositor.
type Compositor int

const (
	// Mutter is GNOME's compositor, headless (the default).
	Mutter Compositor = iota
	// Sway is the wlroots compositor, on its headless backend.
	Sway
)

func (c Compositor) String() string {
	if c == Sway {
		return "sway"
	}
	return "mutter"
}

// ParseCompositor reads a compositor's name as String spells it.
func ParseCompositor(name string) (Compositor, error) {
	for _, c := range []Compositor{Mutter, Sway} {
		if strings.EqualFold(name, c.String()) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("sandbox: no compositor %q (mutter or sway)", name)
}

// waylandTools are the programs each compositor's lane runs, with the
// Debian package of each for the error that says one is missing.
var waylandTools = map[Compositor][][2]string{
	Mutter: {{"mutter", "mutter"}, {"Xwayland", "xwayland"}, {"pipewire", "pipewire"}, {"wireplumber", "wireplumber"}},
	Sway:   {{"sway", "sway"}, {"Xwayland", "xwayland"}},
}

// waylandVars are the variables that make each toolkit a Wayland client.
// GTK needs none (it prefers Wayland when WAYLAND_DISPLAY is set);
// Chromium takes a switch instead (AccessibleArgs).
var waylandVars = map[string]string{
	"XDG_SESSION_TYPE":   "wayland",
	"QT_QPA_PLATFORM":    "wayland",
	"MOZ_ENABLE_WAYLAND": "1",
}

// currentDesktop is XDG_CURRENT_DESKTOP as each compositor's session sets it.
var currentDesktop = map[Compositor]string{Mutter: "GNOME", Sway: "sway"}

// ozoneWayland makes a Chromium-family program a Wayland client.
const ozoneWayland = "--ozone-platform=wayland"

// checkWaylandTools fails with the missing program's package.
func checkWaylandTools(c Compositor) error {
	for _, t := range waylandTools[c] {
		if _, err := exec.LookPath(t[0]); err != nil {
			return fmt.Errorf("sandbox: %s is not installed (Debian: %s)", t[0], t[1])
		}
	}
	return nil
}

// startWayland starts the compositor on the session bus already started
// (with PipeWire and WirePlumber for mutter's screen casts) and records
// the compositor's and Xwayland's addresses.
func (d *Desktop) startWayland(ctx context.Context) error {
	for k, v := range waylandVars {
		d.vars[k] = v
	}
	d.vars["XDG_CURRENT_DESKTOP"] = currentDesktop[d.opts.Compositor]
	if d.opts.Compositor == Sway {
		return d.startSway(ctx)
	}
	if err := d.startQuiet("pipewire"); err != nil {
		return err
	}
	if err := d.waitSocket(ctx, "pipewire-0"); err != nil {
		return err
	}
	if err := d.startQuiet("wireplumber"); err != nil {
		return err
	}
	return d.startMutter(ctx)
}

// startMutter starts mutter headless on a virtual monitor of the
// desktop's screen size and waits until it has named its Wayland socket
// and Xwayland's display. Mutter picks the X display number itself, as
// Xvfb does in the X11 lane (two servers never share one).
func (d *Desktop) startMutter(ctx context.Context) error {
	d.Wayland = "wayland-" + filepath.Base(d.Root)
	args := mutterArgs(d.opts.Screen, d.Wayland)
	errOut, err := d.startReading(fromStderr, args[0], args[1:]...)
	if err != nil {
		return err
	}
	found, err := d.readStartLog(ctx, errOut, "mutter", publicDisplay)
	if err != nil {
		return err
	}
	display := found[0]
	if err := d.waitSocket(ctx, d.Wayland); err != nil {
		return err
	}
	auth, _ := filepath.Glob(filepath.Join(d.vars["XDG_RUNTIME_DIR"], ".mutter-Xwaylandauth.*"))
	if len(auth) == 0 {
		return errors.New("sandbox: mutter wrote no Xauthority file for Xwayland")
	}
	d.Display = display
	d.vars["DISPLAY"] = display
	d.vars["XAUTHORITY"] = auth[0]
	d.vars["WAYLAND_DISPLAY"] = d.Wayland
	return d.admitOwnUser(ctx)
}

// admitOwnUser lets this user's X clients reach Xwayland without its
// cookie. The desktop's apps find the cookie through XAUTHORITY, as a
// session's apps do; a test binary or a bench driving the desktop from its
// own process (the backend under test, the scripted person) has the
// caller's environment instead, and libX11 reads XAUTHORITY from the
// process's. Server-interpreted access for the local user admits exactly
// the connections of the user who owns the desktop.
func (d *Desktop) admitOwnUser(ctx context.Context) error {
	u, err := user.Current()
	if err != nil {
		return fmt.Errorf("sandbox: who runs the desktop: %w", err)
	}
	cmd := exec.CommandContext(ctx, "xhost", "+si:localuser:"+u.Username)
	cmd.Env = d.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sandbox: xhost on Xwayland (Debian: x11-xserver-utils): %v %s", err, out)
	}
	return nil
}

// mutterArgs is mutter's command line: headless, Wayland, one virtual
// monitor of the screen's size, on the given socket name.
func mutterArgs(screen, socket string) []string {
	return []string{"mutter", "--headless", "--wayland", "--virtual-monitor", monitorSize(screen), "--wayland-display=" + socket}
}

// monitorSize turns Xvfb's screen geometry ("1920x1080x24") into a
// monitor size ("1920x1080").
func monitorSize(screen string) string {
	parts := strings.Split(screen, "x")
	if len(parts) < 2 {
		return "1920x1080"
	}
	return parts[0] + "x" + parts[1]
}

// readStartLog reads a compositor's messages until each of marks has
// found its value in a line (Xwayland's display, the Wayland socket's
// name), passes every line on to the log, and returns the values in the
// order of marks.
func (d *Desktop) readStartLog(ctx context.Context, r io.Reader, who string, marks ...func(string) (string, bool)) ([]string, error) {
	got := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		vals, left := make([]string, len(marks)), len(marks)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(d.opts.Log, line)
			for i, m := range marks {
				if v, ok := m(line); ok && vals[i] == "" && left > 0 {
					vals[i] = v
					if left--; left == 0 {
						got <- vals
					}
				}
			}
		}
		if left > 0 {
			close(got)
		}
	}()
	select {
	case vals, ok := <-got:
		if !ok {
			return nil, fmt.Errorf("sandbox: %s exited before it started Xwayland (run with a log to see why)", who)
		}
		return vals, nil
	case <-time.After(d.opts.StartTimeout):
		return nil, fmt.Errorf("sandbox: %s did not start Xwayland in time", who)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// publicDisplay finds the display in mutter's line "Using public X11
// display :0, (using :1 for managed services)".
func publicDisplay(line string) (string, bool) {
	const mark = "Using public X11 display "
	i := strings.Index(line, mark)
	if i < 0 {
		return "", false
	}
	rest := line[i+len(mark):]
	if j := strings.IndexAny(rest, ", "); j >= 0 {
		rest = rest[:j]
	}
	return rest, strings.HasPrefix(rest, ":")
}

// waitSocket waits until the runtime folder holds a socket of that name.
func (d *Desktop) waitSocket(ctx context.Context, name string) error {
	path := filepath.Join(d.vars["XDG_RUNTIME_DIR"], name)
	deadline := time.Now().Add(d.opts.StartTimeout)
	for {
		if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sandbox: %s did not appear in time", path)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// UseX11 makes cmd, prepared by Command or AppCommand on a Wayland
// desktop, an X11 client of Xwayland: the toolkits' Wayland switches are
// taken out. On an X11 desktop it changes nothing.
func (d *Desktop) UseX11(cmd *exec.Cmd) *exec.Cmd {
	if d.Wayland == "" {
		return cmd
	}
	env := cmd.Env[:0:0]
	for _, kv := range cmd.Env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "WAYLAND_DISPLAY" || k == "QT_QPA_PLATFORM" || k == "MOZ_ENABLE_WAYLAND" || k == "GDK_BACKEND" {
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "GDK_BACKEND=x11", "QT_QPA_PLATFORM=xcb")
	args := cmd.Args[:0:0]
	for _, a := range cmd.Args {
		if a != ozoneWayland {
			args = append(args, a)
		}
	}
	cmd.Args = args
	return cmd
}

// xwaylandScripts holds the scripts a GNOME session runs once Xwayland is
// up. at-spi2-core's (00-at-spi) copies the accessibility bus's address
// onto Xwayland's root window (AT_SPI_BUS), where a Qt 5 app on Xwayland
// looks for it: without it such an app never joins the bus. A desktop
// activates the bus on demand, so the script finds it whenever it runs;
// here the bus starts after mutter, so the scripts run once it answers.
const xwaylandScripts = "/etc/xdg/Xwayland-session.d"

// runXwaylandScripts runs each script of xwaylandScripts on the desktop,
// in name order, as the session would.
func (d *Desktop) runXwaylandScripts(ctx context.Context) error {
	entries, err := os.ReadDir(xwaylandScripts)
	if err != nil {
		return fmt.Errorf("sandbox: %s: %w (Debian: at-spi2-core)", xwaylandScripts, err)
	}
	for _, e := range entries {
		cmd := exec.CommandContext(ctx, filepath.Join(xwaylandScripts, e.Name()))
		cmd.Env = d.Env()
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("sandbox: Xwayland's session script %s: %v: %s", e.Name(), err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}
