package mock

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// send sends events or fails the test.
func send(t *testing.T, d *Desktop, evs ...engine.InputEvent) {
	t.Helper()
	for _, ev := range evs {
		if err := d.Send(testCtx(t), ev); err != nil {
			t.Fatalf("Send %+v: %v", ev, err)
		}
	}
}

func click(at engine.Point) []engine.InputEvent {
	return []engine.InputEvent{
		{Kind: engine.InputMotion, At: at},
		{Kind: engine.InputButtonPress, Button: 1},
		{Kind: engine.InputButtonRelease, Button: 1},
	}
}

func key(name string, char rune) []engine.InputEvent {
	return []engine.InputEvent{
		{Kind: engine.InputKeyPress, Key: name, Char: char},
		{Kind: engine.InputKeyRelease, Key: name, Char: char},
	}
}

func TestMotionMovesThePointer(t *testing.T) {
	d := New()
	ctx := testCtx(t)
	if p, _ := d.Pointer(ctx); p != Screen.Center() {
		t.Fatalf("pointer starts at %+v", p)
	}
	send(t, d, engine.InputEvent{Kind: engine.InputMotion, At: engine.Point{X: 30, Y: 40}})
	if p, _ := d.Pointer(ctx); p != (engine.Point{X: 30, Y: 40}) {
		t.Fatalf("pointer %+v", p)
	}
	send(t, d, engine.InputEvent{Kind: engine.InputMotion, At: engine.Point{X: -5, Y: 5000}})
	if p := d.PointerAt(); p != (engine.Point{X: 0, Y: Screen.H - 1}) {
		t.Fatalf("pointer not clamped: %+v", p)
	}
	if len(d.Sent()) != 2 {
		t.Errorf("sent %d", len(d.Sent()))
	}
}

func TestClickPerformsThePrimaryAction(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	send(t, d, click(f.Remember.Frame().Center())...)
	if !f.Remember.HasState("checked") || !f.Remember.HasState("focused") {
		t.Errorf("states after a click: %v", f.Remember.States())
	}
	if f.Name.HasState("focused") {
		t.Error("two focused elements")
	}
	// Press on one element, release on another: nothing.
	send(t, d,
		engine.InputEvent{Kind: engine.InputMotion, At: f.DarkMode.Frame().Center()},
		engine.InputEvent{Kind: engine.InputButtonPress, Button: 1},
		engine.InputEvent{Kind: engine.InputMotion, At: f.Hint.Frame().Center()},
		engine.InputEvent{Kind: engine.InputButtonRelease, Button: 1})
	if f.DarkMode.HasState("checked") {
		t.Error("a dragged-off click acted")
	}
	// Right button: no action.
	send(t, d,
		engine.InputEvent{Kind: engine.InputMotion, At: f.DarkMode.Frame().Center()},
		engine.InputEvent{Kind: engine.InputButtonPress, Button: 3},
		engine.InputEvent{Kind: engine.InputButtonRelease, Button: 3})
	if f.DarkMode.HasState("checked") {
		t.Error("a right click acted")
	}
}

func TestClickFocusesTheWindowUnderThePointer(t *testing.T) {
	d := NewDemo()
	ed := d.Demo().Editor
	ctx := testCtx(t)
	send(t, d, click(ed.Document.Frame().Center())...)
	if f, _ := d.FocusedWindow(ctx); f != ed.Window.ID() {
		t.Errorf("focused %d, want %d", f, ed.Window.ID())
	}
}

func TestTypingGoesToTheFocusedField(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	f.Email.SetValue("")
	send(t, d, click(f.Email.Frame().Center())...)
	var evs []engine.InputEvent
	evs = append(evs, key("h", 0)...)
	evs = append(evs, key("i", 0)...)
	evs = append(evs, key("space", 0)...)
	evs = append(evs, engine.InputEvent{Kind: engine.InputKeyPress, Key: "Shift_L"})
	evs = append(evs, key("a", 0)...)
	evs = append(evs, key("1", 0)...)
	evs = append(evs, engine.InputEvent{Kind: engine.InputKeyRelease, Key: "Shift_L"})
	evs = append(evs, key("", 'é')...)
	evs = append(evs, key("x", 0)...)
	evs = append(evs, key("BackSpace", 0)...)
	evs = append(evs, key("period", 0)...)
	send(t, d, evs...)
	if got := f.Email.Value(); got != "hi A!é." {
		t.Errorf("typed %q", got)
	}
	// Ctrl+a is a shortcut, not typing.
	send(t, d, engine.InputEvent{Kind: engine.InputKeyPress, Key: "Control_L"})
	send(t, d, key("a", 0)...)
	send(t, d, engine.InputEvent{Kind: engine.InputKeyRelease, Key: "Control_L"})
	if got := f.Email.Value(); got != "hi A!é." {
		t.Errorf("after a shortcut %q", got)
	}
}

