package mock

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

func TestBuiltInActions(t *testing.T) {
	cases := []struct {
		name   string
		el     func(f *Form) *Element
		action string
		check  func(f *Form) bool
	}{
		{"check box ticks", func(f *Form) *Element { return f.Remember }, "click",
			func(f *Form) bool { return f.Remember.HasState("checked") }},
		{"check box unticks", func(f *Form) *Element { return f.Updates }, "click",
			func(f *Form) bool { return !f.Updates.HasState("checked") }},
		{"radio checks and unchecks its siblings", func(f *Form) *Element { return f.Weekly }, "click",
			func(f *Form) bool {
				return f.Weekly.HasState("checked") && !f.Daily.HasState("checked") && !f.Monthly.HasState("checked")
			}},
		{"combo box expands", func(f *Form) *Element { return f.Language }, "press",
			func(f *Form) bool { return f.Language.HasState("expanded") }},
		{"page tab selects", func(f *Form) *Element { return f.Advanced }, "click",
			func(f *Form) bool { return f.Advanced.HasState("selected") && !f.General.HasState("selected") }},
		{"disabled check box still acts (the engine refuses)", func(f *Form) *Element { return f.Beta }, "click",
			func(f *Form) bool { return f.Beta.HasState("checked") }},
		{"button without handler does nothing", func(f *Form) *Element { return f.Cancel }, "click",
			func(f *Form) bool { return f.Cancel.HasState("sensitive") && !f.Cancel.HasState("checked") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDemo()
			f := d.Demo().Form
			if err := d.DoAction(testCtx(t), c.el(f).Ref(), c.action); err != nil {
				t.Fatal(err)
			}
			if !c.check(f) {
				t.Error("the action had no effect")
			}
		})
	}
}

func TestActionNotListedIsNotActionable(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	for _, e := range []*Element{f.Logo, f.Hint} {
		err := d.DoAction(testCtx(t), e.Ref(), "click")
		wantCode(t, "DoAction on "+e.Role(), err, engine.CodeNotActionable)
	}
	err := d.DoAction(testCtx(t), f.Save.Ref(), "explode")
	wantCode(t, "unknown action", err, engine.CodeNotActionable)
}

func TestHandlerReplacesBuiltInAndDefaultRunsIt(t *testing.T) {
	d := New()
	app := d.AddApp("H", "/usr/bin/h")
	w := app.AddWindow("H", engine.Rect{W: 300, H: 300})
	box := w.Root().Add("check_box", "Box")
	label := w.Root().Add("label", "off")
	var calls atomic.Int32
	box.OnAction("click", func(ac *ActionContext) {
		calls.Add(1)
		if ac.Element != box || ac.Window != w || ac.Action != "click" {
			t.Errorf("context %+v", ac)
		}
		label.SetName("handled")
	})
	if err := d.DoAction(testCtx(t), box.Ref(), "click"); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 || label.Name() != "handled" || box.HasState("checked") {
		t.Fatalf("handler ran %d times, label %q, checked %v", calls.Load(), label.Name(), box.HasState("checked"))
	}
	box.OnAction("click", func(ac *ActionContext) { ac.Default() })
	if err := d.DoAction(testCtx(t), box.Ref(), "click"); err != nil {
		t.Fatal(err)
	}
	if !box.HasState("checked") {
		t.Error("Default did not toggle")
	}
	box.OnAction("frobnicate", func(*ActionContext) {})
	if acts := strings.Join(box.Actions(), ","); acts != "click,frobnicate" {
		t.Errorf("actions %s", acts)
	}
}

func TestDelayedChangeArrivesAfterTheAct(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	start := time.Now()
	if err := d.DoAction(testCtx(t), f.Save.Ref(), "click"); err != nil {
		t.Fatal(err)
	}
	if got := nodeOf(t, read(t, d, f.Window), f.Status).Name; got != "Not saved yet" && time.Since(start) < SaveDelay {
		t.Fatalf("status changed at once: %q", got)
	}
	if !d.WaitIdle(30 * time.Second) {
		t.Fatal("never idle")
	}
	if time.Since(start) < SaveDelay {
		t.Errorf("change came after %v, before %v", time.Since(start), SaveDelay)
	}
	if got := nodeOf(t, read(t, d, f.Window), f.Status).Name; got != "Saved (1)" {
		t.Fatalf("status %q", got)
	}
	_ = d.DoAction(testCtx(t), f.Save.Ref(), "click")
	d.WaitIdle(30 * time.Second)
	if got := f.Status.Name(); got != "Saved (2)" {
		t.Fatalf("second save: status %q", got)
	}
}

// TestCloseCancelsPendingChanges: Close cancels a change not yet due. The
// change is due in an hour, so the desktop is idle at once only if Close
// cancelled it, and WaitIdle says so without the test waiting for its time.
func TestCloseCancelsPendingChanges(t *testing.T) {
	d := New()
	var ran atomic.Bool
	d.After(time.Hour, func() { ran.Store(true) })
	d.Close()
	if !d.WaitIdle(30 * time.Second) {
		t.Fatal("not idle after Close: the pending change was not cancelled")
	}
	if ran.Load() {
		t.Error("a cancelled change ran")
	}
}

