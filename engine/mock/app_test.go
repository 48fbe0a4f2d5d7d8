package mock

import (
	"context"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

func TestHungAppAnswersNotRespondingWithinTheBound(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	d.Demo().FormApp.Hang()
	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"ReadTree", func(ctx context.Context) error {
			_, err := d.ReadTree(ctx, f.Window.ID(), engine.DefaultZoomBudget())
			return err
		}},
		{"ReadText", func(ctx context.Context) error { _, _, err := d.ReadText(ctx, f.Notes.Ref(), 100); return err }},
		{"ReadValue", func(ctx context.Context) error { _, err := d.ReadValue(ctx, f.Name.Ref(), 1<<10); return err }},
		{"ReadTextAt", func(ctx context.Context) error { _, err := d.ReadTextAt(ctx, f.Name.Ref(), 0, 1); return err }},
		{"DoAction", func(ctx context.Context) error { return d.DoAction(ctx, f.Save.Ref(), "click") }},
		{"InsertText", func(ctx context.Context) error { _, err := d.InsertText(ctx, f.Name.Ref(), "x"); return err }},
		{"SetText", func(ctx context.Context) error { return d.SetText(ctx, f.Name.Ref(), "x") }},
		{"SetNumber", func(ctx context.Context) error { return d.SetNumber(ctx, f.Volume.Ref(), 1) }},
	}
	const bound = 60 * time.Millisecond
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			defer cancel()
			err := c.call(ctx)
			took := time.Since(start)
			wantCode(t, c.name, err, engine.CodeAppNotResponding)
			// Not before its bound; after it as soon as the context ends
			// (the later limit is a hang guard, not a speed).
			if took < bound || took > bound+10*time.Second {
				t.Errorf("returned after %v, bound %v", took, bound)
			}
		})
	}
	if f.Name.Value() != "Ada Lovelace" || f.Volume.Number() != 50 {
		t.Error("a hung app changed")
	}
	// The X server still answers for a hung app.
	ctx := testCtx(t)
	if _, err := d.Windows(ctx); err != nil {
		t.Errorf("Windows: %v", err)
	}
	if _, err := d.Capture(ctx, f.Window.ID()); err != nil {
		t.Errorf("Capture: %v", err)
	}
	if _, err := d.Process(ctx, f.Window.App().Pid()); err != nil {
		t.Errorf("Process: %v", err)
	}
	// Another app is not affected.
	if _, err := d.ReadTree(ctx, d.Demo().Editor.Window.ID(), engine.DefaultZoomBudget()); err != nil {
		t.Errorf("other app: %v", err)
	}
}

func TestResumeLetsAWaitingCallFinish(t *testing.T) {
	d := NewDemo()
	app := d.Demo().FormApp
	w := d.Demo().Form.Window
	app.Hang()
	done := waitingCall(t, d, "ReadTree", func() error {
		_, err := d.ReadTree(testCtx(t), w.ID(), engine.DefaultZoomBudget())
		return err
	})
	app.Resume()
	if err := testkit.Receive(t, done, 30*time.Second, "the read's answer after resume"); err != nil {
		t.Fatalf("after resume: %v", err)
	}
}

func TestExitWhileHungWakesWithWindowGone(t *testing.T) {
	d := NewDemo()
	app := d.Demo().FormApp
	f := d.Demo().Form
	app.Hang()
	done := waitingCall(t, d, "DoAction", func() error { return d.DoAction(testCtx(t), f.Save.Ref(), "click") })
	app.Exit()
	wantCode(t, "DoAction after exit", testkit.Receive(t, done, 30*time.Second, "the action's answer after exit"), engine.CodeWindowGone)
}

// waitingCall runs call (the one call of method) in the background and
// returns once it waits on a hung app; the channel gets what it returns.
func waitingCall(t *testing.T, d *Desktop, method string, call func() error) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	testkit.Eventually(t, 10*time.Second, method+" waiting on the hung app", func() bool {
		calls := d.CallsOf(method)
		return len(calls) == 1 && !calls[0].Done
	})
	return done
}

