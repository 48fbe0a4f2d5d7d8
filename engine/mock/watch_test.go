package mock

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// collector gathers what a watcher sink is handed.
type collector struct{ got testkit.List[engine.RawInput] }

func (c *collector) sink(ev engine.RawInput) { c.got.Add(ev) }

func (c *collector) events() []engine.RawInput { return c.got.All() }

func TestWatcherSeesDriverAndPersonEventsInOrder(t *testing.T) {
	d := NewDemo()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c collector
	if err := d.WatchInput(ctx, c.sink); err != nil {
		t.Fatal(err)
	}
	send(t, d, engine.InputEvent{Kind: engine.InputMotion, At: engine.Point{X: 10, Y: 10}})
	d.MovePointer(engine.Point{X: 50, Y: 60})
	send(t, d, key("a", 0)...)
	d.PressKey("Escape")
	d.PressButton(3)
	if !d.WaitInput(30 * time.Second) {
		t.Fatal("watcher never caught up")
	}
	want := []struct {
		kind   engine.InputKind
		key    string
		button int
		at     engine.Point
	}{
		{engine.InputMotion, "", 0, engine.Point{X: 10, Y: 10}},
		{engine.InputMotion, "", 0, engine.Point{X: 50, Y: 60}},
		{engine.InputKeyPress, "a", 0, engine.Point{X: 50, Y: 60}},
		{engine.InputKeyRelease, "a", 0, engine.Point{X: 50, Y: 60}},
		{engine.InputKeyPress, "Escape", 0, engine.Point{X: 50, Y: 60}},
		{engine.InputKeyRelease, "Escape", 0, engine.Point{X: 50, Y: 60}},
		{engine.InputButtonPress, "", 3, engine.Point{X: 50, Y: 60}},
		{engine.InputButtonRelease, "", 3, engine.Point{X: 50, Y: 60}},
	}
	got := c.events()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.kind || g.Key != w.key || g.Button != w.button || g.At != w.at || g.Time.IsZero() {
			t.Errorf("event %d = %+v, want %+v", i, g, w)
		}
	}
	if len(d.Sent()) != 3 || len(d.PersonInput()) != 5 {
		t.Errorf("sent %d, person %d", len(d.Sent()), len(d.PersonInput()))
	}
	if p := d.PointerAt(); p != (engine.Point{X: 50, Y: 60}) {
		t.Errorf("the person's motion did not move the pointer: %+v", p)
	}
}

func TestWatcherStopsWithItsContext(t *testing.T) {
	d := New()
	ctx, cancel := context.WithCancel(context.Background())
	var c collector
	if err := d.WatchInput(ctx, c.sink); err != nil {
		t.Fatal(err)
	}
	d.PressKey("a")
	d.WaitInput(30 * time.Second)
	cancel()
	testkit.Eventually(t, 10*time.Second, "the watcher is gone", func() bool { return d.Watchers() == 0 })
	d.PressKey("b")
	d.WaitInput(30 * time.Second)
	if n := len(c.events()); n != 2 {
		t.Errorf("%d events, want the 2 before the end", n)
	}
}

func TestSlowSinkKeepsOrderAndDoesNotBlockTheDesktop(t *testing.T) {
	d := New()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	var c collector
	_ = d.WatchInput(ctx, func(ev engine.RawInput) {
		<-release
		c.sink(ev)
	})
	var fast collector
	_ = d.WatchInput(ctx, fast.sink)
	// The slow sink holds every event until release: a desktop that
	// waited on it would never finish the moves.
	testkit.Returns(t, 30*time.Second, "moving the pointer while a sink holds its events", func() {
		for i := 0; i < 100; i++ {
			d.MovePointer(engine.Point{X: i, Y: i})
		}
	})
	close(release)
	if !d.WaitInput(30 * time.Second) {
		t.Fatal("never caught up")
	}
	for _, got := range [][]engine.RawInput{c.events(), fast.events()} {
		if len(got) != 100 {
			t.Fatalf("%d events", len(got))
		}
		for i, ev := range got {
			if ev.At.X != i {
				t.Fatalf("event %d out of order: %+v", i, ev)
			}
		}
	}
}

func TestWatchWithEndedContextRegistersNothing(t *testing.T) {
	d := New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.WatchInput(ctx, func(engine.RawInput) { t.Error("sink called") }); err != nil {
		t.Fatal(err)
	}
	d.PressKey("a")
	if d.Watchers() != 0 {
		t.Error("registered")
	}
}
