package engine_test

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/enginekit"
)

// Tokens are scoped to the session whose read issued them: snapshot ids
// are never reused within the process, a token is checked against its
// session, and a target argument that disagrees with the token's window
// is refused. Each case below once acted on an element the model never
// read.

// on is the harness reporting to t (a subtest).
func (h *harness) on(t *testing.T) *harness {
	h2 := *h
	h2.t = t
	return &h2
}

// second opens another MCP connection on the same driver and desktop.
func (h *harness) second(name string) *harness {
	h2 := *h
	h2.c = enginekit.Connect(h.t, h.d, name, 4343)
	return &h2
}

func (h *harness) readEditor() map[string]any {
	h.t.Helper()
	return h.ok("get_window_state", map[string]any{"app": "Editor"})
}

// The scenario: session 1 reads the Editor's "New" button; after
// end_session a new session reads the form until its snapshot numbers
// reach the old token's; the old token must not act on the form.
func TestAnEndedSessionsTokenNeverActsAgain(t *testing.T) {
	h := newHarness(t, nil)
	h.start(map[string]any{"apps": []any{"Form Demo", "Editor"}})
	h.readForm(nil)
	old := testkit.Token(t, h.readEditor(), "push_button", "New")
	h.ok("end_session", nil)

	h.start(map[string]any{"apps": []any{"Form Demo", "Editor"}})
	for i := 0; i < 3; i++ {
		h.readForm(nil)
	}
	before := h.desk.ChangeCalls()
	h.fail(engine.CodeStaleElementToken, "click", map[string]any{"app": "Editor", "element_token": old})
	h.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": old})
	if got := h.desk.ChangeCalls(); got != before {
		t.Fatalf("an ended session's token acted: %d calls that change apps, want %d", got, before)
	}
	for _, r := range h.audit.Of("act") {
		if r.Outcome == "ok" {
			t.Fatalf("an act succeeded with an ended session's token (exe %s)", r.Exe)
		}
	}
}

// Two connections on one driver (the daemon's case): a token read on one
// is stale on the other, while both sessions are live.
func TestATokenOfAnotherConnectionIsStale(t *testing.T) {
	a := newHarness(t, nil)
	b := a.second("Other Host")
	a.start(map[string]any{"apps": []any{"Form Demo", "Editor"}})
	b.start(map[string]any{"apps": []any{"Form Demo", "Editor"}})
	tokA := testkit.Token(t, a.readEditor(), "push_button", "New")
	rootA := testkit.Token(t, a.readEditor(), "document_text", "")
	for i := 0; i < 3; i++ {
		b.readForm(nil)
		b.readEditor()
	}
	before := a.desk.ChangeCalls()
	b.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": tokA})
	b.fail(engine.CodeStaleElementToken, "click", map[string]any{"app": "Editor", "element_token": tokA})
	b.fail(engine.CodeStaleElementToken, "get_window_state", map[string]any{"root": rootA})
	if got := a.desk.ChangeCalls(); got != before {
		t.Fatalf("another connection's token acted: %d calls that change apps, want %d", got, before)
	}
	// The token still acts on its own connection.
	a.ok("click", map[string]any{"element_token": tokA})
}

// Snapshot ids keep their "s<N>" form and never repeat in a process,
// across sessions and connections.
func TestSnapshotIDsNeverRepeatInAProcess(t *testing.T) {
	a := newHarness(t, nil)
	b := a.second("Other Host")
	seen := map[string]bool{}
	note := func(read map[string]any) {
		t.Helper()
		id, _ := read["snapshot_id"].(string)
		if _, err := engine.ParseToken(id + ":1"); err != nil {
			t.Fatalf("snapshot id %q is not s<N>", id)
		}
		if seen[id] {
			t.Fatalf("snapshot id %s was issued twice", id)
		}
		seen[id] = true
	}
	for round := 0; round < 2; round++ {
		for _, h := range []*harness{a, b} {
			h.start(map[string]any{"apps": []any{"Form Demo", "Editor"}})
			note(h.readForm(nil))
			note(h.readEditor())
			h.ok("end_session", nil)
		}
	}
}

// A window target given with a token must name the token's window: a
// disagreeing app or pid is refused like a disagreeing window_id, and
// nothing is acted on. Fields that disagree with each other name no
// window at all, and fail as that target fails without a token.
func TestATargetThatDisagreesWithTheTokensWindowIsRefused(t *testing.T) {
	h := newHarness(t, nil)
	h.start(map[string]any{"apps": []any{"Form Demo", "Editor"}})
	tok := testkit.Token(t, h.readEditor(), "push_button", "New")
	formPid, editorPid := h.demo.FormApp.Pid(), h.demo.EditorApp.Pid()
	formWin, editorWin := uint64(h.demo.Form.Window.ID()), uint64(h.demo.Editor.Window.ID())
	refused := []struct {
		name string
		args map[string]any
		code engine.Code
	}{
		{"window_id of another window", map[string]any{"window_id": formWin}, engine.CodeStaleElementToken},
		{"app of another window", map[string]any{"app": "Form Demo"}, engine.CodeStaleElementToken},
		{"pid of another app", map[string]any{"pid": formPid}, engine.CodeStaleElementToken},
		{"window_id and pid of another window", map[string]any{"window_id": formWin, "pid": formPid}, engine.CodeStaleElementToken},
		{"app agrees, pid does not", map[string]any{"app": "Editor", "pid": formPid}, engine.CodeWindowTargetNotFound},
		{"window agrees, app does not", map[string]any{"window_id": editorWin, "app": "Form"}, engine.CodeWindowTargetNotFound},
		{"no such window", map[string]any{"window_id": 999999}, engine.CodeWindowTargetNotFound},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			h := h.on(t)
			before := h.desk.ChangeCalls()
			args := map[string]any{"element_token": tok}
			for k, v := range c.args {
				args[k] = v
			}
			e := h.fail(c.code, "click", args)
			if e["retry"] != nil && e["retry"] != "after_refresh" {
				t.Errorf("retry %v", e["retry"])
			}
			if got := h.desk.ChangeCalls(); got != before {
				t.Fatalf("a disagreeing target acted")
			}
			rootArgs := map[string]any{"root": tok}
			for k, v := range c.args {
				rootArgs[k] = v
			}
			h.fail(c.code, "get_window_state", rootArgs)
		})
	}
	agreeing := []map[string]any{
		{"app": "Editor"},
		{"app": "notes.txt"}, // a title fragment naming the same window
		{"pid": editorPid},
		{"window_id": editorWin, "pid": editorPid, "app": "Editor"},
	}
	for _, target := range agreeing {
		args := map[string]any{"element_token": tok}
		for k, v := range target {
			args[k] = v
		}
		h.ok("click", args)
		tok = testkit.Token(t, h.readEditor(), "push_button", "New")
	}
}

// get_window_state {root}: an ended session's root token is stale, even
// when the new session has read the same window since.
func TestAnEndedSessionsRootTokenIsStale(t *testing.T) {
	h := newHarness(t, nil)
	h.start(map[string]any{"apps": []any{"Editor"}})
	root := testkit.Token(t, h.readEditor(), "document_text", "")
	h.ok("get_window_state", map[string]any{"root": root})
	h.ok("end_session", nil)

	h.start(map[string]any{"apps": []any{"Editor"}})
	for i := 0; i < 3; i++ {
		h.readEditor()
	}
	h.fail(engine.CodeStaleElementToken, "get_window_state", map[string]any{"root": root})
	h.fail(engine.CodeStaleElementToken, "get_window_state", map[string]any{"app": "Editor", "root": root})
}
