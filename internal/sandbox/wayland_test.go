package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
)

// startWaylandDesk starts a headless Wayland desktop with the compositor
// for one test; it is closed when the test ends.
func startWaylandDesk(t *testing.T, c Compositor) *Desktop {
	t.Helper()
	d, err := Start(context.Background(), Options{Wayland: true, Compositor: c, Screen: "1280x800x24"})
	if err != nil {
		t.Fatalf("the %s Wayland sandbox needs its compositor and xwayland (make test installs them): %v", c, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// The two compositors, each as its session looks to an app.
var waylandLanes = []struct {
	compositor Compositor
	desktop    string   // XDG_CURRENT_DESKTOP
	sockets    []string // in the runtime folder, besides WAYLAND_DISPLAY's
	vars       []string // set, whatever their values
}{
	{Mutter, "GNOME", []string{"pipewire-0"}, []string{"XAUTHORITY"}},
	{Sway, "sway", []string{"sway-ipc.sock"}, []string{"SWAYSOCK"}},
}

func TestWaylandDesktopLooksLikeItsSession(t *testing.T) {
	for _, lane := range waylandLanes {
		t.Run(lane.compositor.String(), func(t *testing.T) {
			d := startWaylandDesk(t, lane.compositor)
			vars := d.Vars()
			want := map[string]string{
				"XDG_SESSION_TYPE":    "wayland",
				"XDG_CURRENT_DESKTOP": lane.desktop,
				"WAYLAND_DISPLAY":     d.Wayland,
				"DISPLAY":             d.Display,
			}
			for k, v := range want {
				if v == "" || vars[k] != v {
					t.Errorf("%s = %q, want %q", k, vars[k], v)
				}
			}
			for _, sock := range append([]string{d.Wayland}, lane.sockets...) {
				if fi, err := os.Stat(filepath.Join(vars["XDG_RUNTIME_DIR"], sock)); err != nil || fi.Mode()&os.ModeSocket == 0 {
					t.Errorf("the runtime folder has no socket %s: %v", sock, err)
				}
			}
			for _, k := range lane.vars {
				if vars[k] == "" {
					t.Errorf("%s is not set", k)
				}
			}
			// Xwayland answers on DISPLAY, is managed, and holds the
			// accessibility bus's address for Qt apps on it, as a
			// session's Xwayland does.
			out, err := d.Command("xprop", "-root", "_NET_SUPPORTING_WM_CHECK", "AT_SPI_BUS").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "window id") || !strings.Contains(string(out), "AT_SPI_BUS(STRING) = \"unix:") {
				t.Fatalf("xprop -root on Xwayland (the compositor manages it, the bus is published): %v %s", err, out)
			}
		})
	}
}

// Sway's own tools find it through the session's SWAYSOCK, and it runs
// one output of the screen's size.
func TestSwayDesktopAnswersSwaymsg(t *testing.T) {
	d := startWaylandDesk(t, Sway)
	out, err := d.Command("swaymsg", "-t", "get_outputs", "--raw").CombinedOutput()
	if err != nil {
		t.Fatalf("swaymsg: %v %s", err, out)
	}
	var outputs []struct {
		Name string
		Rect struct{ Width, Height int }
	}
	if err := json.Unmarshal(out, &outputs); err != nil {
		t.Fatalf("swaymsg's outputs: %v %s", err, out)
	}
	if len(outputs) != 1 || outputs[0].Rect.Width != 1280 || outputs[0].Rect.Height != 800 {
		t.Fatalf("sway's outputs are %+v, want one of 1280x800", outputs)
	}
}

// A GTK app on the Wayland desktop is a Wayland client: it is on the
// accessibility bus and has no window on Xwayland; the same app with
// UseX11 has one there.
func TestWaylandDesktopRunsWaylandAndXwaylandApps(t *testing.T) {
	d := startWaylandDesk(t, Mutter)
	synthetic := testkit.Fixture(t, "synthetic.py")
	wlCmd := d.Command("/usr/bin/python3", synthetic, "3")
	xCmd := d.UseX11(d.Command("/usr/bin/python3", synthetic, "4"))
	wl, x := startCapturing(t, d, wlCmd), startCapturing(t, d, xCmd)
	for _, out := range []*testkit.SyncBuffer{wl, x} {
		testkit.Eventually(t, 20*time.Second, "the fixture says ready", func() bool { return strings.Contains(out.String(), "ready") })
	}
	tree, err := d.Command("xwininfo", "-root", "-tree").CombinedOutput()
	if err != nil {
		t.Fatalf("xwininfo on Xwayland: %v %s", err, tree)
	}
	if strings.Contains(string(tree), "Synthetic 3 rows") {
		t.Errorf("the Wayland app has a window on Xwayland:\n%s", tree)
	}
	if !strings.Contains(string(tree), "Synthetic 4 rows") {
		t.Errorf("the app started with UseX11 has no window on Xwayland:\n%s", tree)
	}
	for _, c := range []struct {
		cmd   *exec.Cmd
		title string
	}{{wlCmd, "Synthetic 3 rows"}, {xCmd, "Synthetic 4 rows"}} {
		walk, err := walkWindow(t, d, c.cmd.Process.Pid, c.title)
		if err != nil {
			t.Errorf("a pyatspi walk of %q: %v", c.title, err)
			continue
		}
		if !slices.ContainsFunc(walk, func(e pyref.Element) bool { return e.Role == "push_button" && e.Name == "Click me" }) {
			t.Errorf("a pyatspi walk of %q (%d elements) has no push button Click me", c.title, len(walk))
		}
	}
}

// walkWindow is the pyatspi walk (walk.py) of the window of pid whose
// title starts with title on d, within a minute.
func walkWindow(t *testing.T, d *Desktop, pid int, title string) ([]pyref.Element, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return pyref.Walk(ctx, d.Env(), testkit.Fixture(t, "walk.py"), pid, title)
}

// The seat has a keyboard, as a person's does: the newest Wayland window
// gets the focus and its frame says active on the accessibility bus.
func TestWaylandDesktopFocusesTheNewestWindow(t *testing.T) {
	for _, lane := range waylandLanes {
		t.Run(lane.compositor.String(), func(t *testing.T) {
			focusesTheNewestWindow(t, startWaylandDesk(t, lane.compositor))
		})
	}
}

func focusesTheNewestWindow(t *testing.T, d *Desktop) {
	synthetic := testkit.Fixture(t, "synthetic.py")
	cmd := d.Command("/usr/bin/python3", synthetic, "2")
	out := startCapturing(t, d, cmd)
	testkit.Eventually(t, 20*time.Second, "the fixture says ready", func() bool { return strings.Contains(out.String(), "ready") })
	// The probe runs as a reference script does (pyref.Run): bounded, its
	// process group killed at the bound, so a bus call that never returns
	// fails this check instead of holding the package.
	probe := filepath.Join(t.TempDir(), "active.py")
	src := fmt.Sprintf(`import sys; sys.path.insert(0, %q)
import pyatspi
from busapps import find_frame
f = find_frame(%d, "Synthetic")
print("active" if f is not None and f.getState().contains(pyatspi.STATE_ACTIVE) else "not active")`,
		filepath.Dir(synthetic), cmd.Process.Pid)
	if err := os.WriteFile(probe, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "the window is active", func() bool {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		got, err := pyref.Run(ctx, d.Env(), probe)
		if err != nil {
			t.Logf("the focus probe: %v", err)
		}
		return strings.TrimSpace(string(got)) == "active"
	})
}

func TestSwayLogLines(t *testing.T) {
	tests := []struct {
		line, socket, display string
	}{
		{"00:00:00.023 [INFO] [sway/server.c:302] Running compositor on wayland display 'wayland-1'", "wayland-1", ""},
		{"00:00:00.024 [INFO] [wlr] [xwayland/server.c:92] Starting Xwayland on :12", "", ":12"},
		{"00:00:00.011 [INFO] [sway/commands.c:378] Config command: xwayland force", "", ""},
	}
	for _, tt := range tests {
		s, _ := swaySocket(tt.line)
		x, _ := swayXwayland(tt.line)
		if s != tt.socket || x != tt.display {
			t.Errorf("%q: socket %q display %q, want %q %q", tt.line, s, x, tt.socket, tt.display)
		}
	}
}
