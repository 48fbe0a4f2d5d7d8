package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// windowSpaceDesktop is the mock desktop as a Wayland session shows it to
// the driver: no window's place on screen is known, so each window is its
// size at 0,0 and its elements' frames are relative to its top-left.
type windowSpaceDesktop struct{ *mock.Desktop }

func inWindowSpace(ws []engine.Window, err error) ([]engine.Window, error) {
	for i := range ws {
		ws[i].FrameSpace = engine.WindowSpace
		ws[i].Frame.X, ws[i].Frame.Y = 0, 0
	}
	return ws, err
}

func (d windowSpaceDesktop) Windows(ctx context.Context) ([]engine.Window, error) {
	return inWindowSpace(d.Desktop.Windows(ctx))
}

func (d windowSpaceDesktop) WindowsWithoutNames(ctx context.Context) ([]engine.Window, error) {
	return inWindowSpace(d.Desktop.WindowsWithoutNames(ctx))
}

// Reads, finds and waits say when their frames are window-relative, and
// give them as the backend reports them; list_windows leaves out the
// frame and stacking it does not know. On screen coordinates nothing
// changes: no coordinates field, the frame and stacking listed. Every
// result is held to its output schema (harness.check).
func TestFrameCoordinates(t *testing.T) {
	for _, tc := range []struct {
		name   string
		wrap   bool
		coords any // the results' "coordinates"; nil: left out
	}{
		{name: "screen", coords: nil},
		{name: "window", wrap: true, coords: "window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []harnessOption
			if tc.wrap {
				opts = append(opts, withBackend(func(d *mock.Desktop) engine.Backend { return windowSpaceDesktop{d} }))
			}
			h := newHarness(t, nil, opts...)
			form := h.demo.Form.Window
			form.SetFrame(engine.Rect{X: 0, Y: 0, W: 640, H: 480}) // element root frames = window-relative ones
			h.start(nil)
			win := uint64(form.ID())

			lw := h.ok("list_windows", nil)
			var row map[string]any
			for _, w := range lw["windows"].([]any) {
				if r := w.(map[string]any); r["window_id"] == float64(win) {
					row = r
				}
			}
			if row == nil {
				t.Fatalf("the form's window is not listed: %v", lw)
			}
			_, hasFrame := row["frame"]
			_, hasStacking := row["stacking"]
			if hasFrame != !tc.wrap || hasStacking != !tc.wrap || row["focused"] == nil {
				t.Fatalf("list_windows row: %v", row)
			}
			if line := lw["windows"]; tc.wrap && strings.Contains(testkit.JSON(t, line), `"x":`) {
				t.Fatalf("a window-space window is listed with a place: %v", line)
			}

			read := h.readForm(map[string]any{"max_elements": 500})
			if read["coordinates"] != tc.coords {
				t.Fatalf("get_window_state coordinates = %v, want %v", read["coordinates"], tc.coords)
			}
			btn := rowLabelled(t, read, "push_button", "Save")
			find := h.ok("find_elements", map[string]any{"window_id": win, "role": "push_button", "label": "Save"})
			if find["coordinates"] != tc.coords || len(find["elements"].([]any)) != 1 {
				t.Fatalf("find_elements: %v", find)
			}
			if got := find["elements"].([]any)[0].(map[string]any)["frame"]; testkit.JSON(t, got) != testkit.JSON(t, btn["frame"]) {
				t.Fatalf("find's frame %v, read's %v", got, btn["frame"])
			}
			fr := btn["frame"].(map[string]any)
			if fr["w"].(float64) <= 0 || fr["x"].(float64) < 0 || fr["x"].(float64) >= 640 {
				t.Fatalf("the button's frame is not inside the window's: %v", fr)
			}
			wait := h.ok("wait_for", map[string]any{"window_id": win, "condition": map[string]any{"kind": "appears", "role": "push_button", "label": "Save"}})
			if wait["met"] != true || wait["coordinates"] != tc.coords {
				t.Fatalf("wait_for: %v", wait)
			}
		})
	}
}

// rowLabelled is the first row of a read with role whose label holds label.
func rowLabelled(t *testing.T, read map[string]any, role, label string) map[string]any {
	t.Helper()
	for _, e := range read["elements"].([]any) {
		r := e.(map[string]any)
		if r["role"] == role && strings.Contains(r["label"].(string), label) {
			return r
		}
	}
	t.Fatalf("no %s %q in the read:\n%s", role, label, read["tree_text"])
	return nil
}
