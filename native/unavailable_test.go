package native

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native/xlib"
	"github.com/nish-driver/nish-driver/schema"
)

func TestUnavailableNamesTheFirstObstacle(t *testing.T) {
	tests := []struct {
		name        string
		facts       desktopFacts
		sessionType string
		x11, atspi  string
		accessMiss  bool
	}{
		{"no display, no bus", desktopFacts{}, "none", doctor.ReasonDisplayUnreachable, doctor.ReasonAtspiBusUnreachable, true},
		{"display set but silent", desktopFacts{Display: ":7", DisplayLocal: true, SessionBus: true}, "none", doctor.ReasonDisplayUnreachable, doctor.ReasonNotBuilt, false},
		{"remote display", desktopFacts{Display: "far:10.0", SessionBus: true}, "none", doctor.ReasonDisplayNotLocal, doctor.ReasonNotBuilt, false},
		{"wayland session", desktopFacts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, Wayland: true, SessionBus: true}, "wayland", doctor.ReasonWaylandSessionUnsupported, doctor.ReasonNotBuilt, false},
		{"reachable x11: only the build is missing", desktopFacts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true}, "x11", doctor.ReasonNotBuilt, doctor.ReasonNotBuilt, false},
		{"built, only DISPLAY missing", desktopFacts{SessionBus: true, Built: true}, "none", doctor.ReasonDisplayUnreachable, doctor.ReasonDisplayUnreachable, false},
		{"built, no display and no bus", desktopFacts{Built: true}, "none", doctor.ReasonDisplayUnreachable, doctor.ReasonAtspiBusUnreachable, true},
		{"built, a Wayland session", desktopFacts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, Wayland: true, SessionBus: true, Built: true}, "wayland", doctor.ReasonWaylandSessionUnsupported, doctor.ReasonWaylandSessionUnsupported, false},
		{"built, the Wayland compositor gone", desktopFacts{Display: ":0", DisplayLocal: true, Wayland: true, CompositorGone: true, SessionBus: true, Built: true, Lost: true, Cause: "the connection to X display :0 was lost"}, "wayland", doctor.ReasonDisplayUnreachable, doctor.ReasonDisplayUnreachable, false},
		{"built, the display answers but would not open", desktopFacts{Display: ":0", DisplayLocal: true, DisplayAnswers: true, SessionBus: true, Built: true, Cause: "xlib: cannot open display"}, "x11", doctor.ReasonDisplayUnreachable, doctor.ReasonDisplayUnreachable, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := unavailableRegistry(tt.facts)
			if reg.SessionType != tt.sessionType {
				t.Errorf("session type = %q, want %q", reg.SessionType, tt.sessionType)
			}
			got := map[string]engine.BackendEntry{}
			for _, b := range reg.Backends {
				got[b.ID] = b
			}
			if b := got["x11"]; b.Status != "unavailable" || !b.Required || b.ReasonCode != tt.x11 || b.Action == "" {
				t.Errorf("x11 = %+v, want unavailable %s", b, tt.x11)
			}
			if b := got["atspi"]; b.Status != "unavailable" || !b.Required || b.ReasonCode != tt.atspi || b.Action == "" {
				t.Errorf("atspi = %+v, want unavailable %s", b, tt.atspi)
			}
			missing := false
			for _, p := range reg.Permissions {
				if p.Name == "accessibility" && p.Status == "missing" {
					missing = true
				}
			}
			if missing != tt.accessMiss {
				t.Errorf("accessibility missing = %v, want %v", missing, tt.accessMiss)
			}
			for _, p := range reg.Probes {
				if p.Label == "native backend" && strings.Contains(p.Message, "not built") == tt.facts.Built {
					t.Errorf("native backend probe %q for a binary built: %v", p.Message, tt.facts.Built)
				}
				if p.Label == "native backend" && tt.facts.Cause != "" && !strings.Contains(p.Message, tt.facts.Cause) {
					t.Errorf("native backend probe %q drops the cause", p.Message)
				}
			}
			r := doctor.Build(reg)
			if r.Ready || r.OK {
				t.Error("a build without the native backend reported ready")
			}
			if len(r.Capabilities) != len(engine.CapabilityTable()) {
				t.Errorf("%d capabilities, want the table's %d", len(r.Capabilities), len(engine.CapabilityTable()))
			}
			for _, id := range unreported(reg) {
				t.Errorf("part %s of the capability table is not reported", id)
			}
			for _, c := range reg.Capabilities() {
				if c.Status == "available" {
					t.Errorf("capability %s available without a backend", c.Name)
				}
			}
			raw, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.ValidateDoctor(json.RawMessage(raw)); err != nil {
				t.Errorf("%v\n%s", err, raw)
			}
			if len(r.NextSteps) == 0 || !r.NextSteps[0].Required {
				t.Errorf("next steps = %+v, want a required first step", r.NextSteps)
			}
		})
	}
}

