package engine_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The contract test: every tool against the mock desktop, every input and
// output checked against its schema (harness.call), and for every tool its
// successes and every error it can produce. The last subtest checks that
// the whole matrix below was met.
//
// wantOutcomes lists, per tool, the outcomes ("ok" or a code) the contract
// test must produce.
var wantOutcomes = map[string][]string{
	"list_windows":               {"ok", "approval_denied", "backend_unavailable"},
	"start_session":              {"ok", "invalid_arguments", "window_target_not_found", "consent_denied"},
	"get_session_state":          {"ok", "no_session", "session_revoked"},
	"end_session":                {"ok", "no_session"},
	"get_window_state":           {"ok", "no_session", "invalid_arguments", "window_target_not_found", "app_not_approved", "ambiguous_target", "ambiguous_window_target", "stale_element_token", "window_gone", "app_not_responding", "consent_expired", "approval_denied"},
	"click":                      {"ok", "requires_takeover", "not_actionable", "element_disabled", "stale_element_token", "app_not_approved", "invalid_arguments", "occluded", "approval_denied", "consent_expired", "rate_limited", "user_took_over"},
	"double_click":               {"ok", "not_actionable", "requires_takeover"},
	"right_click":                {"ok", "not_actionable", "requires_takeover"},
	"type_text":                  {"ok", "secure_field", "sensitive_text", "not_actionable", "requires_takeover", "invalid_arguments", "focus_changed"},
	"set_value":                  {"ok", "secure_field", "sensitive_text", "not_actionable", "invalid_arguments"},
	"press_key":                  {"ok", "requires_takeover", "invalid_arguments"},
	"hotkey":                     {"ok", "requires_takeover", "invalid_arguments"},
	"scroll":                     {"ok", "requires_takeover", "invalid_arguments"},
	"drag":                       {"ok", "requires_takeover", "invalid_arguments"},
	"bring_to_front":             {"ok", "requires_takeover"},
	"move_cursor":                {"ok", "requires_takeover", "invalid_arguments"},
	"clipboard_read":             {"ok", "capability_not_consented", "sensitive_text", "clipboard_unavailable", "approval_denied"},
	"clipboard_write":            {"ok", "capability_not_consented", "sensitive_text"},
	"list_notifications":         {"unsupported"},
	"dismiss_notification":       {"unsupported"},
	"invoke_notification_action": {"unsupported"},
	"list_app_actions":           {"unsupported"},
	"app_action":                 {"unsupported"},
	"health_report":              {"ok"},
	"find_elements":              {"ok", "no_session", "invalid_arguments", "window_target_not_found"},
	"wait_for":                   {"ok", "no_session", "invalid_arguments", "stale_element_token", "app_not_responding", "busy"},
}

