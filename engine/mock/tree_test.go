package mock

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func TestReadTreeIsPreOrderWithParentsIndexesAndDepths(t *testing.T) {
	d := New()
	_, w := smallWindow(d)
	tr := read(t, d, w)
	want := []struct {
		name          string
		role          string
		parent, index int
		depth, kids   int
	}{
		{"Small", "frame", -1, 0, 0, 3},
		{"A", "panel", 0, 0, 1, 2},
		{"A1", "push_button", 1, 0, 2, 0},
		{"A2", "label", 1, 1, 2, 0},
		{"B", "panel", 0, 1, 1, 1},
		{"B1", "panel", 4, 0, 2, 1},
		{"B1a", "entry", 5, 0, 3, 0},
		{"C", "label", 0, 2, 1, 0},
	}
	if len(tr.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d", len(tr.Nodes), len(want))
	}
	if tr.Window != w.ID() || tr.Truncated {
		t.Fatalf("window %d truncated %v", tr.Window, tr.Truncated)
	}
	for i, x := range want {
		n := tr.Nodes[i]
		if n.Name != x.name || n.Role != x.role || n.Parent != x.parent || n.IndexInParent != x.index ||
			n.Depth != x.depth || n.ChildCount != x.kids {
			t.Errorf("node %d = %s %s parent %d index %d depth %d kids %d, want %+v",
				i, n.Role, n.Name, n.Parent, n.IndexInParent, n.Depth, n.ChildCount, x)
		}
	}
}

func TestReadTreeFieldsFollowTheElement(t *testing.T) {
	d := New()
	app := d.AddApp("Fields", "/usr/bin/fields")
	w := app.AddWindow("Fields", engine.Rect{X: 10, Y: 10, W: 300, H: 300})
	entry := w.Root().Add("entry", "Entry").SetValue("typed").SetDescription("an entry")
	pw := w.Root().Add("password_text", "Password").SetValue("hunter2")
	spin := w.Root().Add("spin_button", "Count").SetNumeric(0, 10, 1, 3)
	label := w.Root().Add("label", "Just text")
	placed := w.Root().Add("push_button", "Placed").SetFrame(engine.Rect{X: 50, Y: 60, W: 70, H: 20})
	tr := read(t, d, w)

	cases := []struct {
		name                   string
		el                     *Element
		value                  string
		hasValue               bool
		secure, editable, text bool
		numeric                bool
		actions                []string
	}{
		{"entry", entry, "typed", true, false, true, true, false, []string{"activate"}},
		{"password", pw, "", false, true, true, true, false, []string{"activate"}},
		{"spin button", spin, "3", true, false, true, true, true, []string{"activate"}},
		{"label", label, "", false, false, false, true, false, nil},
		{"button", placed, "", false, false, false, false, false, []string{"click"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := nodeOf(t, tr, c.el)
			if n.Value != c.value || n.HasValue != c.hasValue || n.Secure != c.secure ||
				n.Editable != c.editable || n.Text != c.text || (n.Numeric != nil) != c.numeric {
				t.Errorf("node %+v", n)
			}
			if strings.Join(n.Actions, ",") != strings.Join(c.actions, ",") {
				t.Errorf("actions %v, want %v", n.Actions, c.actions)
			}
			if !n.HasState("sensitive") || !n.HasState("showing") {
				t.Errorf("states %v lack sensitive/showing", n.States)
			}
		})
	}
	if n := nodeOf(t, tr, entry); n.Description != "an entry" {
		t.Errorf("description %q", n.Description)
	}
	if n := nodeOf(t, tr, spin); *n.Numeric != (engine.NumericRange{Step: 1}) {
		t.Errorf("range %+v", *n.Numeric)
	}
	if n := nodeOf(t, tr, placed); n.Frame != (engine.Rect{X: 50, Y: 60, W: 70, H: 20}) {
		t.Errorf("explicit frame %+v", n.Frame)
	}
}

