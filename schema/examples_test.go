package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Example documents every validator must accept or refuse. A refused
// example names the fields its error must mention.

func ptr[T any](v T) *T { return &v }

// drop, as the value given to with, removes the key.
type dropKey struct{}

var drop = dropKey{}

// with copies m with key set to v (nil sets JSON null; drop removes it).
func with(m map[string]any, key string, v any) map[string]any {
	out := map[string]any{}
	for k, x := range m {
		out[k] = x
	}
	if v == drop {
		delete(out, key)
	} else {
		out[key] = v
	}
	return out
}

var frame = engine.Rect{X: 0, Y: 0, W: 800, H: 600}

func elementRow(i int, parent *int) engine.ElementRow {
	return engine.ElementRow{ElementIndex: i, ElementToken: "s3:" + fmtInt(i), Role: "push_button", Label: "OK",
		States: []string{"focusable"}, Actions: []string{"click"}, ParentIndex: parent, Depth: 1, ChildCount: 0,
		Frame: engine.Rect{X: 10, Y: 20, W: 80, H: 24}}
}

func fullAct() engine.ActResult {
	stale := engine.Errf(engine.CodeRateLimited, "capture rate above 5 per second").Body()
	return engine.ActResult{
		OK: true, Effect: "changed", Verified: false, Path: "atspi_action", TookCursor: false,
		Escalation: &engine.Escalation{Recommend: "takeover", Reason: "no accessible action"},
		Diff: &engine.Diff{
			Added:   []engine.DiffRow{{ElementIndex: 9, Role: "dialog", Label: "Saved"}},
			Removed: []engine.DiffRow{},
			Changed: []engine.DiffChange{{ElementIndex: 4, Fields: []string{"value"}, Value: ptr("42")}},
		},
		SnapshotID: "s4", Settle: &engine.Settle{Ms: 120, Settled: true}, Action: "click", ScrolledIntoView: true,
		Observe: &engine.Observation{SnapshotID: "s4", Truncated: false,
			Elements: []engine.ElementRow{elementRow(1, nil), elementRow(2, ptr(1))}, TreeText: "s4\n[1] frame",
			Screenshot:      &engine.ImageInfo{MIMEType: "image/png", Width: 800, Height: 600, Bytes: 5120},
			ScreenshotError: &stale},
	}
}

func minimalAct() engine.ActResult {
	return engine.ActResult{OK: true, Effect: "no_change", Path: "xtest", TookCursor: true}
}

func windowState(elements any, skeleton bool) engine.WindowStateResult {
	return engine.WindowStateResult{OK: true, SnapshotID: "s3",
		Window:   engine.WindowInfo{WindowID: 41943047, Pid: 5120, App: "gedit", Title: "notes.txt", Frame: frame},
		Skeleton: skeleton, Elements: elements, ElementCount: 2, TreeText: "s3\n[1] frame \"notes.txt\""}
}

func sessionResult() engine.SessionResult {
	return engine.SessionResult{OK: true, Session: "mcp:claude-desktop:4242", Active: true, Input: "takeover",
		Takeover:     engine.TakeoverState{On: true, Indicator: true, Paused: true, PausedReason: "pointer_moved"},
		Apps:         []engine.AppState{{Pid: 5120, App: "gedit"}},
		Lease:        &engine.LeaseState{ExpiresAtMs: 1800000, RemainingS: 1799},
		Capabilities: engine.ConsentedCapabilities{Takeover: true, ClipboardRead: true}, Dialog: true}
}

func healthResult() engine.HealthResult {
	return engine.HealthResult{OK: true, Ready: false, SessionType: "x11", DriverVersion: "0.1.0-dev",
		ContractVersion: engine.ContractVersion,
		Backends: []engine.RegistryEntryOut{
			{ID: "x11", Status: "available", Required: true},
			{ID: "atspi", Status: "unavailable", Required: true, ReasonCode: ptr("atspi_bus_unreachable"),
				Action: ptr("Turn on assistive technologies, then sign in again.")},
		},
		Capabilities: []engine.CapabilityOut{
			{Name: "clipboard_read", Status: "available", Consent: "separate"},
			{Name: "list_notifications", Status: "unsupported", ReasonCode: ptr("no_platform_api"), Consent: "session"},
		}}
}

