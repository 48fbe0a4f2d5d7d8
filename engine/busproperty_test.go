package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The AT_SPI_BUS check compares the root window's property with the
// address org.a11y.Bus announces; its doctor line and the Qt hint say the
// same fixed fix, and nothing of the property's text reaches either.
func TestQtBusCheck(t *testing.T) {
	const bus = "unix:path=/tmp/a11y-bus,guid=1"
	tests := []struct {
		name        string
		prop        string
		set         bool
		announced   string
		want        string
		status      string
		hintNamesIt bool
	}{
		{name: "same address", prop: bus, set: true, announced: bus, want: engine.QtBusOK, status: "ok"},
		{name: "same with a trailing nul", prop: bus + "\x00", set: true, announced: bus, want: engine.QtBusOK, status: "ok"},
		{name: "no property", announced: bus, want: engine.QtBusMissing, status: "fail", hintNamesIt: true},
		{name: "empty property", prop: "", set: true, announced: bus, want: engine.QtBusMissing, status: "fail", hintNamesIt: true},
		{name: "another bus", prop: "unix:path=/elsewhere-CANARY", set: true, announced: bus, want: engine.QtBusMismatch, status: "fail", hintNamesIt: true},
		{name: "launcher silent", prop: bus, set: true, want: engine.QtBusUnknown, status: "skip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := engine.QtBusState(tt.prop, tt.set, tt.announced)
			if got != tt.want {
				t.Fatalf("state %q, want %q", got, tt.want)
			}
			p := engine.QtBusProbe(got)
			if p.Status != tt.status || p.Message == "" {
				t.Fatalf("probe %+v, want status %s", p, tt.status)
			}
			if strings.Contains(p.Message, "CANARY") || strings.Contains(p.Message, "/tmp") {
				t.Fatalf("the probe repeats the property: %q", p.Message)
			}
			h := engine.HintFor(engine.WindowAccessibility{Toolkit: engine.ToolkitQt, QtBus: got}, 1, false)
			if h == nil || h.Code != engine.HintQtOff {
				t.Fatalf("hint %+v, want %s", h, engine.HintQtOff)
			}
			if named := strings.Contains(h.Message, "AT_SPI_BUS"); named != tt.hintNamesIt {
				t.Fatalf("the hint names AT_SPI_BUS: %v, want %v: %s", named, tt.hintNamesIt, h.Message)
			}
			// An app on the bus needs no word about how it could have joined.
			if h := engine.HintFor(engine.WindowAccessibility{OnBus: true, Toolkit: engine.ToolkitQt, QtBus: got}, 1, false); strings.Contains(h.Message, "AT_SPI_BUS") {
				t.Fatalf("the hint of a Qt app on the bus names AT_SPI_BUS: %s", h.Message)
			}
		})
	}
}

// On the mock desktop: the doctor's AT_SPI_BUS line follows the check, and
// a read of a Qt app off the bus names the property only when the check
// fails.
func TestQtBusCheckOnTheMockDesktop(t *testing.T) {
	tests := []struct {
		state    string
		line     string
		hintSays bool
	}{
		{engine.QtBusOK, "[ok] accessibility bus for Qt apps (X root window AT_SPI_BUS): the X root window's AT_SPI_BUS names the accessibility bus", false},
		{engine.QtBusMissing, "[fail] accessibility bus for Qt apps (X root window AT_SPI_BUS): the X root window has no AT_SPI_BUS property.", true},
		{engine.QtBusMismatch, "[fail] accessibility bus for Qt apps (X root window AT_SPI_BUS): the X root window's AT_SPI_BUS names another bus", true},
	}
	for _, tt := range tests {
		t.Run(tt.state, func(t *testing.T) {
			h := newHarness(t, nil)
			h.desk.SetQtBus(tt.state)
			if text := doctor.Text(doctor.Build(h.desk.Registry(context.Background()))); !strings.Contains(text, tt.line) {
				t.Fatalf("the doctor's report lacks %q:\n%s", tt.line, text)
			}
			w := appWith(h.desk, "keepassxc", engine.ToolkitQt, true, "Vault", engine.Rect{W: 400, H: 300})
			h.start(map[string]any{"apps": []any{w.App().Pid()}})
			res := h.call("get_window_state", map[string]any{"window_id": uint64(w.ID())})
			if res.Err != nil {
				t.Fatal(res.Text)
			}
			hint, _ := testkit.Decode(t, res.Structured)["accessibility_hint"].(map[string]any)
			msg, _ := hint["message"].(string)
			if hint["code"] != engine.HintQtOff || strings.Contains(msg, "AT_SPI_BUS") != tt.hintSays {
				t.Fatalf("hint %v; want %s naming AT_SPI_BUS: %v", hint, engine.HintQtOff, tt.hintSays)
			}
		})
	}
}

// TestTheQtBusCheckIsAskedOnlyAboutAQtAppOffTheBus: the AT_SPI_BUS check
// runs for a Qt app that is not on the bus, the one case it can explain,
// and for no other app (engine.AccessibilityOf, which both backends use).
func TestTheQtBusCheckIsAskedOnlyAboutAQtAppOffTheBus(t *testing.T) {
	for _, c := range []struct {
		onBus   bool
		toolkit string
		asked   bool
	}{
		{false, engine.ToolkitQt, true},
		{true, engine.ToolkitQt, false},
		{false, engine.ToolkitChromium, false},
		{false, "", false},
	} {
		asked := 0
		info := engine.AccessibilityOf(c.onBus, c.toolkit, func() string { asked++; return engine.QtBusMissing })
		if (asked == 1) != c.asked || asked > 1 {
			t.Errorf("on the bus %v, toolkit %q: the check ran %d times", c.onBus, c.toolkit, asked)
		}
		want := ""
		if c.asked {
			want = engine.QtBusMissing
		}
		if info != (engine.WindowAccessibility{OnBus: c.onBus, Toolkit: c.toolkit, QtBus: want}) {
			t.Errorf("on the bus %v, toolkit %q: %+v", c.onBus, c.toolkit, info)
		}
	}
}