func TestStructuralChange(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	before := read(t, d, f.Window)
	if err := d.DoAction(testCtx(t), f.AddRow.Ref(), "click"); err != nil {
		t.Fatal(err)
	}
	after := read(t, d, f.Window)
	if len(after.Nodes) != len(before.Nodes)+1 {
		t.Fatalf("%d nodes then %d", len(before.Nodes), len(after.Nodes))
	}
	if n := nodeOf(t, after, f.Items); n.ChildCount != 4 {
		t.Errorf("list has %d children", n.ChildCount)
	}
	old := map[engine.ElementID]bool{}
	for _, n := range before.Nodes {
		old[n.ID] = true
	}
	var added []engine.Node
	for _, n := range after.Nodes {
		if !old[n.ID] {
			added = append(added, n)
		}
	}
	if len(added) != 1 || added[0].Name != "Item 4" || added[0].Role != "list_item" {
		t.Fatalf("added %+v", added)
	}
}

func TestEditableText(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	ctx := testCtx(t)
	at, err := d.InsertText(ctx, f.Name.Ref(), ", Countess")
	if err != nil {
		t.Fatal(err)
	}
	if rb, err := d.ReadTextAt(ctx, f.Name.Ref(), at, at+len(", Countess")); err != nil || rb.Value != ", Countess" {
		t.Fatalf("ReadTextAt at the insertion (%d): %+v %v", at, rb, err)
	}
	if got := f.Name.Value(); got != "Ada Lovelace, Countess" {
		t.Fatalf("after insert at the caret (end): %q", got)
	}
	f.Name.SetCaret(0)
	if at, _ := d.InsertText(ctx, f.Name.Ref(), "Lady "); at != 0 {
		t.Fatalf("the insertion at the caret 0 says it went in at %d", at)
	}
	if got := f.Name.Value(); got != "Lady Ada Lovelace, Countess" {
		t.Fatalf("after insert at 0: %q", got)
	}
	if err := d.SetText(ctx, f.Email.Ref(), "a@b.example"); err != nil {
		t.Fatal(err)
	}
	if rb, _ := d.ReadValue(ctx, f.Email.Ref(), 1<<10); rb.Value != "a@b.example" {
		t.Fatalf("readback %q", rb.Value)
	}
	_, err = d.InsertText(ctx, f.Save.Ref(), "x")
	wantCode(t, "InsertText into a button", err, engine.CodeNotActionable)
	wantCode(t, "SetText on a label", d.SetText(ctx, f.Hint.Ref(), "x"), engine.CodeNotActionable)

	texts := d.Texts()
	if len(texts) != 5 || texts[0].Text != ", Countess" || texts[2].Method != "SetText" {
		t.Errorf("texts %+v", texts)
	}
	for _, c := range d.Calls() {
		if strings.Contains(string(c.Element)+c.Action, "Countess") {
			t.Errorf("typed text in the call record")
		}
	}
}

func TestSecureFieldTakesTextButIsRecorded(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	if len(d.CallsOf("InsertText")) != 0 {
		t.Fatal("calls before any")
	}
	if _, err := d.InsertText(testCtx(t), f.Password.Ref(), "x"); err != nil {
		t.Fatal(err)
	}
	calls := d.CallsOf("InsertText")
	if len(calls) != 1 || calls[0].Element != f.Password.ID() || !calls[0].Done || calls[0].Code != "" {
		t.Errorf("calls %+v", calls)
	}
}

func TestSetNumberClamps(t *testing.T) {
	cases := []struct {
		in   float64
		num  float64
		text string
	}{
		{42, 42, "42"},
		{150, 100, "100"},
		{-3, 0, "0"},
		{12.5, 12.5, "12.5"},
	}
	for _, c := range cases {
		d := NewDemo()
		vol := d.Demo().Form.Volume
		if err := d.SetNumber(testCtx(t), vol.Ref(), c.in); err != nil {
			t.Fatal(err)
		}
		if vol.Number() != c.num || vol.Value() != c.text {
			t.Errorf("SetNumber(%v): %v %q, want %v %q", c.in, vol.Number(), vol.Value(), c.num, c.text)
		}
	}
	d := NewDemo()
	wantCode(t, "SetNumber on an entry", d.SetNumber(testCtx(t), d.Demo().Form.Name.Ref(), 1), engine.CodeNotActionable)
	vol := d.Demo().Form.Volume
	if err := d.SetText(testCtx(t), vol.Ref(), "70"); err != nil || vol.Number() != 70 {
		t.Errorf("SetText on a spin button: %v %v", vol.Number(), err)
	}
}

func TestComboMenuItemRenamesTheCombo(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	ctx := testCtx(t)
	_ = d.DoAction(ctx, f.Language.Ref(), "press")
	item := f.LanguageMenu.Find("menu_item", "Deutsch")
	if err := d.DoAction(ctx, item.Ref(), "click"); err != nil {
		t.Fatal(err)
	}
	if f.Language.Name() != "Deutsch" || f.Language.HasState("expanded") || !item.HasState("selected") {
		t.Errorf("combo %q expanded %v", f.Language.Name(), f.Language.HasState("expanded"))
	}
}