func TestExitMakesWindowsGone(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	pid := dm.FormApp.Pid()
	dm.FormApp.Exit()
	ctx := testCtx(t)
	wins, err := d.Windows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wins {
		if w.Pid == pid {
			t.Fatalf("window %d of an exited app listed", w.ID)
		}
	}
	if len(wins) != 3 {
		t.Errorf("%d windows left, want 3", len(wins))
	}
	_, err = d.ReadTree(ctx, dm.Form.Window.ID(), engine.DefaultZoomBudget())
	wantCode(t, "ReadTree", err, engine.CodeWindowGone)
	wantCode(t, "DoAction", d.DoAction(ctx, dm.Form.Save.Ref(), "click"), engine.CodeWindowGone)
	_, err = d.Capture(ctx, dm.Form.Window.ID())
	wantCode(t, "Capture", err, engine.CodeWindowGone)
	wantCode(t, "Raise", d.Raise(ctx, dm.Form.Window.ID()), engine.CodeWindowGone)
	_, err = d.Process(ctx, pid)
	wantCode(t, "Process", err, engine.CodeWindowGone)
	if f, _ := d.FocusedWindow(ctx); f == dm.Form.Window.ID() {
		t.Error("a gone window keeps the focus")
	}
	if !dm.Form.Window.Closed() || dm.FormApp.Alive() {
		t.Error("window or app still alive")
	}
}

func TestCloseOneWindow(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	dm.ChatDirect.Close()
	ctx := testCtx(t)
	_, err := d.ReadTree(ctx, dm.ChatDirect.ID(), engine.DefaultZoomBudget())
	wantCode(t, "closed window", err, engine.CodeWindowGone)
	if _, err := d.ReadTree(ctx, dm.ChatMain.ID(), engine.DefaultZoomBudget()); err != nil {
		t.Errorf("the other window: %v", err)
	}
	if len(dm.ChatApp.Windows()) != 1 {
		t.Error("app still lists the closed window")
	}
}

func TestPidReuseChangesIdentity(t *testing.T) {
	d := NewDemo()
	app := d.Demo().FormApp
	old := d.Demo().Form.Window
	ctx := testCtx(t)
	before, err := d.Process(ctx, app.Pid())
	if err != nil || before != (engine.ProcessIdentity{Pid: 4000, StartTime: before.StartTime, Exe: "/usr/bin/form-demo"}) {
		t.Fatalf("identity %+v %v", before, err)
	}
	app.Restart()
	after, err := d.Process(ctx, app.Pid())
	if err != nil || after.Pid != before.Pid || after.Exe != before.Exe || after.StartTime <= before.StartTime {
		t.Fatalf("after restart %+v (before %+v) %v", after, before, err)
	}
	_, err = d.ReadTree(ctx, old.ID(), engine.DefaultZoomBudget())
	wantCode(t, "old window after restart", err, engine.CodeWindowGone)
	fresh := FormWindow(app)
	if fresh.Window.ID() == old.ID() || fresh.Password.ID() == d.Demo().Form.Password.ID() {
		t.Error("the new instance reuses ids")
	}
	app.RestartAs("Impostor", "/tmp/impostor")
	other, _ := d.Process(ctx, app.Pid())
	if other.Exe != "/tmp/impostor" || other.StartTime <= after.StartTime || app.Name() != "Impostor" {
		t.Errorf("RestartAs identity %+v", other)
	}
}