// doctorReport is a full doctor report (docs/contract.md#doctor-report) with
// every part filled in.
const doctorReport = `{"schema": "nish-driver/doctor", "schema_version": 2,
 "driver_version": "0.1.0", "contract_version": "0.8.0",
 "platform": "linux", "session_type": "x11",
 "ready": false,
 "backends": [{"id": "x11", "status": "available", "required": true, "reason_code": null, "action": null},
              {"id": "atspi", "status": "unavailable", "required": true, "reason_code": "atspi_bus_unreachable",
               "action": "Turn on assistive technologies in your desktop's accessibility settings, then sign out and in again."},
              {"id": "wayland-portal", "status": "planned", "required": false, "reason_code": "wayland_portal_not_built",
               "action": "The Wayland portals backend is planned; use an X11 session for now."}],
 "capabilities": [{"name": "clipboard_read", "status": "available", "reason_code": null, "action": null, "consent": "separate"}],
 "permissions": [{"name": "accessibility", "status": "missing", "reason_code": "atspi_bus_unreachable", "action": "Turn on assistive technologies."},
                 {"name": "screen_capture", "status": "not_applicable", "reason_code": null, "action": null}],
 "next_steps": [{"reason_code": "atspi_bus_unreachable", "backend": "atspi", "permission": "accessibility", "required": true, "action": "Turn on assistive technologies."}],
 "network": {"code_paths": "none", "telemetry": false, "update_check": false},
 "ok": false,
 "probes": [{"label": "display server", "status": "ok", "message": "X11 :0"}]}`

func doctorMap(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doctorReport), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func ambiguous() engine.Envelope {
	e := engine.Errf(engine.CodeAmbiguousTarget, "2 approved windows match app")
	e.Candidates = []engine.Candidate{{WindowID: 41943047, Pid: 5120, App: "Slack"}, {WindowID: 41943112, Pid: 5121, App: "Slack"}}
	return e.Envelope()
}

type example struct {
	name     string
	validate func(doc any) error
	doc      any
	// wantErr lists what a refusal must mention; nil means the document
	// must pass.
	wantErr []string
}

func outputOf(tool string) func(any) error {
	return func(d any) error { return ValidateOutput(tool, d) }
}
func inputOf(tool string) func(any) error { return func(d any) error { return ValidateInput(tool, d) } }

