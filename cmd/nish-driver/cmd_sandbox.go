package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// sandboxCmd runs a private virtual desktop (Xvfb, or with --wayland a
// headless mutter or sway, a session bus and the AT-SPI bus) with the given apps, prints the environment that reaches it,
// and keeps it up until Ctrl-C. The person's own screen is never touched.
// Apps start with their accessibility tree exposed (sandbox.AppCommand):
// an app that keeps its tree to itself is of no use on a desktop made for
// reading apps.
type sandboxCmd struct {
	Screen     string        `default:"1920x1080x24" help:"Xvfb screen geometry."`
	Wait       time.Duration `default:"20s" help:"How long to wait for each app to join the accessibility bus."`
	Apps       []string      `arg:"" optional:"" name:"app" help:"Programs to start; each argument is one command line, split on spaces (e.g. 'gtk3-demo --run=entry'). Every app runs with accessibility on: ACCESSIBILITY_ENABLED=1, GNOME_ACCESSIBILITY=1, QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 and SAL_ACCESSIBILITY_ENABLED=1 set and NO_AT_BRIDGE unset, and a Chromium or Electron program (chromium, chrome, electron, code, slack...) gets --force-renderer-accessibility unless its command line has it."`
	Verbose    bool          `help:"Pass the desktop processes' own messages through to stderr."`
	Wayland    bool          `help:"Start a headless Wayland desktop (with --compositor's compositor on an output of --screen's size, and Xwayland) in place of Xvfb; apps run as Wayland clients."`
	Compositor string        `default:"mutter" enum:"mutter,sway" help:"The --wayland desktop's compositor: mutter (a GNOME session, with PipeWire for screen casts) or sway (a wlroots session, SWAYSOCK set for swaymsg)."`
	// Browsers are started as the tests start them, so a demo or a person
	// trying the driver gets the same switches without copying them.
	Browsers []string `name:"browser" placeholder:"KIND=URL" help:"Open URL in a browser, chromium or firefox, started as the tests start it: a new profile in the sandbox's folder, a 1280x800 window at the top left, accessibility on. May be given more than once."`
}

func (c *sandboxCmd) Run(s *streams) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	comp, err := sandbox.ParseCompositor(c.Compositor)
	if err != nil {
		return err
	}
	opts := sandbox.Options{Screen: c.Screen, Wayland: c.Wayland, Compositor: comp}
	if c.Verbose {
		opts.Log = s.Stderr
	}
	d, err := sandbox.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer d.Close()
	for _, line := range c.Apps {
		argv := strings.Fields(line)
		if len(argv) == 0 {
			continue
		}
		cmd := d.AppCommand(argv)
		if c.Verbose {
			cmd.Stdout, cmd.Stderr = s.Stderr, s.Stderr
		}
		if err := d.Start(cmd); err != nil {
			return fmt.Errorf("starting %s: %w", argv[0], err)
		}
		fmt.Fprintf(s.Stderr, "sandbox: started %s (pid %d)\n", strings.Join(cmd.Args, " "), cmd.Process.Pid)
	}
	for _, spec := range c.Browsers {
		kind, url, err := parseBrowserSpec(spec)
		if err != nil {
			return err
		}
		cmd, err := d.BrowserCommand(kind, url)
		if err != nil {
			return err
		}
		if c.Verbose {
			cmd.Stdout, cmd.Stderr = s.Stderr, s.Stderr
		}
		if err := d.Start(cmd); err != nil {
			return fmt.Errorf("starting %s: %w", kind, err)
		}
		fmt.Fprintf(s.Stderr, "sandbox: started %s on %s (pid %d)\n", kind, url, cmd.Process.Pid)
	}
	if len(c.Apps)+len(c.Browsers) > 0 {
		c.waitForApps(ctx, d, s)
	}
	printEnv(s, d.Vars())
	fmt.Fprintln(s.Stderr, "sandbox: ready; Ctrl-C stops it and everything started in it")
	<-ctx.Done()
	fmt.Fprintln(s.Stderr, "sandbox: stopping")
	return nil
}

// parseBrowserSpec reads --browser's KIND=URL.
func parseBrowserSpec(spec string) (sandbox.Browser, string, error) {
	name, url, ok := strings.Cut(spec, "=")
	if ok && url != "" {
		for _, b := range []sandbox.Browser{sandbox.Chromium, sandbox.Firefox} {
			if strings.EqualFold(name, b.String()) {
				return b, url, nil
			}
		}
	}
	return 0, "", fmt.Errorf("--browser %q: want chromium=URL or firefox=URL", spec)
}

// waitForApps waits until as many apps as were started are on the AT-SPI
// bus (names differ from program names, so it counts), then lists them.
func (c *sandboxCmd) waitForApps(ctx context.Context, d *sandbox.Desktop, s *streams) {
	deadline := time.Now().Add(c.Wait)
	for {
		apps, err := d.AccessibleApps(ctx)
		if err == nil && countOwn(apps) >= len(c.Apps)+len(c.Browsers) || time.Now().After(deadline) || ctx.Err() != nil {
			for _, a := range apps {
				fmt.Fprintf(s.Stderr, "sandbox: accessible app %q (pid %d)\n", a.Name, a.Pid)
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				fmt.Fprintln(s.Stderr, "sandbox: the accessibility bus did not answer:", err)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// countOwn counts registered apps, leaving out the desktop portal helpers
// D-Bus starts on its own.
func countOwn(apps []sandbox.AccessibleApp) int {
	n := 0
	for _, a := range apps {
		if !strings.HasPrefix(a.Name, "xdg-desktop-portal") {
			n++
		}
	}
	return n
}

// printEnv prints shell lines that point a program at the sandbox.
func printEnv(s *streams, vars map[string]string) {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if vars[k] == "" {
			fmt.Fprintf(s.Stdout, "unset %s\n", k)
			continue
		}
		fmt.Fprintf(s.Stdout, "export %s=%q\n", k, vars[k])
	}
}
