package native_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// statusProp reads a property of org.a11y.Status on the test desktop's
// session bus.
func statusProp(t *testing.T, name string) bool {
	t.Helper()
	conn := sessionConn(t)
	defer conn.Close()
	v, err := conn.Object("org.a11y.Bus", "/org/a11y/bus").GetProperty("org.a11y.Status." + name)
	if err != nil {
		t.Fatalf("org.a11y.Status %s: %v", name, err)
	}
	on, ok := v.Value().(bool)
	if !ok {
		t.Fatalf("org.a11y.Status %s is %v", name, v)
	}
	return on
}

// setIsEnabled sets the test desktop's accessibility switch, as another
// program on the desktop could.
func setIsEnabled(t *testing.T, on bool) {
	t.Helper()
	conn := sessionConn(t)
	defer conn.Close()
	if err := conn.Object("org.a11y.Bus", "/org/a11y/bus").SetProperty("org.a11y.Status.IsEnabled", dbus.MakeVariant(on)); err != nil {
		t.Fatalf("setting IsEnabled: %v", err)
	}
}

func sessionConn(t *testing.T) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(deskOf(t).Vars()["DBUS_SESSION_BUS_ADDRESS"])
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// A session's start turns the switch on (and leaves the screen reader's
// switch alone); the doctor reports the switch before and after.
func TestSessionStartTurnsAccessibilitySwitchOn(t *testing.T) {
	onDesktop(t)
	app := startSynthetic(t, 3)
	pid := app.cmd.Process.Pid
	setIsEnabled(t, false)
	reader := statusProp(t, "ScreenReaderEnabled")

	h := newHarness(t, consentWait)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if text := doctor.Text(doctor.Build(h.b.Registry(ctx))); !strings.Contains(text,
		"accessibility switch (org.a11y.Status IsEnabled): off — the driver turns it on when a session starts") {
		t.Errorf("the doctor does not say the switch is off:\n%s", text)
	}

	st := grant(t, h, pid)
	if st["accessibility_switch"] != engine.SwitchTurnedOn {
		t.Errorf("accessibility_switch = %v, want %s", st["accessibility_switch"], engine.SwitchTurnedOn)
	}
	if !statusProp(t, "IsEnabled") {
		t.Error("IsEnabled is still false after start_session")
	}
	if statusProp(t, "ScreenReaderEnabled") != reader {
		t.Error("ScreenReaderEnabled changed")
	}
	if text := doctor.Text(doctor.Build(h.b.Registry(ctx))); !strings.Contains(text, "accessibility switch (org.a11y.Status IsEnabled): on") {
		t.Errorf("the doctor does not say the switch is on:\n%s", text)
	}

	// A second start with the switch on leaves it be.
	st = h.ok("start_session", map[string]any{"apps": []any{pid}})
	if st["accessibility_switch"] != engine.SwitchOn {
		t.Errorf("second start: accessibility_switch = %v, want %s", st["accessibility_switch"], engine.SwitchOn)
	}
}