func TestPidsAndWindowIDs(t *testing.T) {
	d := New()
	a := d.AddApp("A", "/a")
	b := d.AddApp("B", "/b")
	if a.Pid() != 4000 || b.Pid() != 4001 {
		t.Errorf("pids %d %d", a.Pid(), b.Pid())
	}
	w1 := a.AddWindow("1", engine.Rect{W: 10, H: 10})
	w2 := a.AddWindow("2", engine.Rect{W: 10, H: 10})
	w3 := b.AddWindow("3", engine.Rect{W: 10, H: 10})
	if w1.ID() != 0x2a00001 || w2.ID() != 0x2a00002 || w3.ID() != 0x2c00001 {
		t.Errorf("window ids %#x %#x %#x", w1.ID(), w2.ID(), w3.ID())
	}
	if d.App("B") != b || d.App("nobody") != nil || len(d.Apps()) != 2 {
		t.Error("App lookup")
	}
	_, err := d.Process(testCtx(t), 1)
	wantCode(t, "unknown pid", err, engine.CodeWindowGone)
}

func TestUnavailableDesktopFailsEveryCall(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	d.SetUnavailable(true)
	ctx := testCtx(t)
	calls := map[string]error{}
	_, calls["Windows"] = d.Windows(ctx)
	_, calls["Process"] = d.Process(ctx, 4000)
	_, calls["ReadTree"] = d.ReadTree(ctx, f.Window.ID(), engine.DefaultZoomBudget())
	_, _, calls["ReadText"] = d.ReadText(ctx, f.Notes.Ref(), 10)
	_, calls["ReadValue"] = d.ReadValue(ctx, f.Name.Ref(), 1<<10)
	_, calls["ReadTextAt"] = d.ReadTextAt(ctx, f.Name.Ref(), 0, 1)
	calls["DoAction"] = d.DoAction(ctx, f.Save.Ref(), "click")
	_, calls["InsertText"] = d.InsertText(ctx, f.Name.Ref(), "x")
	calls["SetText"] = d.SetText(ctx, f.Name.Ref(), "x")
	calls["SetNumber"] = d.SetNumber(ctx, f.Volume.Ref(), 1)
	calls["Send"] = d.Send(ctx, engine.InputEvent{Kind: engine.InputMotion})
	_, calls["Pointer"] = d.Pointer(ctx)
	_, calls["FocusedWindow"] = d.FocusedWindow(ctx)
	_, calls["TopmostAt"] = d.TopmostAt(ctx, engine.Point{})
	calls["Raise"] = d.Raise(ctx, f.Window.ID())
	_, calls["Capture"] = d.Capture(ctx, f.Window.ID())
	_, calls["ClipboardRead"] = d.ClipboardRead(ctx)
	_, calls["ClipboardWrite"] = d.ClipboardWrite(ctx, "x")
	_, calls["AskConsent"] = d.AskConsent(ctx, engine.ConsentRequest{})
	_, calls["ShowIndicator"] = d.ShowIndicator(ctx, false)
	calls["WatchInput"] = d.WatchInput(ctx, func(engine.RawInput) {})
	for name, err := range calls {
		wantCode(t, name, err, engine.CodeBackendUnavailable)
	}
	if d.HasKey("a") {
		t.Error("HasKey on a switched-off desktop")
	}
	if f.Name.Value() != "Ada Lovelace" {
		t.Error("a call changed the switched-off desktop")
	}
	d.SetUnavailable(false)
	if _, err := d.Windows(ctx); err != nil {
		t.Errorf("back on: %v", err)
	}
}

func TestCallsRecordOutcomes(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	ctx := testCtx(t)
	_ = d.DoAction(ctx, f.Save.Ref(), "click")
	_ = d.DoAction(ctx, f.Logo.Ref(), "click")
	got := d.CallsOf("DoAction")
	want := []Call{
		{Method: "DoAction", Window: f.Window.ID(), Element: f.Save.ID(), Action: "click", Done: true},
		{Method: "DoAction", Window: f.Window.ID(), Element: f.Logo.ID(), Action: "click", Done: true, Code: engine.CodeNotActionable},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("calls %+v", got)
	}
	d.ResetCalls()
	if len(d.Calls()) != 0 || len(d.Texts()) != 0 || len(d.Sent()) != 0 {
		t.Error("ResetCalls kept records")
	}
}