func TestFramesAreDistinctAndInsideTheWindow(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	for _, w := range []*Window{dm.Form.Window, dm.Editor.Window, dm.ChatMain, dm.ChatDirect} {
		tr := read(t, d, w)
		wf := w.Frame()
		if tr.Nodes[0].Frame != wf {
			t.Errorf("%d: root frame %+v, window %+v", w.ID(), tr.Nodes[0].Frame, wf)
		}
		seen := map[engine.Rect]bool{}
		for _, n := range tr.Nodes[1:] {
			f := n.Frame
			if f.Empty() || f.X < wf.X || f.Y < wf.Y || f.X+f.W > wf.X+wf.W || f.Y+f.H > wf.Y+wf.H {
				t.Fatalf("%d: frame %+v outside window %+v", w.ID(), f, wf)
			}
			if seen[f] {
				t.Fatalf("%d: frame %+v given twice", w.ID(), f)
			}
			seen[f] = true
		}
	}
}

func TestElementsMoveWithTheirWindow(t *testing.T) {
	d := New()
	_, w := smallWindow(d)
	c := w.Find("label", "C")
	before := c.Frame()
	w.SetFrame(engine.Rect{X: 300, Y: 250, W: 400, H: 300})
	after := c.Frame()
	if after.X-before.X != 200 || after.Y-before.Y != 200 || after.W != before.W {
		t.Errorf("frame %+v -> %+v", before, after)
	}
}

func TestSecureValueNeverRead(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	tr := read(t, d, f.Window)
	for _, n := range tr.Nodes {
		if strings.Contains(n.Value, PasswordCanary) || strings.Contains(n.Name, PasswordCanary) {
			t.Fatalf("canary in node %s", n.ID)
		}
	}
	if n := nodeOf(t, tr, f.Password); !n.Secure || n.HasValue {
		t.Errorf("password node %+v", n)
	}
	_, _, err := d.ReadText(testCtx(t), f.Password.Ref(), 1000)
	wantCode(t, "ReadText of a secure field", err, engine.CodeSecureField)
	rb, err := d.ReadValue(testCtx(t), f.Password.Ref(), 1<<10)
	if err != nil || !rb.Secure || rb.Value != "" {
		t.Errorf("ReadValue = %+v, %v", rb, err)
	}
	if f.Password.Value() != PasswordCanary {
		t.Errorf("the mock lost the canary")
	}
}

func TestReadValueRechecksSecureLive(t *testing.T) {
	d := NewDemo()
	email := d.Demo().Form.Email
	rb, err := d.ReadValue(testCtx(t), email.Ref(), 1<<10)
	if err != nil || rb.Secure || rb.Value != "ada@example.org" {
		t.Fatalf("ReadValue = %+v, %v", rb, err)
	}
	email.SetSecure(true)
	rb, err = d.ReadValue(testCtx(t), email.Ref(), 1<<10)
	if err != nil || !rb.Secure || rb.Value != "" {
		t.Fatalf("after turning secure: %+v, %v", rb, err)
	}
}

func TestIDsAreStableAcrossReads(t *testing.T) {
	d := NewDemo()
	w := d.Demo().Form.Window
	first := read(t, d, w)
	d.Demo().Form.Status.SetName("changed") // not structure
	second := read(t, d, w)
	if len(first.Nodes) != len(second.Nodes) {
		t.Fatalf("%d then %d nodes", len(first.Nodes), len(second.Nodes))
	}
	ids := map[engine.ElementID]bool{}
	for i := range first.Nodes {
		if first.Nodes[i].ID != second.Nodes[i].ID {
			t.Fatalf("node %d: id %s then %s", i, first.Nodes[i].ID, second.Nodes[i].ID)
		}
		id := string(first.Nodes[i].ID)
		if !strings.HasPrefix(id, ":1.") || !strings.Contains(id, "/org/a11y/atspi/accessible/") {
			t.Fatalf("id %q is not bus name + object path", id)
		}
		if ids[first.Nodes[i].ID] {
			t.Fatalf("id %s twice", id)
		}
		ids[first.Nodes[i].ID] = true
	}
}

func TestReadTreeReturnsCopies(t *testing.T) {
	d := New()
	_, w := smallWindow(d)
	tr := read(t, d, w)
	tr.Nodes[6].Value = "scribbled"
	tr.Nodes[2].States[0] = "scribbled"
	tr.Nodes[2].Actions[0] = "scribbled"
	again := read(t, d, w)
	if again.Nodes[6].Value != "hello" || again.Nodes[2].States[0] == "scribbled" || again.Nodes[2].Actions[0] != "click" {
		t.Errorf("a caller's change reached the desktop: %+v / %+v", again.Nodes[6], again.Nodes[2])
	}
}