// Every desktop call of the unavailable backend fails with
// backend_unavailable, naming the obstacle and keeping the cause; the
// doctor's probe says whether the binary holds the live backend.
func TestUnavailableAnswersEveryCallWithItsCause(t *testing.T) {
	noEnv := Options{Getenv: func(string) string { return "" }}
	ctx := context.Background()
	calls := map[string]func(b *Unavailable) error{
		"Windows":             func(b *Unavailable) error { _, err := b.Windows(ctx); return err },
		"Process":             func(b *Unavailable) error { _, err := b.Process(ctx, 1); return err },
		"ReadTree":            func(b *Unavailable) error { _, err := b.ReadTree(ctx, 1, engine.Budget{}); return err },
		"ReadText":            func(b *Unavailable) error { _, _, err := b.ReadText(ctx, engine.ElementRef{}, 1); return err },
		"ReadValue":           func(b *Unavailable) error { _, err := b.ReadValue(ctx, engine.ElementRef{}, 0); return err },
		"DoAction":            func(b *Unavailable) error { return b.DoAction(ctx, engine.ElementRef{}, "click") },
		"InsertText":          func(b *Unavailable) error { _, err := b.InsertText(ctx, engine.ElementRef{}, "x"); return err },
		"SetText":             func(b *Unavailable) error { return b.SetText(ctx, engine.ElementRef{}, "x") },
		"SetNumber":           func(b *Unavailable) error { return b.SetNumber(ctx, engine.ElementRef{}, 1) },
		"Send":                func(b *Unavailable) error { return b.Send(ctx, engine.InputEvent{}) },
		"Pointer":             func(b *Unavailable) error { _, err := b.Pointer(ctx); return err },
		"FocusedWindow":       func(b *Unavailable) error { _, err := b.FocusedWindow(ctx); return err },
		"TopmostAt":           func(b *Unavailable) error { _, err := b.TopmostAt(ctx, engine.Point{}); return err },
		"Raise":               func(b *Unavailable) error { return b.Raise(ctx, 1) },
		"Capture":             func(b *Unavailable) error { _, err := b.Capture(ctx, 1); return err },
		"ClipboardRead":       func(b *Unavailable) error { _, err := b.ClipboardRead(ctx); return err },
		"ClipboardWrite":      func(b *Unavailable) error { _, err := b.ClipboardWrite(ctx, "x"); return err },
		"AskConsent":          func(b *Unavailable) error { _, err := b.AskConsent(ctx, engine.ConsentRequest{}); return err },
		"ShowIndicator":       func(b *Unavailable) error { _, err := b.ShowIndicator(ctx, false); return err },
		"WatchInput":          func(b *Unavailable) error { return b.WatchInput(ctx, func(engine.RawInput) {}) },
		"WindowsWithoutNames": func(b *Unavailable) error { _, err := b.WindowsWithoutNames(ctx); return err },
		"ReadStructure":       func(b *Unavailable) error { _, err := b.ReadStructure(ctx, 1, engine.Budget{}); return err },
		"ReadDetails":         func(b *Unavailable) error { return b.ReadDetails(ctx, 1, nil) },
		"ReadActions":         func(b *Unavailable) error { return b.ReadActions(ctx, 1, nil) },
		"ReadFrames":          func(b *Unavailable) error { return b.ReadFrames(ctx, 1, nil) },
		"ReadField":           func(b *Unavailable) error { _, err := b.ReadField(ctx, engine.ElementRef{}, 1); return err },
		"ReadTextAt":          func(b *Unavailable) error { _, err := b.ReadTextAt(ctx, engine.ElementRef{}, 0, 1); return err },
		"ReadDocumentText": func(b *Unavailable) error {
			_, _, err := b.ReadDocumentText(ctx, engine.ElementRef{}, "", 1)
			return err
		},
		"MarkChanges": func(b *Unavailable) error { _, err := b.MarkChanges(ctx, 1); return err },
		"WaitQuiet": func(b *Unavailable) error {
			_, _, _, err := b.WaitQuiet(ctx, 1, 0, time.Millisecond, time.Millisecond)
			return err
		},
		"Refresh":             func(b *Unavailable) error { return b.Refresh(ctx, nil) },
		"WaitChange":          func(b *Unavailable) error { _, err := b.WaitChange(ctx, 1, 0, time.Millisecond); return err },
		"ReadSubtree":         func(b *Unavailable) error { _, err := b.ReadSubtree(ctx, 1, "", engine.Budget{}); return err },
		"EnableAccessibility": func(b *Unavailable) error { _, err := b.EnableAccessibility(ctx); return err },
		"WindowAccessibility": func(b *Unavailable) error { _, err := b.WindowAccessibility(ctx, 1); return err },
		"ScrollIntoView":      func(b *Unavailable) error { return b.ScrollIntoView(ctx, engine.ElementRef{}, engine.ScrollHint{}) },
	}
	tests := []struct {
		name  string
		cause error
		probe string // in the native backend probe
	}{
		{"built, the display would not open", errors.New("xlib: cannot open display"), "could not start: xlib: cannot open display"},
		{"not built", xlib.ErrNotBuilt, "not built into this binary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewUnavailable(noEnv, tt.cause)
			defer b.Close()
			for name, call := range calls {
				err := call(b)
				var e *engine.Error
				if !errors.As(err, &e) || e.Code != engine.CodeBackendUnavailable || !errors.Is(err, tt.cause) ||
					!strings.Contains(err.Error(), doctor.ReasonDisplayUnreachable) {
					t.Errorf("%s: %v, want backend_unavailable naming display_unreachable and keeping the cause", name, err)
				}
			}
			if b.HasKey("a") {
				t.Error("HasKey is true without a keyboard")
			}
			if _, ok := b.CurrentMark(1); ok {
				t.Error("CurrentMark says it hears an app")
			}
			if _, complete := b.ChangesSince(1, 0); complete {
				t.Error("ChangesSince says its list is complete")
			}
			found := false
			for _, p := range b.Registry(ctx).Probes {
				if p.Label == "native backend" {
					found = strings.Contains(p.Message, tt.probe)
				}
			}
			if !found {
				t.Errorf("no native backend probe saying %q", tt.probe)
			}
		})
	}
}
