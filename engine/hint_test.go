package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Starting a session turns the desktop's accessibility switch on and says
// what it found; a switch that does not answer never fails the session.
func TestStartSessionTurnsAccessibilityOn(t *testing.T) {
	tests := []struct {
		name     string
		on       bool
		broken   bool
		want     string
		wantOnAt bool // the switch is on afterwards
	}{
		{name: "off is turned on", want: engine.SwitchTurnedOn, wantOnAt: true},
		{name: "on stays on", on: true, want: engine.SwitchOn, wantOnAt: true},
		{name: "no answer is reported", broken: true, want: engine.SwitchUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.desk.SetAccessibilitySwitch(tt.on)
			h.desk.BreakAccessibilitySwitch(tt.broken)
			st := h.start(nil)
			if st["accessibility_switch"] != tt.want {
				t.Errorf("accessibility_switch = %v, want %s", st["accessibility_switch"], tt.want)
			}
			if got := h.desk.AccessibilitySwitch(); got != tt.wantOnAt {
				t.Errorf("switch on afterwards = %v, want %v", got, tt.wantOnAt)
			}
			if n := len(h.desk.CallsOf("EnableAccessibility")); n != 1 {
				t.Errorf("%d EnableAccessibility calls, want 1", n)
			}
			if st["active"] != true {
				t.Errorf("the session did not start: %v", st)
			}
		})
	}
}

// A read that shows only a frame, or a Chromium-family window without web
// content, carries the driver's fixed hint; a read with content carries
// none and costs no extra call.
func TestWindowStateAccessibilityHint(t *testing.T) {
	frame := engine.Rect{X: 50, Y: 50, W: 800, H: 600}
	tests := []struct {
		name  string
		setup func(d *mock.Desktop) *mock.Window
		want  string // hint code; "" none
	}{
		{name: "chromium without renderer accessibility", want: engine.HintChromiumRendererOff,
			setup: func(d *mock.Desktop) *mock.Window { return d.AddChromiumWithoutContent(titleCanary) }},
		{name: "chromium with a few chrome rows and no page", want: engine.HintChromiumRendererOff,
			setup: func(d *mock.Desktop) *mock.Window {
				w := d.AddChromiumWithoutContent(titleCanary)
				bar := w.Root().Add("tool_bar", "")
				bar.Add("push_button", "Back")
				bar.Add("entry", "Address and search bar")
				return w
			}},
		{name: "chromium with a page", want: "",
			setup: func(d *mock.Desktop) *mock.Window {
				w := d.AddChromiumWithoutContent(titleCanary)
				w.Root().Add("document_web", "page").Add("push_button", "Press")
				return w
			}},
		{name: "chromium showing a big non-web dialog", want: "",
			setup: func(d *mock.Desktop) *mock.Window {
				w := d.AddChromiumWithoutContent(titleCanary)
				list := w.Root().Add("list", "files")
				for i := 0; i < 60; i++ {
					list.Add("list_item", "file")
				}
				return w
			}},
		{name: "firefox with accessibility off", want: engine.HintGeckoOff,
			setup: func(d *mock.Desktop) *mock.Window {
				return appWith(d, "Firefox", engine.ToolkitGecko, false, titleCanary, frame)
			}},
		{name: "qt app off the bus", want: engine.HintQtOff,
			setup: func(d *mock.Desktop) *mock.Window {
				return appWith(d, "keepassxc", engine.ToolkitQt, true, titleCanary, frame)
			}},
		{name: "libreoffice with a frame only", want: engine.HintLibreOfficeOff,
			setup: func(d *mock.Desktop) *mock.Window {
				return appWith(d, "soffice", engine.ToolkitLibreOffice, false, titleCanary, frame)
			}},
		{name: "unknown app off the bus", want: engine.HintNotOnBus,
			setup: func(d *mock.Desktop) *mock.Window { return appWith(d, "xterm", "", true, titleCanary, frame) }},
		{name: "gtk app off the bus even with widgets", want: engine.HintNotOnBus,
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "gedit", engine.ToolkitGTK, true, titleCanary, frame)
				w.Root().Add("push_button", "Open")
				return w
			}},
		{name: "gtk app on the bus with a frame only", want: engine.HintTreeEmpty,
			setup: func(d *mock.Desktop) *mock.Window {
				return appWith(d, "canvas", engine.ToolkitGTK, false, titleCanary, frame)
			}},
		{name: "gtk app with widgets", want: "",
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "gedit", engine.ToolkitGTK, false, titleCanary, frame)
				w.Root().Add("push_button", "Open")
				return w
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			w := tt.setup(h.desk)
			h.start(map[string]any{"apps": []any{w.App().Pid()}})
			// A find on the same window says the same: a model told "no
			// match" must learn why the window reads empty.
			for tool, args := range map[string]map[string]any{
				"get_window_state": {"window_id": uint64(w.ID())},
				"find_elements":    {"window_id": uint64(w.ID()), "label": "open"},
			} {
				h.desk.ResetCalls()
				res := h.call(tool, args)
				if res.Err != nil {
					t.Fatal(res.Text)
				}
				checkHint(t, h, res, tt.want)
			}
		})
	}
}