// Chromium started without --force-renderer-accessibility reads as its
// frame; the read says why and what fixes it, the doctor names the fix,
// and the browser lives on.
func TestChromiumWithoutRendererAccessibilityHint(t *testing.T) {
	onDesktop(t)
	page, err := filepath.Abs("testdata/plain_page.html")
	if err != nil {
		t.Fatal(err)
	}
	// A profile of its own, removed once the browser and its helpers are
	// gone (they may still write to it for a moment after the browser).
	profile, err := os.MkdirTemp("", "nish-chromium-profile-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := deskOf(t).Command("/usr/bin/chromium", "--no-sandbox", "--user-data-dir="+profile, "--no-first-run",
		"--no-default-browser-check", "--disable-gpu", "--password-store=basic", "file://"+page)
	cmd.Env = append(cmd.Env, "ACCESSIBILITY_ENABLED=1")
	if err := deskOf(t).Start(cmd); err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_, _ = deskOf(t).Stop(cmd, 10*time.Second)
		}
		removeEventually(profile)
	})
	pid := cmd.Process.Pid
	if _, err := deskOf(t).WaitForApp(context.Background(), "Chromium", 60*time.Second); err != nil {
		t.Fatal(err)
	}

	h := newHarness(t, consentWait)
	win := waitForWindow(t, h, pid, "Plain page")

	grant(t, h, pid)
	read := h.ok("get_window_state", map[string]any{"window_id": uint64(win.ID)})
	hint, _ := read["accessibility_hint"].(map[string]any)
	// The message is the hint's fixed text (engine/hint.go), which names
	// the switch that fixes it.
	if msg, _ := hint["message"].(string); hint == nil || hint["code"] != engine.HintChromiumRendererOff || !strings.Contains(msg, "--force-renderer-accessibility") {
		t.Fatalf("hint %v\n%s", hint, read["tree_text"])
	}
	// Its page may hold a password field no read holds: no screenshot,
	// and the refusal names the hint.
	shot := h.call("get_window_state", map[string]any{"window_id": uint64(win.ID), "include_screenshot": true})
	refused, _ := asMap(t, shot.Structured)["screenshot_error"].(map[string]any)
	if msg, _ := refused["message"].(string); shot.Image != nil || refused["code"] != string(engine.CodeUnsupported) || !strings.Contains(msg, engine.HintChromiumRendererOff) {
		t.Fatalf("a screenshot of a window that reads as its frame: image %v, screenshot_error %v", shot.Image != nil, refused)
	}
	rows := read["elements"].([]any)
	if len(rows) == 0 || rows[0].(map[string]any)["role"] != "frame" {
		t.Errorf("the read does not start with the frame:\n%s", read["tree_text"])
	}
	if !strings.Contains(hint["message"].(string), "--force-renderer-accessibility") {
		t.Errorf("the hint does not name the switch: %s", hint["message"])
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	info, err := h.b.WindowAccessibility(ctx, win.ID)
	if err != nil || !info.OnBus || info.Toolkit != engine.ToolkitChromium {
		t.Errorf("WindowAccessibility = %+v, %v", info, err)
	}
	text := doctor.Text(doctor.Build(h.b.Registry(ctx)))
	if !strings.Contains(text, `app "Chromium" (pid `+strconv.Itoa(pid)+`) reads as its window frame only [`+engine.HintChromiumRendererOff+`]`) ||
		!strings.Contains(text, "--force-renderer-accessibility") {
		t.Errorf("the doctor does not name the fix:\n%s", text)
	}

	if !alive(pid) {
		t.Fatal("Chromium died during the test")
	}
	// Stop fails for a program that had already exited.
	stopped = true
	if _, err := deskOf(t).Stop(cmd, 10*time.Second); err != nil {
		t.Errorf("Chromium at the end of the test: %v", err)
	}
}

// removeEventually removes a folder that exiting processes may still be
// writing to, trying again while they finish.
func removeEventually(dir string) {
	testkit.Poll(30*time.Second, func() bool { return os.RemoveAll(dir) == nil })
}

// An X app that is not on the accessibility bus reads as its X frame with
// the hint that says so, and the doctor lists it.
func TestAppOffTheBusHint(t *testing.T) {
	onDesktop(t)
	cmd := deskOf(t).Command("xmessage", "-title", "Off the bus", "not on the accessibility bus")
	if err := deskOf(t).Start(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	pid := cmd.Process.Pid

	h := newHarness(t, consentWait)
	win := waitForWindow(t, h, pid, "Off the bus")
	grant(t, h, pid)
	read := h.ok("get_window_state", map[string]any{"window_id": uint64(win.ID)})
	hint, _ := read["accessibility_hint"].(map[string]any)
	if hint == nil || hint["code"] != engine.HintNotOnBus {
		t.Fatalf("hint %v\n%s", hint, read["tree_text"])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	text := doctor.Text(doctor.Build(h.b.Registry(ctx)))
	if !strings.Contains(text, "(pid "+strconv.Itoa(pid)+") reads as its window frame only ["+engine.HintNotOnBus+"]") {
		t.Errorf("the doctor does not list the app:\n%s", text)
	}
}

// waitForWindow waits until pid shows a window whose title holds title.
func waitForWindow(t testing.TB, h *harness, pid int, title string) engine.Window {
	t.Helper()
	return testkit.Await(t, 60*time.Second, fmt.Sprintf("a window of pid %d titled %q", pid, title), func() (engine.Window, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		wins, err := h.b.WindowsWithoutNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wins {
			if w.Pid == pid && strings.Contains(w.Title, title) {
				return w, nil
			}
		}
		return engine.Window{}, errNotYet
	})
}

// alive reports whether a process is running (not gone, not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z'
}
