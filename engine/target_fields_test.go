package engine_test

import (
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
)

// TestEveryTargetFieldIsAFilter: window_id, pid and app given together must
// all name the window used (docs/contract.md#window-targets). Fields that
// agree name it; fields that disagree name no window and are
// window_target_not_found with a message that says so without app text,
// whichever field comes first, on every window tool. Before, window_id
// beat app (an Editor read for app "Form Demo") while window_id with
// another pid was refused.
func TestEveryTargetFieldIsAFilter(t *testing.T) {
	h := newHarness(t, nil)
	outside := h.desk.AddApp("Outside", "/usr/bin/outside")
	outsideWin := uint64(mock.DenseWindow(outside, "Outside notes", 3).ID())
	h.start(map[string]any{"input": "takeover"})
	form, editor := uint64(h.demo.Form.Window.ID()), uint64(h.demo.Editor.Window.ID())
	chatDirect := uint64(h.demo.ChatDirect.ID())
	formPid, editorPid, chatPid := h.demo.FormApp.Pid(), h.demo.EditorApp.Pid(), h.demo.ChatApp.Pid()
	// A pid alone means its topmost window; with an app too, the same.
	chatTop := uint64(h.ok("get_window_state", map[string]any{"pid": chatPid})["window"].(map[string]any)["window_id"].(float64))
	const conflict = "given do not name one window"
	cases := []struct {
		name   string
		target map[string]any
		want   uint64      // the window used; 0 when refused
		code   engine.Code // the refusal
		msg    string      // what the refusal's message holds
	}{
		{"window_id and app agree", map[string]any{"window_id": form, "app": "Form Demo"}, form, "", ""},
		{"window_id and an app fragment agree", map[string]any{"window_id": form, "app": "settings"}, form, "", ""},
		{"window_id and pid agree", map[string]any{"window_id": form, "pid": formPid}, form, "", ""},
		{"pid and app agree", map[string]any{"pid": formPid, "app": "Form Demo"}, form, "", ""},
		{"all three agree", map[string]any{"window_id": editor, "pid": editorPid, "app": "Editor"}, editor, "", ""},
		{"window_id narrows an ambiguous app", map[string]any{"window_id": chatDirect, "app": "Chat"}, chatDirect, "", ""},
		{"pid with app is the pid's topmost", map[string]any{"pid": chatPid, "app": "Chat"}, chatTop, "", ""},

		{"window_id and app disagree", map[string]any{"window_id": editor, "app": "Form Demo"}, 0, engine.CodeWindowTargetNotFound, "window_id and app " + conflict},
		{"window_id and pid disagree", map[string]any{"window_id": form, "pid": editorPid}, 0, engine.CodeWindowTargetNotFound, "window_id and pid " + conflict},
		{"pid and app disagree", map[string]any{"pid": editorPid, "app": "Form Demo"}, 0, engine.CodeWindowTargetNotFound, "pid and app " + conflict},
		{"all three, app disagrees", map[string]any{"window_id": form, "pid": formPid, "app": "Editor"}, 0, engine.CodeWindowTargetNotFound, "window_id, pid and app " + conflict},
		{"all three, pid disagrees", map[string]any{"window_id": editor, "pid": formPid, "app": "Editor"}, 0, engine.CodeWindowTargetNotFound, conflict},
		{"all three, window_id disagrees", map[string]any{"window_id": editor, "pid": formPid, "app": "Form Demo"}, 0, engine.CodeWindowTargetNotFound, conflict},
		{"a window outside the session, agreeing", map[string]any{"window_id": outsideWin, "app": "Outside"}, 0, engine.CodeAppNotApproved, "outside this session"},
		{"a window outside the session, disagreeing", map[string]any{"window_id": outsideWin, "pid": formPid}, 0, engine.CodeWindowTargetNotFound, conflict},
		{"a pid outside the session with an approved app", map[string]any{"pid": outside.Pid(), "app": "Form Demo"}, 0, engine.CodeWindowTargetNotFound, conflict},
	}
	// Every window tool, with what it needs besides the target.
	tools := []struct {
		tool  string
		extra map[string]any
	}{
		{"get_window_state", nil},
		{"find_elements", map[string]any{"role": "frame"}},
		{"wait_for", map[string]any{"condition": map[string]any{"kind": "title", "text": " "}, "timeout_ms": 0}},
		{"bring_to_front", nil},
	}
	for _, c := range cases {
		for _, tl := range tools {
			t.Run(c.name+"/"+tl.tool, func(t *testing.T) {
				h := h.on(t)
				args := map[string]any{}
				for k, v := range tl.extra {
					args[k] = v
				}
				for k, v := range c.target {
					args[k] = v
				}
				if c.code == "" {
					res := h.ok(tl.tool, args)
					if w, ok := res["window"].(map[string]any); ok && uint64(w["window_id"].(float64)) != c.want {
						t.Fatalf("used window %v, want %d", w["window_id"], c.want)
					}
					return
				}
				e := h.fail(c.code, tl.tool, args)
				msg, _ := e["message"].(string)
				if !strings.Contains(msg, c.msg) {
					t.Fatalf("message %q does not say %q", msg, c.msg)
				}
				for _, app := range []string{"Form Demo", "Editor", "Outside", "Chat"} {
					if strings.Contains(msg, app) {
						t.Fatalf("message %q quotes app text", msg)
					}
				}
			})
		}
	}
}