// titleCanary is the title of the windows the hint tests read: it must
// never reach a hint.
const titleCanary = "TITLE-CANARY-4711"

// checkHint checks a read's or a find's hint: want's code with its fixed
// message in the result and the text block, and one question to the
// backend; none when want is "".
func checkHint(t *testing.T, h *harness, res engine.Result, want string) {
	t.Helper()
	read := testkit.Decode(t, res.Structured)
	hint, _ := read["accessibility_hint"].(map[string]any)
	if want == "" {
		if hint != nil || strings.Contains(res.Text, "accessibility hint") {
			t.Fatalf("unexpected hint %v", hint)
		}
		return
	}
	if hint == nil || hint["code"] != want {
		t.Fatalf("hint %v, want %s\n%s", hint, want, res.Text)
	}
	msg, _ := hint["message"].(string)
	if msg == "" || msg != engine.HintMessage(want) {
		t.Errorf("message is not the fixed text of %s: %q", want, msg)
	}
	if strings.Contains(msg, titleCanary) || !strings.Contains(res.Text, want+": "+msg) {
		t.Errorf("text block:\n%s", res.Text)
	}
	if n := len(h.desk.CallsOf("WindowAccessibility")); n != 1 {
		t.Errorf("%d WindowAccessibility calls, want 1", n)
	}
}

// A read with content asks the backend nothing about accessibility.
func TestWindowStateWithContentAsksNoHint(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	h.desk.ResetCalls()
	read := h.readForm(nil)
	if read["accessibility_hint"] != nil {
		t.Fatalf("hint on the demo form: %v", read["accessibility_hint"])
	}
	if n := len(h.desk.CallsOf("WindowAccessibility")); n != 0 {
		t.Errorf("%d WindowAccessibility calls for a read with content", n)
	}
}

// The doctor names the accessibility switch and each running app whose
// window reads as its frame, with the fix for its toolkit, the app's name
// escaped and outside the fix.
func TestDoctorListsEmptyTrees(t *testing.T) {
	d := mock.New()
	d.AddChromiumWithoutContent("page")
	appWith(d, "Bad\nName\u202e", engine.ToolkitQt, true, "w", engine.Rect{W: 100, H: 100})
	form := appWith(d, "gedit", engine.ToolkitGTK, false, "w", engine.Rect{W: 100, H: 100})
	form.Root().Add("push_button", "Open")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	report := doctor.Build(d.Registry(ctx))
	text := doctor.Text(report)
	var empty []engine.Probe
	for _, p := range report.Probes {
		if p.Label == "empty accessibility tree" {
			empty = append(empty, engine.Probe{Label: p.Label, Status: p.Status, Message: p.Message})
		}
	}
	if len(empty) != 2 {
		t.Fatalf("empty-tree lines %+v", empty)
	}
	for i, want := range []struct{ name, code string }{
		{`"Chromium"`, engine.HintChromiumRendererOff},
		{`"Bad\\nName\\u202e"`, engine.HintQtOff},
	} {
		m := empty[i].Message
		if !strings.Contains(m, "app "+want.name+" (pid ") || !strings.HasSuffix(m, "["+want.code+"]. "+engine.HintMessage(want.code)) {
			t.Errorf("line %d: %q", i, m)
		}
	}
	for _, want := range []string{"--force-renderer-accessibility", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
		"accessibility switch (org.a11y.Status IsEnabled): off — the driver turns it on when a session starts"} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\u202e") || strings.Contains(text, "Bad\nName") {
		t.Errorf("an app name was not escaped:\n%s", text)
	}
}

// appWith starts an app with one window of the given toolkit, on or off
// the accessibility bus.
func appWith(d *mock.Desktop, name, toolkit string, offBus bool, title string, frame engine.Rect) *mock.Window {
	a := d.AddApp(name, "/usr/bin/"+strings.ToLower(strings.Fields(name)[0]))
	a.SetToolkit(toolkit)
	a.SetOffBus(offBus)
	return a.AddWindow(title, frame)
}