func TestContract(t *testing.T) {
	cov := &coverage{}

	t.Run("before a session", func(t *testing.T) {
		h := newHarness(t, cov)
		lw := h.ok("list_windows", nil)
		for _, w := range lw["windows"].([]any) {
			row := w.(map[string]any)
			if _, has := row["title"]; has {
				t.Fatalf("titles must not show before a session: %v", row)
			}
			if _, has := row["window_id"]; has {
				t.Fatalf("window ids must not show before a session: %v", row)
			}
		}
		if n := len(lw["windows"].([]any)); n != 3 {
			t.Fatalf("3 apps with windows, one row each; got %d", n)
		}
		for _, tool := range []string{"get_session_state", "end_session", "get_window_state", "click", "clipboard_read"} {
			h.fail(engine.CodeNoSession, tool, map[string]any{"element_token": "s1:1", "app": "Form Demo"})
		}
		h.ok("health_report", nil)
		for _, tool := range []string{"list_notifications", "list_app_actions"} {
			h.fail(engine.CodeUnsupported, tool, nil)
		}
		h.fail(engine.CodeUnsupported, "dismiss_notification", map[string]any{"id": "1"})
		h.fail(engine.CodeUnsupported, "invoke_notification_action", map[string]any{"id": "1", "action": "open"})
		h.fail(engine.CodeUnsupported, "app_action", map[string]any{"action": "excel.set_range_values"})
	})

	t.Run("start_session", func(t *testing.T) {
		h := newHarness(t, cov)
		h.fail(engine.CodeInvalidArguments, "start_session", map[string]any{"apps": []any{"Form Demo"}, "input": "visible"})
		if r := h.raw("start_session", map[string]any{"apps": []any{"Form Demo"}, "input": 3}); r.Err == nil || r.Err.Code != engine.CodeInvalidArguments {
			t.Fatalf("input of the wrong type is invalid_arguments: %s", r.Text)
		}
		h.fail(engine.CodeWindowTargetNotFound, "start_session", map[string]any{"apps": []any{"No Such App"}})
		h.fail(engine.CodeWindowTargetNotFound, "start_session", map[string]any{"apps": []any{99999}})
		h.desk.SetConsent(mock.Deny)
		h.fail(engine.CodeConsentDenied, "start_session", map[string]any{"apps": []any{"Form Demo"}})
		h.desk.SetConsent(mock.Ignore)
		h.fail(engine.CodeConsentDenied, "start_session", map[string]any{"apps": []any{"Form Demo"}})
		h.fail(engine.CodeNoSession, "get_session_state", nil)

		h.desk.SetConsent(mock.AllowAll)
		st := h.start(map[string]any{"apps": []any{"Form Demo", float64(h.demo.EditorApp.Pid())}, "lease_minutes": 5, "purpose": "fill the form"})
		if st["input"] != "headless" || st["dialog"] != true || len(st["apps"].([]any)) != 2 {
			t.Fatalf("session: %v", st)
		}
		if lease := st["lease"].(map[string]any); testkit.Int(t, lease, "remaining_s") != 300 {
			t.Fatalf("lease: %v", lease)
		}
		// Same apps, headless: no dialog.
		n := len(h.desk.ConsentRequests())
		again := h.ok("start_session", map[string]any{"apps": []any{"Form Demo"}})
		if again["dialog"] == true || len(h.desk.ConsentRequests()) != n {
			t.Fatal("a valid lease with the same apps must not ask again")
		}
		// A new app asks only for it.
		h.ok("start_session", map[string]any{"apps": []any{"Chat"}})
		reqs := h.desk.ConsentRequests()
		last := reqs[len(reqs)-1]
		if len(last.Apps) != 1 || last.Apps[0].Pid != h.demo.ChatApp.Pid() {
			t.Fatalf("the dialog must ask only for the new app: %+v", last.Apps)
		}
		if last.Host != "Test Host" {
			t.Fatalf("host name: %q", last.Host)
		}
		h.ok("get_session_state", nil)
		h.ok("end_session", nil)
		h.fail(engine.CodeNoSession, "end_session", nil)
	})

	t.Run("list_windows with a session", func(t *testing.T) {
		h := newHarness(t, cov)
		h.start(map[string]any{"apps": []any{"Form Demo"}})
		lw := h.ok("list_windows", nil)
		var approved, other int
		for _, w := range lw["windows"].([]any) {
			row := w.(map[string]any)
			if row["approved"] == true {
				approved++
				if row["title"] != mock.FormTitle || row["frame"] == nil {
					t.Fatalf("approved row: %v", row)
				}
			} else {
				other++
				if _, has := row["title"]; has {
					t.Fatalf("unapproved apps show no titles: %v", row)
				}
			}
		}
		if approved != 1 || other != 2 {
			t.Fatalf("approved %d other %d", approved, other)
		}
		h.desk.SetUnavailable(true)
		h.fail(engine.CodeBackendUnavailable, "list_windows", nil)
	})

	t.Run("get_window_state", func(t *testing.T) { testReads(t, newHarness(t, cov)) })
	t.Run("headless acts", func(t *testing.T) { testHeadlessActs(t, newHarness(t, cov)) })
	t.Run("takeover acts", func(t *testing.T) { testTakeoverActs(t, newHarness(t, cov)) })
	t.Run("host approvals", func(t *testing.T) { testApprovals(t, newHarness(t, cov, withHost())) })
	t.Run("clipboard", func(t *testing.T) { testClipboard(t, cov) })
	t.Run("lease and revocation", func(t *testing.T) { testLease(t, newHarness(t, cov, withHost())) })
	t.Run("faults", func(t *testing.T) { testFaults(t, newHarness(t, cov)) })
	t.Run("bad input", func(t *testing.T) { testBadInput(t, newHarness(t, cov)) })
	t.Run("find_elements", func(t *testing.T) { testFindElements(t, newHarness(t, cov)) })
	t.Run("wait_for", func(t *testing.T) { testWaitFor(t, newHarness(t, cov)) })
	t.Run("wait_for reads what changed", func(t *testing.T) { testWaitForReadsWhatChanged(t, newHarness(t, cov)) })
	t.Run("wait_for in a cut window", func(t *testing.T) {
		testWaitForInACutWindow(t, newHarness(t, cov, withZoomBudget(engine.Budget{MaxElements: 150, MaxDepth: 50})))
	})
	t.Run("wait_for idle", func(t *testing.T) { testAnIdleWaitReadsNothing(t, newHarness(t, cov)) })
	t.Run("wait_for bounded per session", func(t *testing.T) { testWaitsInFlightAreBounded(t, newHarness(t, cov)) })

	t.Run("every tool met its outcomes", func(t *testing.T) {
		if t.Failed() {
			return
		}
		names := engine.ToolNames()
		sort.Strings(names)
		for _, tool := range names {
			want, ok := wantOutcomes[tool]
			if !ok {
				t.Errorf("%s has no row in wantOutcomes", tool)
				continue
			}
			for _, o := range want {
				if !cov.seen[tool][o] {
					t.Errorf("%s never produced %s", tool, o)
				}
			}
		}
	})
}

