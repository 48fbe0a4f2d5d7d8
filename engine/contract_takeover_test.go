package engine_test

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The contract test's section on acts in a takeover: real clicks and keys,
// the safety checks before each, and screenshots with secure fields black.

// hasCanaryPixels reports whether a PNG holds the mock's secure-field colour.
func hasCanaryPixels(t *testing.T, data []byte) bool {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == uint32(mock.CanaryColor.R) && g>>8 == uint32(mock.CanaryColor.G) && bl>>8 == uint32(mock.CanaryColor.B) {
				return true
			}
		}
	}
	return false
}

func testTakeoverActs(t *testing.T, h *harness) {
	st := h.start(map[string]any{"input": "takeover"})
	if st["input"] != "takeover" || st["takeover"].(map[string]any)["on"] != true {
		t.Fatalf("takeover: %v", st)
	}
	if h.desk.IndicatorState() != mock.IndicatorActive {
		t.Fatal("a takeover shows the indicator")
	}
	f := h.demo.Form
	win := uint64(f.Window.ID())
	read := h.readForm(nil)

	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Remember me"), "delivery_mode": "foreground"})
	if res["path"] != "xtest" || res["took_cursor"] != true {
		t.Fatalf("foreground click: %v", res)
	}
	for _, ev := range h.desk.Sent() {
		if ev.Button == 2 {
			t.Fatal("button 2 is never sent")
		}
	}
	h.ok("double_click", map[string]any{"window_id": win, "x": 5, "y": 5})
	h.ok("right_click", map[string]any{"window_id": win, "x": 5, "y": 5})
	h.ok("press_key", map[string]any{"window_id": win, "key": "Tab"})
	h.ok("hotkey", map[string]any{"window_id": win, "keys": []any{"Control_L", "a"}})
	h.ok("scroll", map[string]any{"window_id": win, "direction": "down", "amount": 2})
	h.ok("drag", map[string]any{"window_id": win, "from_x": 10, "from_y": 10, "to_x": 40, "to_y": 40})
	h.ok("bring_to_front", map[string]any{"window_id": win})
	h.ok("move_cursor", map[string]any{"window_id": win, "x": 30, "y": 30, "duration_ms": 50})
	h.ok("move_cursor", map[string]any{"window_id": win, "x": 1900, "y": 1000, "scope": "desktop"})
	read = h.readForm(nil)
	h.ok("type_text", map[string]any{"element_token": testkit.Token(t, read, "entry", "Email"), "text": "hi there", "delivery_mode": "foreground"})

	h.fail(engine.CodeInvalidArguments, "press_key", map[string]any{"window_id": win, "key": "NoSuchKey"})
	h.fail(engine.CodeInvalidArguments, "hotkey", map[string]any{"window_id": win, "keys": []any{}})
	h.fail(engine.CodeInvalidArguments, "scroll", map[string]any{"window_id": win})
	h.fail(engine.CodeInvalidArguments, "drag", map[string]any{"window_id": win, "from_x": 1, "from_y": 1})
	h.fail(engine.CodeInvalidArguments, "drag", map[string]any{"window_id": win, "from_x": 1, "from_y": 1, "to_x": 5000, "to_y": 5})
	h.fail(engine.CodeInvalidArguments, "move_cursor", map[string]any{"window_id": win, "x": 5000, "y": 5})
	h.fail(engine.CodeInvalidArguments, "click", map[string]any{"window_id": win, "x": 5000, "y": 5})

	// Occlusion: the editor covers part of the form once it overlaps.
	ed := h.demo.Editor.Window
	ed.SetFrame(engine.Rect{X: 0, Y: 0, W: 300, H: 300})
	ed.Raise()
	h.fail(engine.CodeOccluded, "click", map[string]any{"window_id": win, "x": 50, "y": 50})
	ed.SetFrame(engine.Rect{X: 680, Y: 20, W: 800, H: 560})

	// Focus elsewhere: keys refused with focus_changed, nothing typed.
	h.demo.ChatMain.Focus()
	sent := len(h.desk.Sent())
	e := h.fail(engine.CodeFocusChanged, "type_text", map[string]any{"window_id": win, "text": "abc", "delivery_mode": "foreground"})
	if testkit.Int(t, e, "typed_characters") != 0 || len(h.desk.Sent()) != sent {
		t.Fatalf("focus_changed before typing sends nothing: %v", e)
	}

	// The person moves the pointer: paused, every act refused, reads work.
	h.demo.Form.Window.Focus()
	h.desk.MovePointer(engine.Point{X: 900, Y: 900})
	h.desk.WaitInput(30 * time.Second)
	e = h.fail(engine.CodeUserTookOver, "click", map[string]any{"window_id": win, "x": 5, "y": 5})
	if e["effect"] != "refused" || e["paused_reason"] != "pointer_moved" {
		t.Fatalf("paused refusal: %v", e)
	}
	h.readForm(nil)
	h.d.TakeoverResume("")

	// Switching to headless ends the takeover and removes the indicator.
	st = h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "headless"})
	if st["takeover"].(map[string]any)["on"] != false || h.desk.IndicatorState() != mock.IndicatorNone {
		t.Fatalf("headless must end the takeover: %v", st)
	}

	// Asked for takeover but the line left unticked: stays headless.
	h.desk.SetConsent(mock.AllowAppsOnly)
	st = h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
	tk := st["takeover"].(map[string]any)
	if st["input"] != "headless" || tk["on"] != false || tk["reason"] == nil {
		t.Fatalf("an unticked takeover line stays headless with a reason: %v", st)
	}

	// No indicator, no takeover.
	h.desk.SetConsent(mock.AllowAll)
	h.desk.FailIndicator(true)
	st = h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "takeover"})
	if st["input"] != "headless" {
		t.Fatalf("without an indicator there is no takeover: %v", st)
	}
}
