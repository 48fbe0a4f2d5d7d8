package native_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native"
	"github.com/nish-driver/nish-driver/schema"
)

// noCanary fails when the password canary appears in a result.
func noCanary(t *testing.T, what string, r engine.Result) {
	t.Helper()
	b := testkit.JSON(t, r.Structured)
	if strings.Contains(b, testkit.PasswordCanary) || strings.Contains(r.Text, testkit.PasswordCanary) {
		t.Fatalf("%s: the password canary leaked", what)
	}
}

func TestConsentNeedsARealClick(t *testing.T) {
	onDesktop(t)
	startSynthetic(t, 5)
	cases := []struct {
		name   string
		answer func(p *person, h *harness)
		want   engine.Code // "" for allowed
		// timeout is the consent timeout: where the person's click ends
		// the dialog, a hang guard that a dialog slow to map on a loaded
		// machine still meets; where nothing the person does counts, what
		// the call waits out before its denial.
		timeout time.Duration
	}{
		{"allowed by a click", func(p *person, h *harness) { p.answer("allow") }, "", consentWait},
		{"denied by a click", func(p *person, h *harness) { p.answer("deny") }, engine.CodeConsentDenied, consentWait},
		{"ignored until the timeout", func(p *person, h *harness) {}, engine.CodeConsentDenied, time.Second},
		{"keys only", func(p *person, h *harness) { p.keys("Return", "space", "Tab", "Return") }, engine.CodeConsentDenied, 3 * time.Second},
		{"a click right after the driver's own press", func(p *person, h *harness) {
			go func() {
				d := p.dialog()
				// The driver presses (and releases) a button somewhere
				// harmless; the person's click on Allow within 1.5 s of
				// it does not count.
				ctx := context.Background()
				_ = h.b.Send(ctx, engine.InputEvent{Kind: engine.InputMotion, At: engine.Point{X: 1900, Y: 1070}})
				_ = h.b.Send(ctx, engine.InputEvent{Kind: engine.InputButtonPress, Button: 1})
				_ = h.b.Send(ctx, engine.InputEvent{Kind: engine.InputButtonRelease, Button: 1})
				p.click(d, "allow")
			}()
		}, engine.CodeConsentDenied, 3 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.timeout)
			p := newPerson(t)
			c.answer(p, h)
			r := h.call("start_session", map[string]any{"apps": []any{"synthetic.py"}})
			if c.want == "" {
				if r.Err != nil {
					t.Fatalf("want a session, got %s", r.Text)
				}
				return
			}
			if r.Err == nil || r.Err.Code != c.want {
				t.Fatalf("want %s, got %s", c.want, r.Text)
			}
		})
	}

	t.Run("an unticked app and the takeover line", func(t *testing.T) {
		h := newHarness(t, consentWait)
		p := newPerson(t)
		wg := p.answer("allow")
		st := h.ok("start_session", map[string]any{"apps": []any{"synthetic.py"}, "input": "takeover"})
		wg.Wait()
		// The takeover line left unticked: the session is granted, headless,
		// and says why there is no takeover; no indicator is shown.
		tk := st["takeover"].(map[string]any)
		if st["input"] != "headless" || tk["on"] != false || tk["indicator"] != false || tk["reason"] != "not_granted" {
			t.Fatalf("an unticked takeover line: %v", st)
		}
	})
}

// grant starts a session on apps, with the person allowing.
func grant(t testing.TB, h *harness, apps ...any) map[string]any {
	t.Helper()
	waitListed(t, h, apps...)
	p := newPerson(t)
	wg := p.answer("allow")
	st := h.ok("start_session", map[string]any{"apps": apps})
	wg.Wait()
	return st
}

// waitListed waits, as a model would, until h's own driver lists a window
// of each app (a pid or an app name, as start_session takes them). An app
// just started and busy (Writer laying its document out, on a Wayland
// session where the windows are the bus's) may not answer a listing in
// time: a session asked for it then is app_not_responding
// (docs/contract.md#window-targets), which a model retries. Another
// driver's listing (waitWindowShown's) does not say this one has seen it.
func waitListed(t testing.TB, h *harness, apps ...any) {
	t.Helper()
	testkit.Eventually(t, 60*time.Second, fmt.Sprintf("h's driver lists a window of each of %v", apps), func() bool {
		wins := testkit.Field[[]any](t, h.ok("list_windows", nil), "windows")
		for _, app := range apps {
			if !slices.ContainsFunc(wins, func(w any) bool { return listedAs(w, app) }) {
				return false
			}
		}
		return true
	})
}

// listedAs reports whether a list_windows row is a window of app (a pid,
// or an app name matched as start_session matches it).
func listedAs(row, app any) bool {
	w, _ := row.(map[string]any)
	if name, ok := app.(string); ok {
		listed, _ := w["app"].(string)
		return strings.EqualFold(listed, name)
	}
	return fmt.Sprint(w["pid"]) == fmt.Sprint(app) // a pid of any integer type; JSON's is a float64
}

