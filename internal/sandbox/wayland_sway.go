package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// The sway lane stands for the wlroots desktops: sway on wlroots' headless
// backend (WLR_BACKENDS=headless), drawn in software (WLR_RENDERER=pixman,
// no GPU), with no input devices opened (WLR_LIBINPUT_NO_DEVICES=1; the
// seat's keyboard is a virtual one, sway_keyboard.go). Its config, written
// into the desktop's folder, gives it one output of the screen's size, no
// bar, and Xwayland started at once ("force"): "enable" starts it on the
// first X11 client only, and the AT-SPI bus is published on Xwayland's
// root before any app starts. Its session is what a sway session tells its
// apps: XDG_CURRENT_DESKTOP=sway and SWAYSOCK, the IPC socket swaymsg
// speaks to. Xwayland there takes no Xauthority: wlroots starts it
// without one, so it admits local connections.
//
// Sway refuses to run as root (it checks that it cannot get root back
// after dropping it). Where the desktop's owner is root, as in the test
// containers, sway runs in a user namespace of its own in which that user
// is an ordinary one; outside, its files and sockets are still root's.

// swayEnv is what puts sway on its headless backend.
var swayEnv = []string{"WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1"}

// swayConfig is sway's config for a screen of size ("1280x800"): the
// headless backend's output is HEADLESS-1.
func swayConfig(size string) string {
	return "output HEADLESS-1 resolution " + size + "\n" +
		"xwayland force\n" +
		"default_border none\n"
}

// startSway writes sway's config, starts it and waits until it names its
// Wayland socket and Xwayland's display, and Xwayland's window manager
// (sway's) answers.
func (d *Desktop) startSway(ctx context.Context) error {
	conf := filepath.Join(d.Root, "sway.conf")
	if err := os.WriteFile(conf, []byte(swayConfig(monitorSize(d.opts.Screen))), 0o600); err != nil {
		return err
	}
	// Sway listens where SWAYSOCK says when nothing is there yet.
	d.vars["SWAYSOCK"] = filepath.Join(d.vars["XDG_RUNTIME_DIR"], "sway-ipc.sock")
	cmd := exec.Command("sway", "--verbose", "--config", conf)
	cmd.Env = append(d.Env(), swayEnv...)
	cmd.Stdout = d.opts.Log
	cmd.SysProcAttr = swayAttrs(os.Geteuid())
	errOut, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := d.startCmd(cmd); err != nil {
		return err
	}
	found, err := d.readStartLog(ctx, errOut, "sway", swaySocket, swayXwayland)
	if err != nil {
		return err
	}
	d.Wayland, d.Display = found[0], found[1]
	d.vars["WAYLAND_DISPLAY"] = d.Wayland
	d.vars["DISPLAY"] = d.Display
	if err := d.waitSocket(ctx, filepath.Base(d.vars["SWAYSOCK"])); err != nil {
		return err
	}
	return d.waitWindowManager(ctx)
}

// swayAttrs are sway's process attributes: a child's, and for root a user
// namespace in which root is uid 1000, so sway's check that it cannot get
// root back holds.
func swayAttrs(euid int) *syscall.SysProcAttr {
	a := childAttrs()
	if euid == 0 {
		a.Cloneflags = syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 1000, HostID: 0, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 1000, HostID: 0, Size: 1}}
	}
	return a
}

// swaySocket finds the socket's name in sway's line "Running compositor
// on wayland display 'wayland-1'".
func swaySocket(line string) (string, bool) {
	const mark = "Running compositor on wayland display '"
	i := strings.Index(line, mark)
	if i < 0 {
		return "", false
	}
	name, _, ok := strings.Cut(line[i+len(mark):], "'")
	return name, ok && name != ""
}

// swayXwayland finds the display in wlroots' line "Starting Xwayland on
// :0".
func swayXwayland(line string) (string, bool) {
	const mark = "Starting Xwayland on "
	i := strings.Index(line, mark)
	if i < 0 {
		return "", false
	}
	n := strings.TrimSpace(line[i+len(mark):])
	return n, strings.HasPrefix(n, ":") && len(n) > 1
}

// waitWindowManager waits until Xwayland answers with a window manager on
// its root: wlroots names the display before Xwayland has started.
func (d *Desktop) waitWindowManager(ctx context.Context) error {
	if err := d.waitRootProperty(ctx, "_NET_SUPPORTING_WM_CHECK", "window id"); err != nil {
		return fmt.Errorf("sandbox: Xwayland on %s did not answer with a window manager: %w", d.Display, err)
	}
	return nil
}