func outputExamples(t *testing.T) []example {
	act := testkit.Decode(t, fullAct())
	gws := testkit.Decode(t, windowState([]engine.ElementRow{elementRow(1, nil), elementRow(2, ptr(1))}, false))
	skel := engine.SkeletonRow{ElementIndex: 1, ElementToken: "s3:1", Role: "frame", Label: "notes.txt", Depth: 0,
		ChildCount: 2, DescendantCount: 40, Frame: frame}
	secure := elementRow(5, ptr(1))
	secure.Secure = true
	secure.Value = ptr("hunter2")
	noWindows := engine.ListWindowsResult{OK: true, Session: false, Windows: []engine.WindowRow{{Pid: 5120, App: "gedit"}}}
	return []example{
		{"full act result", outputOf("click"), fullAct(), nil},
		{"minimal act result", outputOf("press_key"), minimalAct(), nil},
		{"set_value readback", outputOf("set_value"), engine.ActResult{OK: true, Effect: "confirmed", Verified: true,
			Path: "atspi_text", Readback: "match", TypedCharacters: ptr(5)}, nil},
		{"act result with an unknown field", outputOf("click"), with(act, "surprise", 1), []string{"surprise"}},
		{"act result with an unknown observe field", outputOf("click"),
			with(act, "observe", with(act["observe"].(map[string]any), "pixels", 1)), []string{"observe", "pixels"}},
		{"act result with an unknown effect", outputOf("click"), with(act, "effect", "done"), []string{"effect"}},
		{"act result with an unknown path", outputOf("click"), with(act, "path", "mouse"), []string{"path"}},
		{"act result without took_cursor", outputOf("click"), with(act, "took_cursor", drop), []string{"took_cursor"}},
		{"act result with ok false", outputOf("click"), with(act, "ok", false), []string{"ok"}},
		{"act result with a null diff list", outputOf("click"),
			with(act, "diff", with(act["diff"].(map[string]any), "added", nil)), []string{"diff", "added"}},
		{"act result with a bad readback", outputOf("set_value"), with(act, "readback", "maybe"), []string{"readback"}},
		{"full read", outputOf("get_window_state"), windowState([]engine.ElementRow{elementRow(1, nil), elementRow(2, ptr(1))}, false), nil},
		{"skeleton read", outputOf("get_window_state"), windowState([]engine.SkeletonRow{skel}, true), nil},
		{"read with screenshot error and text", outputOf("get_window_state"), func() engine.WindowStateResult {
			w := windowState([]engine.ElementRow{}, false)
			w.Root, w.Text, w.TextTruncated = "s2:7", ptr("Dear Ann,"), true
			body := engine.Errf(engine.CodeRateLimited, "capture rate above 5 per second").Body()
			w.ScreenshotError = &body
			return w
		}(), nil},
		{"read with null elements", outputOf("get_window_state"), windowState(nil, false), []string{"elements"}},
		{"row without parent_index", outputOf("get_window_state"),
			with(gws, "elements", []any{with(testkit.Decode(t, elementRow(1, nil)), "parent_index", drop)}), []string{"elements.0"}},
		{"secure row with a value", outputOf("get_window_state"), windowState([]engine.ElementRow{secure}, false),
			[]string{"elements.0"}},
		{"row with a malformed token", outputOf("get_window_state"),
			with(gws, "elements", []any{with(testkit.Decode(t, elementRow(1, nil)), "element_token", "row-1")}), []string{"elements.0"}},
		{"list_windows without a session", outputOf("list_windows"), noWindows, nil},
		{"list_windows with a session", outputOf("list_windows"), engine.ListWindowsResult{OK: true, Session: true,
			Windows: []engine.WindowRow{
				{WindowID: 41943047, Pid: 5120, App: "gedit", Title: "notes.txt", Frame: &frame, Focused: ptr(true),
					OnScreen: ptr(true), Stacking: ptr(0), Approved: ptr(true)},
				{Pid: 6000, App: "firefox", Approved: ptr(false)},
			}}, nil},
		{"list_windows with a null list", outputOf("list_windows"), with(testkit.Decode(t, noWindows), "windows", nil), []string{"windows"}},
		{"session state", outputOf("get_session_state"), sessionResult(), nil},
		{"start_session", outputOf("start_session"), sessionResult(), nil},
		{"session with an unknown paused_reason", outputOf("get_session_state"), func() engine.SessionResult {
			s := sessionResult()
			s.Takeover.PausedReason = "bored"
			return s
		}(), []string{"takeover.paused_reason"}},
		{"session with an unknown input", outputOf("start_session"), func() engine.SessionResult {
			s := sessionResult()
			s.Input = "both"
			return s
		}(), []string{"input"}},
		{"end_session", outputOf("end_session"), engine.EndSessionResult{OK: true, Session: "mcp:host:1", Ended: true}, nil},
		{"clipboard_read", outputOf("clipboard_read"), engine.ClipboardReadResult{OK: true, Text: "hello", Length: 5}, nil},
		{"health_report", outputOf("health_report"), healthResult(), nil},
		{"health_report with an unknown reason", outputOf("health_report"), func() engine.HealthResult {
			h := healthResult()
			h.Backends[1].ReasonCode = ptr("gremlins")
			return h
		}(), []string{"backends.1"}},
		{"health_report with an available backend giving a reason", outputOf("health_report"), func() engine.HealthResult {
			h := healthResult()
			h.Backends[0].ReasonCode = ptr("xtest_missing")
			return h
		}(), []string{"backends.0"}},
		{"health_report with an unknown capability", outputOf("health_report"), func() engine.HealthResult {
			h := healthResult()
			h.Capabilities[0].Name = "teleport"
			return h
		}(), []string{"capabilities.0"}},
		{"notifications", outputOf("list_notifications"), map[string]any{"ok": true, "notifications": []any{
			map[string]any{"id": "n1", "app": "Mail", "summary": "New mail", "body": "From Ann"}}}, nil},
		{"notification without a summary", outputOf("list_notifications"), map[string]any{"ok": true, "notifications": []any{
			map[string]any{"id": "n1", "app": "Mail", "body": "From Ann"}}}, []string{"notifications.0"}},
		{"dismissed notification", outputOf("dismiss_notification"), minimalAct(), nil},
		{"app actions", outputOf("list_app_actions"), map[string]any{"ok": true, "app": "excel", "actions": []any{
			map[string]any{"action": "excel.set_range_values", "risk": "edit", "consequential": false,
				"params": map[string]any{"type": "object", "required": []any{"range", "values"}}},
			map[string]any{"action": "word.save_document", "risk": "write_file", "consequential": true, "params": map[string]any{}},
		}}, nil},
		{"app action without consequential", outputOf("list_app_actions"), map[string]any{"ok": true, "app": "excel",
			"actions": []any{map[string]any{"action": "a.b", "risk": "edit", "params": map[string]any{}}}}, []string{"actions.0"}},
		{"app action result", outputOf("app_action"), map[string]any{"ok": true, "effect": "confirmed", "verified": true,
			"path": "app_action", "readback": "match", "diff": []any{map[string]any{"range": "A1", "from": 1, "to": 2}}}, nil},
		{"app action result on another path", outputOf("app_action"), map[string]any{"ok": true, "effect": "confirmed",
			"verified": true, "path": "xtest"}, []string{"path"}},
	}
}