func TestReadsOfTheSyntheticWindow(t *testing.T) {
	onDesktop(t)
	startSynthetic(t, 200)
	h := newHarness(t, consentWait)

	lw := h.ok("list_windows", nil)
	for _, w := range lw["windows"].([]any) {
		if _, has := w.(map[string]any)["title"]; has {
			t.Fatal("no titles before a session")
		}
	}
	grant(t, h, "synthetic.py")

	r := h.call("get_window_state", map[string]any{"app": "Synthetic 200", "max_elements": 5000})
	if r.Err != nil {
		t.Fatal(r.Text)
	}
	noCanary(t, "full read", r)
	if err := schema.ValidateOutput("get_window_state", r.Structured); err != nil {
		t.Fatal(err)
	}
	full := testkit.Decode(t, r.Structured)
	n := int(full["element_count"].(float64))
	if n < 1000 || full["truncated"] != false {
		t.Fatalf("a 200-row window has over 1,000 elements, read whole: %d truncated=%v", n, full["truncated"])
	}
	text := full["tree_text"].(string)
	if !strings.HasPrefix(text, full["snapshot_id"].(string)+" window=") {
		t.Fatalf("tree_text header: %q", strings.SplitN(text, "\n", 2)[0])
	}
	var pw map[string]any
	for _, e := range full["elements"].([]any) {
		row := e.(map[string]any)
		if row["secure"] == true {
			pw = row
		}
	}
	if pw == nil {
		t.Fatal("the password entry is a secure row")
	}

	skel := h.ok("get_window_state", map[string]any{"app": "Synthetic 200", "skeleton": true})
	if len(testkit.JSON(t, skel)) > len(testkit.JSON(t, full))*15/100 {
		t.Fatalf("skeleton %d bytes vs full %d", len(testkit.JSON(t, skel)), len(testkit.JSON(t, full)))
	}
	// Drill down into the first skeleton container below the window.
	rows := skel["elements"].([]any)
	if len(rows) < 2 {
		t.Fatalf("skeleton rows: %s", skel["tree_text"])
	}
	root := rows[1].(map[string]any)["element_token"].(string)
	region := h.ok("get_window_state", map[string]any{"root": root})
	if region["root"] != root || int(region["element_count"].(float64)) < 2 {
		t.Fatalf("drill-down: %v", region["tree_text"])
	}

	shot := h.call("get_window_state", map[string]any{"app": "Synthetic 200", "include_screenshot": true})
	if shot.Err != nil || shot.Image == nil {
		t.Fatalf("screenshot: %s", shot.Text)
	}
	img, err := png.Decode(bytes.NewReader(shot.Image.Data))
	if err != nil {
		t.Fatal(err)
	}
	f := pw["frame"].(map[string]any)
	x, y := int(f["x"].(float64))+int(f["w"].(float64))/2, int(f["y"].(float64))+int(f["h"].(float64))/2
	if r, g, b, _ := img.At(x, y).RGBA(); r != 0 || g != 0 || b != 0 {
		t.Fatalf("the password field's pixels are not blacked out at %d,%d", x, y)
	}

	h.ok("health_report", nil)
	rep := doctor.Build(h.b.Registry(context.Background()))
	if !rep.Ready {
		t.Fatalf("the test desktop is ready: %+v", rep.NextSteps)
	}
	if err := schema.ValidateDoctor(rep); err != nil {
		t.Fatal(err)
	}
}

func TestAmbiguousTargetsOnRealWindows(t *testing.T) {
	onDesktop(t)
	startSynthetic(t, 3)
	startSynthetic(t, 4)
	h := newHarness(t, consentWait)
	grant(t, h, "synthetic.py")
	e := h.fail(engine.CodeAmbiguousTarget, "get_window_state", map[string]any{"app": "Synthetic"})
	if c := e["candidates"].([]any); len(c) != 2 {
		t.Fatalf("candidates: %v", c)
	}
	h.fail(engine.CodeAmbiguousWindowTarget, "get_window_state", nil)
	h.ok("get_window_state", map[string]any{"app": "Synthetic 4 rows"})
}

