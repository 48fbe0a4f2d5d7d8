package mock

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The mock's waits sleep until the desktop changes (changes.go): a wait
// must wake on every kind of change a read shows, since nothing polls to
// catch a change that forgot to wake it, and a wait on a quiet desktop
// must stamp nothing.

// TestWaitChangeWakesOnEveryChange starts a wait on the demo form, makes
// one change once the wait is listening, and wants the wait to say the
// window changed. A change that did not wake the wait would leave it
// asleep until its bound, far past the test's, and answer unchanged.
func TestWaitChangeWakesOnEveryChange(t *testing.T) {
	cases := []struct {
		name string
		// setup runs before the mark; change once the wait listens.
		setup  func(d *Desktop, f *Form)
		change func(t *testing.T, d *Desktop, f *Form)
	}{
		{"a label", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Status.SetName("Saved (1)") }},
		{"a value", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Email.SetValue("grace@example.net") }},
		{"a state", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Save.Disable() }},
		{"a child added", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Items.Add("list_item", "Item 9") }},
		{"a child inserted", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Items.AddAt(0, "list_item", "Item 0") }},
		{"a child removed", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Items.Find("list_item", "Item 2").Remove() }},
		{"the title", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Window.SetTitle("Form Demo — Saved") }},
		{"the window moved", nil, func(_ *testing.T, _ *Desktop, f *Form) {
			f.Window.SetFrame(engine.Rect{X: 60, Y: 20, W: 640, H: 760})
		}},
		{"the window's scale", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Window.SetScale(2) }},
		{"an element placed", nil, func(_ *testing.T, _ *Desktop, f *Form) {
			f.Logo.SetFrame(engine.Rect{X: 500, Y: 600, W: 32, H: 32})
		}},
		{"the window closed", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Window.Close() }},
		{"the app exits", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Window.App().Exit() }},
		{"the app restarts", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Window.App().Restart() }},
		{"the app leaves the bus", nil, func(_ *testing.T, _ *Desktop, f *Form) { f.Window.App().SetOffBus(true) }},
		{"a secure value leaks", nil, func(_ *testing.T, d *Desktop, _ *Form) { d.LeakSecureValues(true) }},
		{"an action's own effect", nil, func(t *testing.T, d *Desktop, f *Form) {
			wantCode(t, "DoAction", d.DoAction(testCtx(t), f.Remember.Ref(), "click"), "")
		}},
		{"a handler's later change", nil, func(t *testing.T, d *Desktop, f *Form) {
			wantCode(t, "DoAction", d.DoAction(testCtx(t), f.Save.Ref(), "click"), "")
		}},
		{"text inserted", nil, func(t *testing.T, d *Desktop, f *Form) {
			_, err := d.InsertText(testCtx(t), f.Email.Ref(), "x")
			wantCode(t, "InsertText", err, "")
		}},
		{"text set", nil, func(t *testing.T, d *Desktop, f *Form) {
			wantCode(t, "SetText", d.SetText(testCtx(t), f.Email.Ref(), "grace@example.org"), "")
		}},
		{"a number set", nil, func(t *testing.T, d *Desktop, f *Form) {
			wantCode(t, "SetNumber", d.SetNumber(testCtx(t), f.Volume.Ref(), 70), "")
		}},
		{"a key the person typed", nil, func(_ *testing.T, d *Desktop, _ *Form) { d.PressKey("a") }},
		{"a key the driver sent", nil, func(t *testing.T, d *Desktop, _ *Form) {
			wantCode(t, "Send", d.Send(testCtx(t), engine.InputEvent{Kind: engine.InputKeyPress, Key: "b"}), "")
		}},
		{"the focus moved by a click", nil, func(t *testing.T, d *Desktop, f *Form) {
			d.MovePointer(f.Email.Frame().Center())
			d.PressButton(1)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDemo()
			defer d.Close()
			f := d.Demo().Form
			if c.setup != nil {
				c.setup(d, f)
			}
			ctx := testCtx(t)
			mark, err := d.MarkChanges(ctx, f.Window.ID())
			wantCode(t, "MarkChanges", err, "")
			got := make(chan error, 1)
			go func() {
				changed, err := d.WaitChange(ctx, f.Window.ID(), mark, time.Minute)
				if err == nil && !changed {
					err = errors.New("no change")
				}
				got <- err
			}()
			listening(t, d, 1)
			c.change(t, d, f)
			if err := <-got; err != nil {
				t.Fatalf("the wait did not see the change: %v", err)
			}
		})
	}
}