func TestBudgetTruncates(t *testing.T) {
	d := New()
	_, w := smallWindow(d)
	cases := []struct {
		name      string
		budget    engine.Budget
		names     []string
		truncated bool
	}{
		{"zero budget is the zoom budget", engine.Budget{}, []string{"Small", "A", "A1", "A2", "B", "B1", "B1a", "C"}, false},
		{"exact element count", engine.Budget{MaxElements: 8, MaxDepth: 10}, []string{"Small", "A", "A1", "A2", "B", "B1", "B1a", "C"}, false},
		{"max elements", engine.Budget{MaxElements: 3, MaxDepth: 10}, []string{"Small", "A", "A1"}, true},
		{"max depth 1", engine.Budget{MaxElements: 100, MaxDepth: 1}, []string{"Small", "A", "B", "C"}, true},
		{"max depth 2", engine.Budget{MaxElements: 100, MaxDepth: 2}, []string{"Small", "A", "A1", "A2", "B", "B1", "C"}, true},
		{"max depth 3 is all", engine.Budget{MaxElements: 100, MaxDepth: 3}, []string{"Small", "A", "A1", "A2", "B", "B1", "B1a", "C"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := d.ReadTree(testCtx(t), w.ID(), c.budget)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, n := range tr.Nodes {
				names = append(names, n.Name)
			}
			if strings.Join(names, ",") != strings.Join(c.names, ",") || tr.Truncated != c.truncated {
				t.Errorf("names %v truncated %v, want %v %v", names, tr.Truncated, c.names, c.truncated)
			}
			for _, n := range tr.Nodes {
				if n.Parent >= len(tr.Nodes) {
					t.Errorf("parent %d out of range", n.Parent)
				}
			}
		})
	}
}

func TestReadText(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	ctx := testCtx(t)
	text, cut, err := d.ReadText(ctx, dm.Editor.Document.Ref(), 64<<10)
	if err != nil || cut || text != EditorText || !strings.Contains(text, EditorSecretLine) {
		t.Fatalf("document text cut %v err %v", cut, err)
	}
	text, cut, err = d.ReadText(ctx, dm.Editor.Document.Ref(), 20)
	if err != nil || !cut || text != EditorText[:20] {
		t.Fatalf("cut text %q %v %v", text, cut, err)
	}
	label, _, err := d.ReadText(ctx, dm.Form.Hint.Ref(), 1000)
	if err != nil || label != "Changes apply after you press Save." {
		t.Fatalf("label text %q %v", label, err)
	}
	_, _, err = d.ReadText(ctx, dm.Form.Save.Ref(), 1000)
	wantCode(t, "ReadText of a button", err, engine.CodeNotActionable)
}

func TestReadTextCutsOnACharacterBoundary(t *testing.T) {
	d := New()
	app := d.AddApp("Utf", "/usr/bin/utf")
	w := app.AddWindow("Utf", engine.Rect{W: 200, H: 200})
	e := w.Root().Add("text", "T").SetValue("héllo")
	text, cut, err := d.ReadText(testCtx(t), e.Ref(), 2) // "h" + half of "é"
	if err != nil || !cut || text != "h" {
		t.Fatalf("%q %v %v", text, cut, err)
	}
}

func TestRemovedElementIsStale(t *testing.T) {
	d := New()
	_, w := smallWindow(d)
	b := w.Find("panel", "B")
	entry := w.Find("entry", "B1a")
	b.Remove()
	if !entry.Removed() || w.Element(entry.ID()) != nil {
		t.Fatalf("the subtree stayed")
	}
	_, err := d.ReadValue(testCtx(t), entry.Ref(), 1<<10)
	wantCode(t, "ReadValue of a removed element", err, engine.CodeStaleElementToken)
	err = d.DoAction(testCtx(t), engine.ElementRef{Window: w.ID(), ID: "nope"}, "click")
	wantCode(t, "DoAction on an unknown id", err, engine.CodeStaleElementToken)
	if tr := read(t, d, w); len(tr.Nodes) != 5 {
		t.Errorf("%d nodes after removing a 3-element subtree from 8", len(tr.Nodes))
	}
}