func errorExamples(t *testing.T) []example {
	env := testkit.Decode(t, ambiguous())
	body := env["error"].(map[string]any)
	tooMany := []any{}
	for i := 0; i < 9; i++ {
		tooMany = append(tooMany, map[string]any{"window_id": 1 + i, "pid": 100, "app": "Slack"})
	}
	stopped := engine.Errf(engine.CodeUserTookOver, "the person moved the pointer")
	stopped.Effect, stopped.PausedReason, stopped.TypedCharacters = "stopped", "pointer_moved", ptr(3)
	escalated := engine.Errf(engine.CodeNotActionable, "element 4 has no action")
	escalated.Escalation = &engine.Escalation{Recommend: "takeover", Reason: "no accessible action"}
	return []example{
		{"ambiguous target with candidates", ValidateError, ambiguous(), nil},
		{"user took over", ValidateError, stopped.Envelope(), nil},
		{"not actionable with escalation", ValidateError, escalated.Envelope(), nil},
		{"envelope as JSON text", ValidateError, json.RawMessage(`{"ok":false,"error":{"code":"busy","message":"m",` +
			`"disposition":{"retry":"safe"},"suggestion":"Wait."}}`), nil},
		{"unknown code", ValidateError, with(env, "error", with(body, "code", "oops")), []string{"error.code"}},
		{"ok true", ValidateError, with(env, "ok", true), []string{"ok"}},
		{"no disposition", ValidateError, with(env, "error", with(body, "disposition", drop)), []string{"disposition"}},
		{"unknown retry", ValidateError, with(env, "error", with(body, "disposition", map[string]any{"retry": "later"})),
			[]string{"error.disposition.retry"}},
		{"nine candidates", ValidateError, with(env, "error", with(body, "candidates", tooMany)), []string{"error.candidates"}},
		{"two-line message", ValidateError, with(env, "error", with(body, "message", "a\nb")), []string{"error.message"}},
		{"unknown error field", ValidateError, with(env, "error", with(body, "stack", "x")), []string{"stack"}},
		{"unknown effect", ValidateError, with(env, "error", with(body, "effect", "partial")), []string{"error.effect"}},
	}
}

