package native_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
)

// On a sway desktop (sandbox's Wayland lane with sway, wlroots' headless
// backend) the driver works as on GNOME's: the registry is ready for a
// wlroots session, the windows come from the accessibility bus, the
// consent dialog is clicked on sway's Xwayland, and a GTK 3 form and GTK
// 4's gnome-calculator, both Wayland clients, are read whole and acted on
// headless. There is no mutter screen cast there, so captures are
// unavailable (compositor_unsupported); a takeover is refused up front.
func TestSwayDesktopReadsAndActs(t *testing.T) {
	onSwayDesktop(t)
	waylandReady(t, engine.CompositorWlroots, doctor.ReasonCompositorUnsupported)
	form := startSynthetic(t, 6).cmd.Process.Pid
	calc := startApp(t, "gnome-calculator", "gnome-calculator").cmd.Process.Pid
	takeoverRefusedUpFront(t, form)

	h := newHarness(t, consentWait)
	p := newPerson(t)
	if x := xwaylandPids(t, p); x[form] || x[calc] {
		t.Fatalf("Xwayland holds a window of a Wayland app: pids %v", x)
	}
	wg := p.answer("allow")
	h.ok("start_session", map[string]any{"apps": []any{form, calc}})
	wg.Wait()

	first := listedOnce(t, h, form, calc)
	for pid, title := range map[int]string{form: "Synthetic 6 rows", calc: "Calculator"} {
		if first[pid].title != title {
			t.Fatalf("pid %d's title is %q, want %q", pid, first[pid].title, title)
		}
	}
	t.Run("form", func(t *testing.T) { waylandForm(t, h, form, first[form].id) })
	t.Run("gtk4", func(t *testing.T) { waylandCalculator(t, h, calc) })
}
