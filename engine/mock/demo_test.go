package mock

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func TestDemoApps(t *testing.T) {
	d := NewDemo()
	ctx := testCtx(t)
	want := []struct {
		name, exe string
		pid       int
		windows   int
	}{
		{"Form Demo", "/usr/bin/form-demo", 4000, 1},
		{"Editor", "/usr/bin/editor", 4001, 1},
		{"Chat", "/usr/bin/chat", 4002, 2},
	}
	for _, w := range want {
		app := d.App(w.name)
		if app == nil {
			t.Fatalf("no app %s", w.name)
		}
		id, err := d.Process(ctx, app.Pid())
		if err != nil || id.Pid != w.pid || id.Exe != w.exe {
			t.Errorf("%s: %+v %v", w.name, id, err)
		}
		if n := len(app.Windows()); n != w.windows {
			t.Errorf("%s: %d windows", w.name, n)
		}
	}
	wins, _ := d.Windows(ctx)
	if len(wins) != 4 || wins[0].ID != d.Demo().Form.Window.ID() || !wins[0].Focused {
		t.Fatalf("windows %+v", wins)
	}
	for i := range wins {
		for j := i + 1; j < len(wins); j++ {
			if overlap(wins[i].Frame, wins[j].Frame) {
				t.Errorf("windows %d and %d overlap", wins[i].ID, wins[j].ID)
			}
		}
		if f := wins[i].Frame; f.X < 0 || f.Y < 0 || f.X+f.W > Screen.W || f.Y+f.H > Screen.H {
			t.Errorf("window %d off screen: %+v", wins[i].ID, f)
		}
	}
}

func overlap(a, b engine.Rect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

func TestDemoWindowSizes(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	cases := []struct {
		name     string
		w        *Window
		min, max int
	}{
		{"form", dm.Form.Window, 60, 120},
		{"editor", dm.Editor.Window, 10, 40},
		{"chat main", dm.ChatMain, 400, 700},
		{"chat direct", dm.ChatDirect, 100, 250},
	}
	for _, c := range cases {
		if n := len(read(t, d, c.w).Nodes); n < c.min || n > c.max {
			t.Errorf("%s: %d elements, want %d..%d", c.name, n, c.min, c.max)
		}
	}
}

func TestFormHasWhatTheContractTestsNeed(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	tr := read(t, d, f.Window)
	roles := map[string]int{}
	noActions := 0
	for _, n := range tr.Nodes {
		roles[n.Role]++
		if len(n.Actions) == 0 && n.Role != "frame" {
			noActions++
		}
	}
	for _, r := range []string{"label", "entry", "password_text", "text", "check_box", "radio_button",
		"combo_box", "menu_item", "spin_button", "push_button", "list", "list_item", "table", "table_cell", "image"} {
		if roles[r] == 0 {
			t.Errorf("no %s", r)
		}
	}
	if common := roles["label"] + roles["entry"] + roles["check_box"] + roles["push_button"]; common*10 < len(tr.Nodes)*4 {
		t.Errorf("not form-like: %v", roles)
	}
	if noActions == 0 {
		t.Error("no element without actions")
	}
	if n := nodeOf(t, tr, f.Notes); !n.Editable || !n.Text || !strings.Contains(n.Value, "\n") {
		t.Errorf("text area %+v", n)
	}
	if n := nodeOf(t, tr, f.Unavailable); n.HasState("sensitive") {
		t.Errorf("disabled button states %v", n.States)
	}
	if n := nodeOf(t, tr, f.Name); !n.HasState("focused") {
		t.Errorf("the first entry is not focused: %v", n.States)
	}
}

func TestNoDemoReadEverShowsTheCanary(t *testing.T) {
	d := NewDemo()
	dm := d.Demo()
	for _, w := range []*Window{dm.Form.Window, dm.Editor.Window, dm.ChatMain, dm.ChatDirect} {
		for _, n := range read(t, d, w).Nodes {
			if strings.Contains(n.Name+n.Description+n.Value, PasswordCanary) {
				t.Fatalf("canary in window %d", w.ID())
			}
		}
	}
}

func TestEditorDocument(t *testing.T) {
	d := NewDemo()
	ed := d.Demo().Editor
	n := nodeOf(t, read(t, d, ed.Window), ed.Document)
	if n.Role != "document_text" || !n.Text || !n.Editable || n.Value != EditorText {
		t.Errorf("document %+v", n)
	}
	if strings.Count(EditorText, "\n\n") < 3 || !strings.Contains(EditorText, "\n"+EditorSecretLine+"\n") {
		t.Error("the document lacks paragraphs or the secret line")
	}
}

func TestChatSkeletonIsSmall(t *testing.T) {
	// The contract's skeleton keeps landmarks with children and named
	// generic containers with children; a dense window's skeleton is a
	// small fraction of it.
	landmarks := map[string]bool{"tool_bar": true, "list": true, "status_bar": true, "split_pane": true, "scroll_pane": true}
	generic := map[string]bool{"panel": true}
	d := NewDemo()
	tr := read(t, d, d.Demo().ChatMain)
	skeleton := 1
	for _, n := range tr.Nodes[1:] {
		if n.ChildCount > 0 && (landmarks[n.Role] || generic[n.Role] && n.Name != "") {
			skeleton++
		}
	}
	if skeleton > 20 || len(tr.Nodes) < 20*skeleton {
		t.Errorf("skeleton %d of %d", skeleton, len(tr.Nodes))
	}
}

func TestDemoOfAPlainDesktopIsNil(t *testing.T) {
	if New().Demo() != nil {
		t.Error("a plain desktop has demo parts")
	}
}