func doctorExamples(t *testing.T) []example {
	d := doctorMap(t)
	ready := with(with(d, "ready", true), "ok", true)
	backends := d["backends"].([]any)
	return []example{
		{"contract example as JSON", ValidateDoctor, json.RawMessage(doctorReport), nil},
		{"contract example as a value", ValidateDoctor, d, nil},
		{"ready report", ValidateDoctor, ready, nil},
		{"missing schema_version", ValidateDoctor, with(d, "schema_version", drop), []string{"schema_version"}},
		{"schema_version 1", ValidateDoctor, with(d, "schema_version", 1), []string{"schema_version"}},
		{"another schema", ValidateDoctor, with(d, "schema", "other"), []string{"schema"}},
		{"ok differs from ready", ValidateDoctor, with(d, "ok", true), []string{"ok"}},
		{"telemetry on", ValidateDoctor, with(d, "network", map[string]any{"code_paths": "none", "telemetry": true,
			"update_check": false}), []string{"network.telemetry"}},
		{"unknown session type", ValidateDoctor, with(d, "session_type", "mir"), []string{"session_type"}},
		{"unknown top-level field", ValidateDoctor, with(d, "uptime", 5), []string{"uptime"}},
		{"unavailable backend without a reason", ValidateDoctor, with(d, "backends", []any{
			backends[0], with(backends[1].(map[string]any), "reason_code", nil)}), []string{"backends.1"}},
		{"missing permission without a reason", ValidateDoctor, with(d, "permissions", []any{
			map[string]any{"name": "accessibility", "status": "missing", "reason_code": nil, "action": nil}}),
			[]string{"permissions.0"}},
		{"next step naming nothing", ValidateDoctor, with(d, "next_steps", []any{
			map[string]any{"reason_code": "xtest_missing", "required": true, "action": "Install XTEST."}}),
			[]string{"next_steps.0"}},
		{"probe with an unknown status", ValidateDoctor, with(d, "probes", []any{
			map[string]any{"label": "display", "status": "meh", "message": ""}}), []string{"probes.0.status"}},
	}
}