func TestRealApps(t *testing.T) {
	onDesktop(t)
	apps := []struct {
		name, bus string
		argv      []string
	}{
		{"gtk3-widget-factory", "gtk3-widget-factory", []string{"gtk3-widget-factory"}},
		{"gtk3-demo", "gtk3-demo", []string{"gtk3-demo"}},
		{"mousepad", "mousepad", []string{"mousepad"}},
		{"gedit", "gedit", []string{"gedit"}},
		{"gnome-calculator (GTK4)", "gnome-calculator", []string{"gnome-calculator"}},
		{"zenity --password", "zenity", []string{"zenity", "--password"}},
	}
	// All started first and granted in one session: the person allows
	// them in one dialog.
	started := make([]*app, len(apps))
	pids := make([]any, len(apps))
	for i, a := range apps {
		started[i] = startApp(t, a.bus, a.argv...)
		pids[i] = started[i].cmd.Process.Pid
	}
	h := newHarness(t, consentWait)
	grant(t, h, pids...)
	for i, a := range apps {
		ap := started[i]
		t.Run(a.name, func(t *testing.T) {
			r := h.call("get_window_state", map[string]any{"pid": ap.cmd.Process.Pid, "max_elements": 5000})
			if r.Err != nil {
				t.Fatal(r.Text)
			}
			full := testkit.Decode(t, r.Structured)
			if n := int(full["element_count"].(float64)); n < 5 {
				t.Fatalf("%d elements:\n%s", n, full["tree_text"])
			}
			if err := schema.ValidateOutput("get_window_state", r.Structured); err != nil {
				t.Fatal(err)
			}
			// The subtest's own t: the session's harness belongs to the
			// parent test, whose FailNow a subtest may not call.
			must := func(tool string, args map[string]any) map[string]any {
				t.Helper()
				r := h.call(tool, args)
				if r.Err != nil {
					t.Fatalf("%s: %s", tool, r.Text)
				}
				return testkit.Decode(t, r.Structured)
			}
			skel := must("get_window_state", map[string]any{"pid": ap.cmd.Process.Pid, "skeleton": true})
			if rows := skel["elements"].([]any); len(rows) > 1 {
				root := rows[1].(map[string]any)["element_token"].(string)
				must("get_window_state", map[string]any{"root": root})
			}
			shot := h.call("get_window_state", map[string]any{"pid": ap.cmd.Process.Pid, "include_screenshot": true})
			if shot.Err != nil || shot.Image == nil {
				t.Fatalf("screenshot: %s", shot.Text)
			}
			must("health_report", nil)
		})
	}
}

func TestFaults(t *testing.T) {
	onDesktop(t)
	stopped := startSynthetic(t, 20)
	other := startSynthetic(t, 10)
	h := newHarness(t, consentWait)
	grant(t, h, stopped.cmd.Process.Pid, other.cmd.Process.Pid)
	h.ok("get_window_state", map[string]any{"pid": stopped.cmd.Process.Pid})

	_ = syscall.Kill(stopped.cmd.Process.Pid, syscall.SIGSTOP)
	h.fail(engine.CodeAppNotResponding, "get_window_state", map[string]any{"pid": stopped.cmd.Process.Pid})
	h.ok("get_window_state", map[string]any{"pid": other.cmd.Process.Pid})
	_ = syscall.Kill(stopped.cmd.Process.Pid, syscall.SIGCONT)
	h.ok("get_window_state", map[string]any{"pid": stopped.cmd.Process.Pid})

	_ = other.cmd.Process.Kill()
	// The sandbox reaps its children; wait until the pid is gone.
	testkit.Poll(10*time.Second, func() bool { return syscall.Kill(other.cmd.Process.Pid, 0) != nil })
	r := h.call("get_window_state", map[string]any{"pid": other.cmd.Process.Pid})
	if r.Err == nil || (r.Err.Code != engine.CodeWindowGone && r.Err.Code != engine.CodeWindowTargetNotFound) {
		t.Fatalf("a killed app: %s", r.Text)
	}
}

// TestNoGoroutineLeak opens and closes the backend around reads, a stopped
// app and a killed one: the goroutines it started all end.
func TestNoGoroutineLeak(t *testing.T) {
	aloneOnDesktop(t)
	a := startSynthetic(t, 5)
	base := runtime.NumGoroutine()
	for i := 0; i < 3; i++ {
		b, err := native.Open(backendOptions(t))
		if err != nil {
			t.Fatal(err)
		}
		// A short call bound: the stopped app's read gives up sooner,
		// through the same path as at the default bound.
		d := engine.New(engine.Options{Backend: b, ConsentTimeout: consentWait, CallTimeout: time.Second})
		c := d.Connect(engine.ClientInfo{Name: "leak", Pid: os.Getpid()})
		raw, _ := json.Marshal(map[string]any{"apps": []any{a.cmd.Process.Pid}})
		p := newPerson(t)
		wait := p.answer("allow")
		if r := c.Call(context.Background(), "start_session", raw); r.Err != nil {
			t.Fatal(r.Text)
		}
		wait.Wait()
		raw, _ = json.Marshal(map[string]any{"pid": a.cmd.Process.Pid})
		if r := c.Call(context.Background(), "get_window_state", raw); r.Err != nil {
			t.Fatal(r.Text)
		}
		_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGSTOP)
		_ = c.Call(context.Background(), "get_window_state", raw) // app_not_responding
		_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGCONT)
		c.Close()
		d.Shutdown()
		b.Close()
		_ = p.p.Close()
	}
	testkit.Poll(10*time.Second, func() bool { return runtime.NumGoroutine() <= base+2 })
	if n := runtime.NumGoroutine(); n > base+2 {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after closing, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
