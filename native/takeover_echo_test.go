package native

import (
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// echoStep is one thing that happens to an echo log: the driver notes a
// press or a pointer target, or the watcher reports a raw event, which the
// log must translate into want (nil: dropped as the driver's own).
type echoStep struct {
	noteKey    *engine.InputEvent
	echo       xlib.KeyEcho
	noteMotion *engine.Point
	raw        *xlib.RawEvent
	want       *engine.RawInput
	after      time.Duration // how long after the previous step
}

func keyPress(key string, char rune) *engine.InputEvent {
	return &engine.InputEvent{Kind: engine.InputKeyPress, Key: key, Char: char}
}

func rawKey(keysym string) *xlib.RawEvent {
	return &xlib.RawEvent{Kind: xlib.RawKeyPress, Keysym: keysym}
}

func rawMotion(x, y int) *xlib.RawEvent {
	return &xlib.RawEvent{Kind: xlib.RawMotion, X: x, Y: y}
}

func engineKey(key string, char rune) *engine.RawInput {
	return &engine.RawInput{Kind: engine.InputKeyPress, Key: key, Char: char}
}

func engineMotion(x, y int) *engine.RawInput {
	return &engine.RawInput{Kind: engine.InputMotion, At: engine.Point{X: x, Y: y}}
}

func TestEchoLogTranslatesTheDriversOwnInputAndPassesThePersons(t *testing.T) {
	shifted := xlib.KeyEcho{Keysym: "a", Shift: "Shift_L"}
	cases := []struct {
		name  string
		steps []echoStep
	}{
		{"a capital letter: XTEST's Shift dropped, the key as logged", []echoStep{
			{noteKey: keyPress("A", 0), echo: shifted},
			{raw: rawKey("Shift_L")},
			{raw: rawKey("a"), want: engineKey("A", 0)},
		}},
		{"a person's Shift while the driver types a capital shows once", []echoStep{
			{noteKey: keyPress("A", 0), echo: shifted},
			{raw: rawKey("Shift_L")},                                // the driver's
			{raw: rawKey("Shift_L"), want: engineKey("Shift_L", 0)}, // the person's
			{raw: rawKey("a"), want: engineKey("A", 0)},
		}},
		{"a person's Shift between the driver's plain letters", []echoStep{
			{noteKey: keyPress("b", 0), echo: xlib.KeyEcho{Keysym: "b"}},
			{raw: rawKey("b"), want: engineKey("b", 0)},
			{raw: rawKey("Shift_L"), want: engineKey("Shift_L", 0)},
		}},
		{"a character on a spare keycode comes back under its keysym", []echoStep{
			{noteKey: keyPress("", 'ж'), echo: xlib.KeyEcho{Keysym: "U0436"}},
			{raw: rawKey("U0436"), want: engineKey("", 'ж')},
		}},
		{"the person's press of the key the driver just typed is not eaten", []echoStep{
			{noteKey: keyPress("x", 0), echo: xlib.KeyEcho{Keysym: "x"}},
			{raw: rawKey("x"), want: engineKey("x", 0)},
			{raw: rawKey("x"), want: engineKey("x", 0)},
		}},
		{"an echo that never came expires", []echoStep{
			{noteKey: keyPress("A", 0), echo: shifted},
			{raw: rawKey("Shift_L"), want: engineKey("Shift_L", 0), after: 3 * time.Second},
		}},
		{"buttons and releases pass as they are", []echoStep{
			{raw: &xlib.RawEvent{Kind: xlib.RawButtonPress, Button: 3}, want: &engine.RawInput{Kind: engine.InputButtonPress, Button: 3}},
			{raw: &xlib.RawEvent{Kind: xlib.RawKeyRelease, Keysym: "a"}, want: &engine.RawInput{Kind: engine.InputKeyRelease, Key: "a"}},
		}},
		{"a motion read just before the driver's next step lands", []echoStep{
			{noteMotion: &engine.Point{X: 100, Y: 100}},
			{noteMotion: &engine.Point{X: 120, Y: 100}, after: 10 * time.Millisecond},
			{raw: rawMotion(100, 100), want: engineMotion(120, 100), after: time.Millisecond},
			{raw: rawMotion(120, 100), want: engineMotion(120, 100)},
		}},
		{"a motion elsewhere is the person's", []echoStep{
			{noteMotion: &engine.Point{X: 100, Y: 100}},
			{noteMotion: &engine.Point{X: 120, Y: 100}, after: 10 * time.Millisecond},
			{raw: rawMotion(140, 100), want: engineMotion(140, 100)},
		}},
		{"an old target long replaced is the person's", []echoStep{
			{noteMotion: &engine.Point{X: 100, Y: 100}},
			{noteMotion: &engine.Point{X: 120, Y: 100}, after: 10 * time.Millisecond},
			{raw: rawMotion(100, 100), want: engineMotion(100, 100), after: time.Second},
		}},
		{"the lost event means nothing to the engine", []echoStep{
			{raw: &xlib.RawEvent{Kind: xlib.RawLost}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var l echoLog
			now := time.Unix(1000, 0)
			for i, s := range c.steps {
				now = now.Add(s.after)
				switch {
				case s.noteKey != nil:
					l.noteKey(*s.noteKey, s.echo, now)
				case s.noteMotion != nil:
					l.noteMotion(*s.noteMotion, now)
				default:
					got, ok := l.translate(*s.raw, now)
					got.Time = time.Time{}
					switch {
					case s.want == nil && ok:
						t.Fatalf("step %d: %+v passed as %+v, want it dropped", i, *s.raw, got)
					case s.want != nil && (!ok || got != *s.want):
						t.Fatalf("step %d: %+v became %+v (kept %v), want %+v", i, *s.raw, got, ok, *s.want)
					}
				}
			}
		})
	}
}

func TestEchoLogKeepsOnlyTheNewestPointerTargets(t *testing.T) {
	var l echoLog
	now := time.Unix(1000, 0)
	for i := 0; i < 10; i++ {
		l.noteMotion(engine.Point{X: i, Y: 0}, now)
	}
	if len(l.motions) != maxMotionEchoes || l.motions[maxMotionEchoes-1].at.X != 9 {
		t.Fatalf("remembered %+v", l.motions)
	}
}
