package doctor

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func TestText(t *testing.T) {
	tests := []struct {
		name    string
		report  Report
		want    []string
		notWant []string
	}{
		{
			name:    "ready",
			report:  Build(readyRegistry()),
			want:    []string{"doctor: READY", "session x11", "x11", "atspi", "wayland-portal", "available: read_tree", "unsupported: list_notifications", "Checks:\n  [ok] x11: available\n"},
			notWant: []string{"NOT READY", "Next steps", "compositor"},
		},
		{
			name: "a Wayland session names its compositor and Xwayland",
			report: func() Report {
				reg := readyRegistry()
				reg.SessionType = "wayland"
				reg.Desktop = engine.DesktopFacts{Compositor: engine.CompositorMutter, Xwayland: ":3"}
				return Build(reg)
			}(),
			want: []string{"session wayland", "compositor gnome-mutter, Xwayland :3"},
		},
		{
			name: "a Wayland session without Xwayland says so",
			report: func() Report {
				reg := readyRegistry()
				reg.SessionType = "wayland"
				reg.Desktop = engine.DesktopFacts{Compositor: engine.CompositorWlroots}
				return Build(reg)
			}(),
			want: []string{"compositor sway-wlroots, no Xwayland"},
		},
		{
			name:   "not ready",
			report: Build(downRegistry("none", ReasonDisplayUnreachable)),
			want: []string{"doctor: NOT READY", "session none", "display_unreachable", "atspi_bus_unreachable",
				"Next steps:", "1. " + Action(ReasonDisplayUnreachable) + " (required) [display_unreachable: x11]",
				"(required) [atspi_bus_unreachable: atspi, accessibility permission]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Text(tt.report)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("text lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("text has %q:\n%s", w, out)
				}
			}
		})
	}
}