func testReads(t *testing.T, h *harness) {
	// A backend that lets secure values through must not get them past
	// the engine (harness.check fails on the canary in any result).
	h.desk.LeakSecureValues(true)
	h.start(nil)
	form := h.demo.Form.Window.ID()

	full := h.readForm(nil)
	snap := full["snapshot_id"].(string)
	text := full["tree_text"].(string)
	first := strings.SplitN(text, "\n", 2)[0]
	if !strings.HasPrefix(first, snap+" ") || !strings.Contains(first, "window=") {
		t.Fatalf("tree_text must start with the snapshot and the window: %q", first)
	}
	if full["truncated"] != false {
		t.Fatalf("a default read of the form is whole: %s", text)
	}
	var secureRows int
	for _, e := range full["elements"].([]any) {
		row := e.(map[string]any)
		if row["secure"] == true {
			secureRows++
			if _, has := row["value"]; has {
				t.Fatal("a secure row has no value")
			}
		}
	}
	if secureRows != 1 {
		t.Fatalf("the password field is one secure row, got %d", secureRows)
	}
	// Rows are compact on a form-like window.
	rows := testkit.Int(t, full, "element_count")
	perRow := float64(len(text)-len(first)) / float64(rows)
	t.Logf("form: %d rows, tree_text %d bytes, %.1f bytes a row", rows, len(text), perRow)
	if perRow > 30 {
		t.Errorf("tree_text spends %.1f bytes a row on a form; the budget is 30", perRow)
	}

	// Row numbers are stable across reads, skeleton and drill-down alike.
	save := testkit.Token(h.t, full, "push_button", "Save")
	again := h.readForm(nil)
	if idx := strings.Split(testkit.Token(h.t, again, "push_button", "Save"), ":")[1]; idx != strings.Split(save, ":")[1] {
		t.Fatalf("Save's row number moved: %s vs %s", save, idx)
	}

	// Limits.
	small := h.readForm(map[string]any{"max_elements": 5})
	if testkit.Int(t, small, "element_count") != 5 || small["truncated"] != true {
		t.Fatalf("max_elements 5: %v rows, truncated %v", small["element_count"], small["truncated"])
	}
	shallow := h.readForm(map[string]any{"max_depth": 1})
	for _, row := range testkit.Rows(t, shallow) {
		if testkit.Int(t, row, "depth") > 1 {
			t.Fatal("max_depth 1 returned a deeper row")
		}
	}

	// Skeleton of a dense window: small, no secure rows, contract row fields.
	chat := h.ok("get_window_state", map[string]any{"window_id": uint64(h.demo.ChatMain.ID())})
	chatFull := h.ok("get_window_state", map[string]any{"window_id": uint64(h.demo.ChatMain.ID()), "max_elements": 5000})
	skel := h.ok("get_window_state", map[string]any{"window_id": uint64(h.demo.ChatMain.ID()), "skeleton": true})
	fullBytes := len(testkit.JSON(t, chatFull)) + len(chatFull["tree_text"].(string))
	skelBytes := len(testkit.JSON(t, skel)) + len(skel["tree_text"].(string))
	t.Logf("chat: full %d bytes (%d rows), skeleton %d bytes (%d rows): %.1f%%", fullBytes, testkit.Int(t, chatFull, "element_count"),
		skelBytes, testkit.Int(t, skel, "element_count"), 100*float64(skelBytes)/float64(fullBytes))
	if float64(skelBytes) > 0.15*float64(fullBytes) {
		t.Errorf("a skeleton read must be at most 15%% of the full read's bytes")
	}
	for _, e := range skel["elements"].([]any) {
		row := e.(map[string]any)
		if _, ok := row["descendant_count"]; !ok {
			t.Fatal("skeleton rows carry descendant_count")
		}
	}
	if !strings.Contains(skel["tree_text"].(string), "descendants=") {
		t.Fatal("skeleton text lines carry children= and descendants=")
	}
	_ = chat
	formSkel := h.readForm(map[string]any{"skeleton": true})
	if strings.Contains(formSkel["tree_text"].(string), "password") {
		t.Fatal("skeleton reads never list secure fields")
	}

	// Drill-down: a list's region, and a text element's whole text redacted.
	list := testkit.Token(h.t, chatFull, "list", "Channels")
	region := h.ok("get_window_state", map[string]any{"root": list})
	if region["root"] != list || testkit.Int(t, region, "element_count") != 21 {
		t.Fatalf("drill-down into Channels: %v rows\n%s", region["element_count"], region["tree_text"])
	}
	ed := h.ok("get_window_state", map[string]any{"app": "Editor"})
	doc := testkit.Token(h.t, ed, "document_text", "")
	docRead := h.ok("get_window_state", map[string]any{"root": doc})
	body, _ := docRead["text"].(string)
	if !strings.Contains(body, "Meeting notes") || !strings.Contains(body, "[redacted]") {
		t.Fatalf("drill-down text must carry the document with secrets redacted: %q", body)
	}

	// Screenshot: the password field blacked out.
	shot := h.call("get_window_state", map[string]any{"window_id": uint64(form), "include_screenshot": true})
	if shot.Image == nil || len(shot.Image.Data) < 100 {
		t.Fatalf("screenshot missing: %s", shot.Text)
	}
	if info := testkit.Decode(t, shot.Structured)["screenshot"].(map[string]any); testkit.Int(t, info, "blacked_out") != 1 {
		t.Fatalf("one secure frame blacked out: %v", info)
	}
	if hasCanaryPixels(t, shot.Image.Data) {
		t.Fatal("the password field's pixels reached the screenshot")
	}

	// Targets.
	h.fail(engine.CodeAmbiguousWindowTarget, "get_window_state", nil)
	amb := h.fail(engine.CodeAmbiguousTarget, "get_window_state", map[string]any{"app": "Chat"})
	if c := amb["candidates"].([]any); len(c) != 2 {
		t.Fatalf("candidates: %v", c)
	}
	h.ok("get_window_state", map[string]any{"app": "Direct messages"})
	h.ok("get_window_state", map[string]any{"pid": h.demo.FormApp.Pid()})
	h.fail(engine.CodeWindowTargetNotFound, "get_window_state", map[string]any{"window_id": 123})
	h.fail(engine.CodeWindowTargetNotFound, "get_window_state", map[string]any{"app": "nothing like it"})
	h.fail(engine.CodeInvalidArguments, "get_window_state", map[string]any{"window_id": uint64(form), "root": "not-a-token"})
	h.fail(engine.CodeInvalidArguments, "get_window_state", map[string]any{"window_id": uint64(form), "skeleton": true, "max_elements": 201})
	h.fail(engine.CodeStaleElementToken, "get_window_state", map[string]any{"root": "s999:1"})

	// Another app outside the grant.
	other := newHarness(t, h.cov)
	other.start(map[string]any{"apps": []any{"Editor"}})
	other.fail(engine.CodeAppNotApproved, "get_window_state", map[string]any{"window_id": uint64(form)})
	other.fail(engine.CodeAppNotApproved, "get_window_state", map[string]any{"app": "Form Demo"})
}