// TestWaitChangeWakesOnAScroll: a view scrolled to an element by the
// accessibility call (not a setter) wakes a wait.
func TestWaitChangeWakesOnAScroll(t *testing.T) {
	d := New()
	defer d.Close()
	w := d.AddApp("Rows", "/usr/bin/rows").AddWindow("Rows", engine.Rect{X: 0, Y: 0, W: 400, H: 400})
	view := w.Root().Add("scroll_pane", "View")
	var last *Element
	for _, name := range []string{"Row 1", "Row 2", "Row 3", "Row 4"} {
		last = view.Add("list_item", name)
	}
	view.MakeScrolled(1)
	ctx := testCtx(t)
	mark, err := d.MarkChanges(ctx, w.ID())
	wantCode(t, "MarkChanges", err, "")
	got := make(chan bool, 1)
	go func() {
		changed, _ := d.WaitChange(ctx, w.ID(), mark, time.Minute)
		got <- changed
	}()
	listening(t, d, 1)
	wantCode(t, "ScrollIntoView", d.ScrollIntoView(ctx, last.Ref(), engine.ScrollHint{}), "")
	if !<-got {
		t.Fatal("the wait did not see the view scroll")
	}
}

// TestAnIdleWaitStampsNothing: waits on a window nothing changes do not
// read it: not one wait, not ten on one mark, not a settle's quiet wait
// past its first look, while the person moves the pointer (which no read
// shows). A change elsewhere on the desktop costs each window waited on
// one stamp, shared by its waits, and the same mark.
func TestAnIdleWaitStampsNothing(t *testing.T) {
	d, _, w, ctx := formDemo(t)
	mark, err := d.MarkChanges(ctx, w)
	wantCode(t, "MarkChanges", err, "")
	if again, _ := d.CurrentMark(w); again != mark {
		t.Fatalf("a quiet window marked again: mark %d, then %d", mark, again)
	}

	before := d.Stamps()
	const waits = 10
	results := make(chan bool, waits)
	for range waits {
		go func() {
			changed, err := d.WaitChange(ctx, w, mark, 300*time.Millisecond)
			results <- changed || err != nil
		}()
	}
	listening(t, d, waits)
	d.MovePointer(engine.Point{X: 5, Y: 5})
	for range waits {
		if <-results {
			t.Fatal("an idle wait says the window changed (or failed)")
		}
	}
	settled, changed, _, err := d.WaitQuiet(ctx, w, mark, 300*time.Millisecond, time.Second)
	wantCode(t, "WaitQuiet", err, "")
	if !settled || changed {
		t.Fatalf("a quiet wait: settled %v changed %v", settled, changed)
	}
	if n := d.Stamps() - before; n != 0 {
		t.Fatalf("idle waits stamped the window %d times", n)
	}

	// A change in another window wakes the waits: each stamps its own
	// window once, finds it unchanged, and sleeps on.
	results = make(chan bool, waits)
	for range waits {
		go func() {
			changed, err := d.WaitChange(ctx, w, mark, 300*time.Millisecond)
			results <- changed || err != nil
		}()
	}
	listening(t, d, waits)
	d.Demo().Editor.Status.SetName("Ln 2, Col 1")
	for range waits {
		if <-results {
			t.Fatal("a change in another window woke a wait as a change of its own")
		}
	}
	if n := d.Stamps() - before; n != 1 {
		t.Fatalf("a change elsewhere: the window was stamped %d times, want once", n)
	}
	if again, _ := d.CurrentMark(w); again != mark {
		t.Fatalf("an unchanged window got a new mark: %d, then %d", mark, again)
	}
}

// TestWaitQuietIsHeldByAHang: a settle's quiet wait looks at its window
// as an accessibility call, so an app that hangs during it holds it up
// until the call's context ends, as it did when the wait polled.
func TestWaitQuietIsHeldByAHang(t *testing.T) {
	d := NewDemo()
	defer d.Close()
	f := d.Demo().Form
	ctx, cancel := context.WithCancel(testCtx(t))
	mark, err := d.MarkChanges(ctx, f.Window.ID())
	wantCode(t, "MarkChanges", err, "")
	done := make(chan error, 1)
	go func() {
		_, _, _, err := d.WaitQuiet(ctx, f.Window.ID(), mark, time.Minute, time.Minute)
		done <- err
	}()
	testkit.Eventually(t, 5*time.Second, "the quiet wait's first look", func() bool {
		calls := d.CallsOf("WaitQuiet")
		return len(calls) == 1 && calls[0].Done
	})
	f.Window.App().Hang()
	testkit.Eventually(t, 5*time.Second, "the quiet wait looking again, held by the hang", func() bool {
		calls := d.CallsOf("WaitQuiet")
		return len(calls) == 2 && !calls[1].Done
	})
	cancel()
	wantCode(t, "WaitQuiet", <-done, engine.CodeAppNotResponding)
}

// listening waits until n WaitChange calls are in flight.
func listening(t *testing.T, d *Desktop, n int) {
	t.Helper()
	testkit.Eventually(t, 5*time.Second, "the waits listening", func() bool {
		k := 0
		for _, c := range d.CallsOf("WaitChange") {
			if !c.Done {
				k++
			}
		}
		return k >= n
	})
}
