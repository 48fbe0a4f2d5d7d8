package engine_test

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestScreenshotOnlyWhereSecureFieldsAreKnown: a screenshot is sent only
// when every secure field of the window is known, and then with each one
// black. A read the zoom budget cut is searched again within a larger
// bound; a sheet read by its visible block needs no search; a window too
// big for the search, or one that reads as its frame (the driver cannot see
// into its content), is refused with unsupported, never invalid_arguments.
func TestScreenshotOnlyWhereSecureFieldsAreKnown(t *testing.T) {
	const budget = 100 // the zoom budget here; the search reads ten times it
	frame := engine.Rect{X: 50, Y: 50, W: 800, H: 600}
	password := engine.Rect{X: 20, Y: 500, W: 200, H: 24}
	labels := func(root *mock.Element, n int) {
		for i := 0; i < n; i++ {
			root.Add("label", "row")
		}
	}
	tests := []struct {
		name     string
		setup    func(d *mock.Desktop) *mock.Window
		refused  engine.Code // "" when the screenshot is sent
		hint     string      // the refusal names this hint code
		blacked  int
		searched bool // the window's structure was read again
		cut      bool // the read says truncated
	}{
		{name: "a read within the budget", blacked: 1,
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "small", engine.ToolkitGTK, false, "small", frame)
				labels(w.Root(), 10)
				w.Root().Add("password_text", "Password").SetSecure(true).SetFrame(password)
				return w
			}},
		{name: "a read the budget cut, its password past the cut", blacked: 1, searched: true, cut: true,
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "big", engine.ToolkitGTK, false, "big", frame)
				labels(w.Root(), 3*budget)
				w.Root().Add("password_text", "Password").SetSecure(true).SetFrame(password)
				return w
			}},
		{name: "a window too big for the search", refused: engine.CodeUnsupported, searched: true, cut: true,
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "huge", engine.ToolkitGTK, false, "huge", frame)
				labels(w.Root(), 11*budget)
				w.Root().Add("password_text", "Password").SetSecure(true).SetFrame(password)
				return w
			}},
		{name: "a sheet read by its visible block", blacked: 1, cut: true,
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "soffice", engine.ToolkitLibreOffice, false, "sheet", frame)
				sheet := w.Root().Add("table", "Sheet1").SetTableSize(&engine.TableSize{
					Rows: 1048576, Columns: 16384, FirstRow: 1, LastRow: 2, FirstColumn: 1, LastColumn: 2})
				for _, name := range []string{"A1", "B1", "A2", "B2"} {
					sheet.Add("table_cell", name)
				}
				w.Root().Add("password_text", "Password").SetSecure(true).SetFrame(password)
				return w
			}},
		{name: "chromium without renderer accessibility", refused: engine.CodeUnsupported, hint: engine.HintChromiumRendererOff,
			setup: func(d *mock.Desktop) *mock.Window { return d.AddChromiumWithoutContent("page") }},
		{name: "an app off the bus with a password field", refused: engine.CodeUnsupported, hint: engine.HintNotOnBus,
			setup: func(d *mock.Desktop) *mock.Window {
				w := appWith(d, "xterm", "", true, "login", frame)
				w.Root().Add("password_text", "Password").SetSecure(true).SetFrame(password)
				return w
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil, func(o *engine.Options, _ *harness) {
				o.ZoomBudget = engine.Budget{MaxElements: budget, MaxDepth: 200}
			})
			w := tt.setup(h.desk)
			h.start(map[string]any{"apps": []any{w.App().Pid()}})
			h.desk.ResetCalls()
			res := h.call("get_window_state", map[string]any{"window_id": uint64(w.ID()), "include_screenshot": true})
			if res.Err != nil {
				t.Fatal(res.Text)
			}
			if got := len(h.desk.CallsOf("ReadStructure")) > 1; got != tt.searched {
				t.Fatalf("searched the window again: %v, want %v", got, tt.searched)
			}
			out := testkit.Decode(t, res.Structured)
			if out["truncated"] != tt.cut {
				t.Fatalf("truncated %v, want %v", out["truncated"], tt.cut)
			}
			shotErr, _ := out["screenshot_error"].(map[string]any)
			if tt.refused != "" {
				if res.Image != nil || out["screenshot"] != nil {
					t.Fatal("a screenshot was sent of a window whose secure fields are not all known")
				}
				if shotErr == nil || shotErr["code"] != string(tt.refused) {
					t.Fatalf("screenshot_error %v, want %s", shotErr, tt.refused)
				}
				if msg, _ := shotErr["message"].(string); tt.hint != "" && !strings.Contains(msg, tt.hint) {
					t.Fatalf("the refusal %q does not name hint %s", msg, tt.hint)
				}
				return
			}
			if shotErr != nil || res.Image == nil {
				t.Fatalf("no screenshot: %v", shotErr)
			}
			if got := testkit.Int(t, out["screenshot"].(map[string]any), "blacked_out"); got != tt.blacked {
				t.Fatalf("blacked out %d secure frames, want %d", got, tt.blacked)
			}
			if hasCanaryPixels(t, res.Image.Data) {
				t.Fatal("a secure field's pixels reached the screenshot")
			}
		})
	}
}

// TestObserveScreenshotFollowsTheReadsRules: an act's observation takes
// its screenshot under the same rule as a read: a window that reads as its
// frame gets none, and the act still succeeds.
func TestObserveScreenshotFollowsTheReadsRules(t *testing.T) {
	h := newHarness(t, nil)
	w := h.desk.AddChromiumWithoutContent("page")
	w.Root().Add("tool_bar", "").Add("push_button", "Back").SetActions("click")
	h.start(map[string]any{"apps": []any{w.App().Pid()}})
	read := h.ok("get_window_state", map[string]any{"window_id": uint64(w.ID())})
	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Back"),
		"observe": map[string]any{"screenshot": true}})
	obs := res["observe"].(map[string]any)
	refused, _ := obs["screenshot_error"].(map[string]any)
	if msg, _ := refused["message"].(string); obs["screenshot"] != nil || refused["code"] != string(engine.CodeUnsupported) || !strings.Contains(msg, engine.HintChromiumRendererOff) {
		t.Fatalf("observe of a window that reads as its frame: %v", obs)
	}
}