func testHeadlessActs(t *testing.T, h *harness) {
	h.desk.LeakSecureValues(true)
	h.start(nil)
	f := h.demo.Form
	read := h.readForm(nil)

	// Click Save: the status label changes late; settle waits for it.
	res := h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save")})
	if res["path"] != "atspi_action" || res["took_cursor"] != false || res["effect"] != "changed" {
		t.Fatalf("click Save: %v", res)
	}
	if st := res["settle"].(map[string]any); st["settled"] != true || testkit.Int(t, st, "ms") < int(mock.SaveDelay/time.Millisecond)-5 {
		t.Fatalf("settle must wait for the late change: %v", st)
	}
	if changed := res["diff"].(map[string]any)["changed"].([]any); len(changed) == 0 {
		t.Fatalf("the diff shows the status label: %v", res["diff"])
	}
	if len(h.desk.Sent()) != 0 {
		t.Fatal("a headless act sends no synthetic input")
	}

	// A check box toggles: confirmed.
	read = h.readForm(nil)
	res = h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Remember me")})
	if res["effect"] != "confirmed" || res["verified"] != true {
		t.Fatalf("toggle: %v", res)
	}

	// Refusals.
	read = h.readForm(nil)
	h.fail(engine.CodeNotActionable, "click", map[string]any{"element_token": testkit.Token(t, read, "image", "")})
	e := h.fail(engine.CodeNotActionable, "double_click", map[string]any{"element_token": testkit.Token(t, read, "image", "")})
	if esc := e["escalation"].(map[string]any); esc["recommend"] != "takeover" {
		t.Fatalf("escalation: %v", esc)
	}
	h.fail(engine.CodeNotActionable, "right_click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save")})
	h.fail(engine.CodeElementDisabled, "click", map[string]any{"element_token": testkit.Token(t, read, "push_button", f.Unavailable.Name())})
	h.fail(engine.CodeRequiresTakeover, "click", map[string]any{"window_id": uint64(f.Window.ID()), "x": 10, "y": 10})
	h.fail(engine.CodeRequiresTakeover, "click", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save"), "delivery_mode": "foreground"})
	h.fail(engine.CodeInvalidArguments, "click", map[string]any{"app": "Form Demo"})
	for _, tool := range []string{"double_click", "right_click"} {
		h.fail(engine.CodeRequiresTakeover, tool, map[string]any{"window_id": uint64(f.Window.ID()), "x": 10, "y": 10})
	}

	// Typing and values.
	name := testkit.Token(t, read, "entry", f.Name.Name())
	res = h.ok("type_text", map[string]any{"element_token": name, "text": "Ada"})
	if res["path"] != "atspi_text" || res["effect"] != "confirmed" {
		t.Fatalf("type_text: %v", res)
	}
	if !strings.Contains(f.Name.Value(), "Ada") {
		t.Fatalf("the entry holds %q", f.Name.Value())
	}
	// The settled snapshot is fresh: the diff carries the entry's new value.
	if d, _ := json.Marshal(res["diff"]); !strings.Contains(string(d), f.Name.Value()) {
		t.Fatalf("the diff must show the typed value: %s", d)
	}
	pw := testkit.Token(t, read, "password_text", "")
	h.fail(engine.CodeSecureField, "type_text", map[string]any{"element_token": pw, "text": "hunter2"})
	h.fail(engine.CodeSecureField, "set_value", map[string]any{"element_token": pw, "value": "x"})
	h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"element_token": name, "text": "api_key=sk-live-0123456789abcdefghij"})
	h.fail(engine.CodeSensitiveText, "set_value", map[string]any{"element_token": name, "value": "ghp_0123456789abcdefghijABCDEFGHIJ012345"})
	h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"element_token": name, "text": "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----"})
	for _, c := range h.desk.Texts() {
		if strings.Contains(c.Text, "hunter2") || strings.Contains(c.Text, "api_key") {
			t.Fatal("a refused text reached the app")
		}
	}
	h.fail(engine.CodeNotActionable, "type_text", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save"), "text": "x"})
	h.fail(engine.CodeInvalidArguments, "type_text", map[string]any{"app": "Form Demo", "text": "x"})
	h.fail(engine.CodeRequiresTakeover, "type_text", map[string]any{"app": "Form Demo", "text": "x", "delivery_mode": "foreground"})

	res = h.ok("set_value", map[string]any{"element_token": testkit.Token(t, read, "spin_button", ""), "value": 42})
	if res["readback"] != "match" || res["effect"] != "confirmed" || res["path"] != "atspi_value" {
		t.Fatalf("set_value spin: %v", res)
	}
	res = h.ok("set_value", map[string]any{"element_token": testkit.Token(t, read, "entry", f.Email.Name()), "value": "ada@example.org"})
	if res["readback"] != "match" || res["path"] != "atspi_text" {
		t.Fatalf("set_value entry: %v", res)
	}
	h.fail(engine.CodeNotActionable, "set_value", map[string]any{"element_token": testkit.Token(t, read, "push_button", "Save"), "value": "x"})
	h.fail(engine.CodeInvalidArguments, "set_value", map[string]any{"element_token": name})

	// Structural change: old tokens go stale, unchanged rows keep numbers.
	read = h.readForm(nil)
	save := testkit.Token(t, read, "push_button", "Save")
	h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "push_button", f.AddRow.Name())})
	h.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": save})
	fresh := h.readForm(nil)
	if strings.Split(testkit.Token(t, fresh, "push_button", "Save"), ":")[1] != strings.Split(save, ":")[1] {
		t.Fatal("an unchanged element keeps its row number after a structural change")
	}

	// Synthetic-only tools in headless.
	win := uint64(f.Window.ID())
	for tool, args := range map[string]map[string]any{
		"press_key":      {"window_id": win, "key": "Return"},
		"hotkey":         {"window_id": win, "keys": []any{"Control_L", "s"}},
		"scroll":         {"window_id": win, "direction": "down"},
		"drag":           {"window_id": win, "from_x": 1, "from_y": 1, "to_x": 5, "to_y": 5},
		"bring_to_front": {"window_id": win},
		"move_cursor":    {"window_id": win, "x": 5, "y": 5},
	} {
		h.fail(engine.CodeRequiresTakeover, tool, args)
	}
	if len(h.desk.Sent()) != 0 {
		t.Fatal("refused acts sent input")
	}

	// observe: a fresh tree and a screenshot ride along.
	read = h.readForm(nil)
	res = h.ok("click", map[string]any{"element_token": testkit.Token(t, read, "check_box", "Dark mode"), "observe": map[string]any{"tree": true, "screenshot": true}})
	obs := res["observe"].(map[string]any)
	if obs["tree_text"] == nil || obs["screenshot"] == nil || obs["snapshot_id"] != res["snapshot_id"] {
		t.Fatalf("observe: %v", obs)
	}

	// An app outside the session: refused, nothing sent.
	h2 := newHarness(t, h.cov)
	h2.start(map[string]any{"apps": []any{"Editor"}, "input": "takeover"})
	calls := len(h2.desk.CallsOf("DoAction"))
	h2.fail(engine.CodeAppNotApproved, "click", map[string]any{"app": "Form Demo", "x": 1, "y": 1, "delivery_mode": "foreground"})
	h2.fail(engine.CodeAppNotApproved, "type_text", map[string]any{"pid": h2.demo.FormApp.Pid(), "text": "x", "delivery_mode": "foreground"})
	if len(h2.desk.CallsOf("DoAction")) != calls {
		t.Fatal("an unapproved app was acted on")
	}
	// A token from one harness's read is unknown to another session.
	h2.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": save})

	// The act bucket.
	read = h.readForm(nil)
	cb := testkit.Token(t, read, "check_box", "Dark mode")
	limited := false
	for i := 0; i < 40 && !limited; i++ {
		r := h.call("click", map[string]any{"element_token": cb})
		limited = r.Err != nil && r.Err.Code == engine.CodeRateLimited
	}
	if !limited {
		t.Fatal("a burst of acts must meet rate_limited")
	}
}