func TestKeysInMultiLineText(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	f.Notes.SetValue("ab")
	f.Notes.Focus()
	send(t, d, key("Left", 0)...)
	send(t, d, key("Return", 0)...)
	send(t, d, key("Tab", 0)...)
	send(t, d, key("Home", 0)...)
	send(t, d, key("Delete", 0)...)
	if got := f.Notes.Value(); got != "\n\tb" {
		t.Errorf("text %q", got)
	}
}

func TestKeysGoNowhereWithoutFocus(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	d.Demo().Editor.Window.Focus()
	send(t, d, key("z", 0)...)
	if f.Name.Value() != "Ada Lovelace" {
		t.Error("a key reached an unfocused window")
	}
	if v := d.Demo().Editor.Document.Value(); v[:1] != "z" {
		t.Errorf("the focused editor did not get the key: %q", v[:10])
	}
	d.SetFocus(nil)
	send(t, d, key("y", 0)...)
	if v := d.Demo().Editor.Document.Value(); v[:2] != "zM" {
		t.Errorf("a key reached a window without focus: %q", v[:10])
	}
}

func TestReturnOnAButtonActivatesIt(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	f.Remember.Focus()
	send(t, d, key("Return", 0)...)
	if !f.Remember.HasState("checked") {
		t.Error("Return did not activate")
	}
}

func TestHungAppGetsNoInput(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	d.Demo().FormApp.Hang()
	send(t, d, click(f.Remember.Frame().Center())...)
	send(t, d, key("q", 0)...)
	if f.Remember.HasState("checked") || f.Name.Value() != "Ada Lovelace" {
		t.Error("a hung app took input")
	}
}

func TestSendRefusesUnknownKeysAndKinds(t *testing.T) {
	d := New()
	ctx := testCtx(t)
	wantCode(t, "unknown key", d.Send(ctx, engine.InputEvent{Kind: engine.InputKeyPress, Key: "NoSuchKey"}), engine.CodeInvalidArguments)
	wantCode(t, "unknown kind", d.Send(ctx, engine.InputEvent{Kind: "teleport"}), engine.CodeInvalidArguments)
	if len(d.Sent()) != 0 {
		t.Error("refused events recorded as sent")
	}
}

func TestHasKey(t *testing.T) {
	d := New()
	for _, k := range []string{"a", "Z", "7", "Return", "Tab", "Escape", "BackSpace", "Delete", "Home", "End",
		"Page_Up", "Page_Down", "Left", "Right", "Up", "Down", "F1", "F12", "space", "Shift_L", "Control_R",
		"Alt_L", "Super_L", "comma", "minus"} {
		if !d.HasKey(k) {
			t.Errorf("HasKey(%q) false", k)
		}
	}
	for _, k := range []string{"", "F13", "return", "é", "ab", "."} {
		if d.HasKey(k) {
			t.Errorf("HasKey(%q) true", k)
		}
	}
}

func TestStackingFocusAndTopmost(t *testing.T) {
	d := New()
	a := d.AddApp("A", "/a")
	back := a.AddWindow("back", engine.Rect{X: 0, Y: 0, W: 200, H: 200})
	front := a.AddWindow("front", engine.Rect{X: 100, Y: 100, W: 200, H: 200})
	ctx := testCtx(t)
	cases := []struct {
		name string
		prep func()
		at   engine.Point
		want engine.WindowID
	}{
		{"overlap: newest on top", func() {}, engine.Point{X: 150, Y: 150}, front.ID()},
		{"only back", func() {}, engine.Point{X: 50, Y: 50}, back.ID()},
		{"nothing", func() {}, engine.Point{X: 1000, Y: 1000}, 0},
		{"raised back", func() { back.Raise() }, engine.Point{X: 150, Y: 150}, back.ID()},
		{"unmapped back", func() { back.SetOnScreen(false) }, engine.Point{X: 150, Y: 150}, front.ID()},
	}
	for _, c := range cases {
		c.prep()
		got, err := d.TopmostAt(ctx, c.at)
		if err != nil || got != c.want {
			t.Errorf("%s: %d %v, want %d", c.name, got, err, c.want)
		}
	}
	wins, _ := d.Windows(ctx)
	if len(wins) != 2 || wins[0].ID != back.ID() || wins[0].Stacking != 0 || wins[0].OnScreen || wins[1].Stacking != 1 {
		t.Errorf("windows %+v", wins)
	}
	if f, _ := d.FocusedWindow(ctx); f != front.ID() || !wins[1].Focused {
		t.Errorf("focus %d", f)
	}
	if err := d.Raise(ctx, back.ID()); err != nil {
		t.Fatal(err)
	}
	if f, _ := d.FocusedWindow(ctx); f != back.ID() {
		t.Errorf("Raise did not focus: %d", f)
	}
	if got, _ := d.TopmostAt(ctx, engine.Point{X: 150, Y: 150}); got != back.ID() {
		t.Errorf("Raise did not map and raise: %d", got)
	}
	wins, _ = d.Windows(ctx)
	if wins[0].App != "A" || wins[0].Title != "back" || wins[0].Pid != a.Pid() {
		t.Errorf("window row %+v", wins[0])
	}
}
