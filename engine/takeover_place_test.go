package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
)

// The indicator's label and Continue go where the driver works: on the
// monitor of the session's topmost window when the takeover starts, then
// on the monitor of each press (engine.IndicatorPlacer).
func TestTakeoverPlacesTheIndicatorWhereTheDriverWorks(t *testing.T) {
	for _, c := range []struct {
		name  string
		apps  []any
		first func(dm *mock.Demo) engine.Rect
	}{
		{"one app: its window", []any{"Editor"}, func(dm *mock.Demo) engine.Rect { return dm.Editor.Window.Frame() }},
		{"the form app: its window", []any{"Form Demo"}, func(dm *mock.Demo) engine.Rect { return dm.Form.Window.Frame() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, withHost())
			h.host.policy.ApproveReads = false
			h.start(map[string]any{"input": "takeover", "apps": c.apps})
			if h.desk.IndicatorState() != mock.IndicatorActive {
				t.Fatal("takeover needs its indicator")
			}
			got := h.desk.IndicatorPlacements()
			if want := c.first(h.demo); len(got) != 1 || got[0] != want {
				t.Fatalf("placements at the start %+v, want the app's window %+v", got, want)
			}
		})
	}

	t.Run("a press moves it to the pressed point", func(t *testing.T) {
		h := takeoverHarness(t)
		f := h.demo.Form.Window.Frame()
		n := len(h.desk.IndicatorPlacements())
		h.ok("click", map[string]any{"window_id": uint64(h.demo.Form.Window.ID()), "x": 30, "y": 40})
		got := h.desk.IndicatorPlacements()[n:]
		want := engine.Rect{X: f.X + 30, Y: f.Y + 40, W: 1, H: 1}
		if len(got) != 1 || got[0] != want {
			t.Fatalf("placements for the click %+v, want one at %+v", got, want)
		}
	})
}