func inputExamples() []example {
	seventeen := []any{}
	for i := 0; i < 17; i++ {
		seventeen = append(seventeen, "app"+fmtInt(i))
	}
	return []example{
		{"start_session", inputOf("start_session"), map[string]any{"apps": []any{"gedit", 5120}, "input": "takeover",
			"lease_minutes": 30, "clipboard_read": true, "purpose": "Tidy the notes"}, nil},
		{"start_session without apps", inputOf("start_session"), map[string]any{"input": "headless"}, []string{"apps"}},
		{"start_session with no apps", inputOf("start_session"), map[string]any{"apps": []any{}}, []string{"apps"}},
		{"start_session with 17 apps", inputOf("start_session"), map[string]any{"apps": seventeen}, []string{"apps"}},
		{"start_session with an unknown input", inputOf("start_session"), map[string]any{"apps": []any{"a"}, "input": "both"},
			[]string{"input"}},
		{"start_session with a long lease", inputOf("start_session"), map[string]any{"apps": []any{"a"}, "lease_minutes": 241},
			[]string{"lease_minutes"}},
		{"unknown arguments are allowed", inputOf("get_session_state"), map[string]any{"verbose": true}, nil},
		{"get_window_state", inputOf("get_window_state"), map[string]any{"app": "gedit", "skeleton": true, "root": "s3:1",
			"max_elements": 200, "max_depth": 5, "include_screenshot": false}, nil},
		{"get_window_state with too many rows", inputOf("get_window_state"), map[string]any{"max_elements": 5001},
			[]string{"max_elements"}},
		{"click", inputOf("click"), map[string]any{"window_id": 41943047, "element_token": "s3:4",
			"delivery_mode": "background", "observe": map[string]any{"tree": true}}, nil},
		{"click with pid 0", inputOf("click"), map[string]any{"pid": 0}, []string{"pid"}},
		{"click with a malformed token", inputOf("click"), map[string]any{"element_token": "4"}, []string{"element_token"}},
		{"click with an unknown delivery", inputOf("click"), map[string]any{"delivery_mode": "telepathy"}, []string{"delivery_mode"}},
		{"type_text", inputOf("type_text"), map[string]any{"element_token": "s3:4", "text": "hello"}, nil},
		{"type_text without text", inputOf("type_text"), map[string]any{"element_token": "s3:4"}, []string{"text"}},
		{"set_value with a number", inputOf("set_value"), map[string]any{"element_token": "s3:4", "value": 42.5}, nil},
		{"set_value with a bool", inputOf("set_value"), map[string]any{"element_token": "s3:4", "value": true}, []string{"value"}},
		{"press_key", inputOf("press_key"), map[string]any{"key": "Return"}, nil},
		{"hotkey with seven keys", inputOf("hotkey"), map[string]any{"keys": []any{"a", "b", "c", "d", "e", "f", "g"}},
			[]string{"keys"}},
		{"scroll", inputOf("scroll"), map[string]any{"x": 10, "y": 10, "direction": "down", "amount": 3}, nil},
		{"scroll too far", inputOf("scroll"), map[string]any{"direction": "down", "amount": 51}, []string{"amount"}},
		{"scroll without direction", inputOf("scroll"), map[string]any{"amount": 3}, []string{"direction"}},
		{"drag", inputOf("drag"), map[string]any{"from_token": "s1:2", "to_x": 5, "to_y": 6}, nil},
		{"move_cursor", inputOf("move_cursor"), map[string]any{"x": 1, "y": 2, "scope": "desktop", "duration_ms": 300}, nil},
		{"move_cursor without y", inputOf("move_cursor"), map[string]any{"x": 1}, []string{"y"}},
		{"clipboard_write", inputOf("clipboard_write"), map[string]any{"text": "hi"}, nil},
		{"app_action", inputOf("app_action"), map[string]any{"pid": 1, "window_id": 2, "action": "excel.set_range_values",
			"params": map[string]any{"range": "A1"}}, nil},
		{"arguments that are not an object", inputOf("list_windows"), []any{}, []string{"(root)"}},
	}
}

func TestExamples(t *testing.T) {
	var all []example
	all = append(all, outputExamples(t)...)
	all = append(all, errorExamples(t)...)
	all = append(all, doctorExamples(t)...)
	all = append(all, inputExamples()...)
	for _, ex := range all {
		t.Run(ex.name, func(t *testing.T) {
			err := ex.validate(ex.doc)
			if ex.wantErr == nil {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("want a validation error, got none")
			}
			for _, w := range ex.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q: %v", w, err)
				}
			}
		})
	}
}

// JSON text passes through as it is; any other value is marshalled first,
// so a Go string is a JSON string, not a report.
func TestValidateTakesJSONTextOrValues(t *testing.T) {
	if err := ValidateDoctor([]byte(doctorReport)); err != nil {
		t.Errorf("[]byte report: %v", err)
	}
	if err := ValidateDoctor(json.RawMessage(doctorReport)); err != nil {
		t.Errorf("json.RawMessage report: %v", err)
	}
	if err := ValidateDoctor(doctorReport); err == nil {
		t.Error("a Go string was taken as JSON text")
	}
	if err := ValidateDoctor(json.RawMessage(`{"schema":`)); err == nil {
		t.Error("truncated JSON was accepted")
	}
	if err := ValidateOutput("click", func() {}); err == nil {
		t.Error("a value JSON cannot represent was accepted")
	}
}
