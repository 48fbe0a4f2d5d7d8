package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ToolKind sorts tools for the session, approval and pause rules.
type ToolKind string

const (
	// KindSession tools manage the session itself; they need no approval and
	// work while paused.
	KindSession ToolKind = "session"
	// KindRead tools only look; they work while paused and need the host's
	// approval while it approves reads one by one.
	KindRead ToolKind = "read"
	// KindAct tools change something; they are refused while paused and need
	// the host's approval unless pre-approved.
	KindAct ToolKind = "act"
)

// ToolSpec is one tool of the contract as the engine serves it: one row of
// the tool table, holding everything about the tool but its input schema
// (data, in schema/input). The MCP layer and the manifest read the rows.
type ToolSpec struct {
	Name        string
	Kind        ToolKind
	Description string
	// ReadOnly and Destructive become the MCP annotations; they are true to
	// what the tool can do.
	ReadOnly    bool
	Destructive bool
	// NeedsSession: the tool refuses with no_session before start_session.
	NeedsSession bool

	// What the tool does: exactly one of handler (a tool of its own) or act
	// (an act tool: what differs between acts, run by the act pipeline of
	// act.go). checkTools holds every row to that when the package starts.
	handler toolHandler
	act     actSpec
}

// The tool table, in the order tools/list shows it. Descriptions teach what
// a model needs to use the tool well, in as few bytes as that takes: the
// model pays for every byte of tools/list on every turn.
var toolTable = mustTools([]ToolSpec{
	{Name: "list_windows", Kind: KindRead, ReadOnly: true, handler: listWindows,
		Description: "List apps with visible windows. Before start_session: app names and pids only. With a session: approved apps' windows (window_id, title, frame, focus, stacking); other apps as approved:false."},
	{Name: "start_session", Kind: KindSession, handler: startSession,
		Description: "Ask the person for access to apps (names or pids from list_windows). Shows a consent dialog only for what is not yet granted. input:\"takeover\" also asks to allow visible pointer/keyboard control. Returns the session state."},
	{Name: "get_session_state", Kind: KindSession, ReadOnly: true, NeedsSession: true, handler: getSessionState,
		Description: "Report the session: input mode, takeover {on, indicator, paused, paused_reason}, approved apps, lease and consented capabilities."},
	{Name: "end_session", Kind: KindSession, NeedsSession: true, handler: endSessionTool,
		Description: "End the session: removes any takeover indicator and releases everything held."},
	{Name: "get_window_state", Kind: KindRead, ReadOnly: true, NeedsSession: true, handler: getWindowState,
		Description: "Read a window's accessibility tree. tree_text starts with the snapshot_id; rows read [N] role \"label\" ...; act on a row with element_token \"<snapshot_id>:<N>\". For dense apps use skeleton:true, then root:<token> to read one region. A text element as root also returns its whole text."},
	{Name: "find_elements", Kind: KindRead, ReadOnly: true, NeedsSession: true, handler: findElements,
		Description: "Find a window's elements by role, label (substring) and states: matching rows only, each with its element_token and ancestors' labels as path. Tokens act like get_window_state's."},
	{Name: "wait_for", Kind: KindRead, ReadOnly: true, NeedsSession: true, handler: waitFor,
		Description: "Wait, on the app's change events, until an element appears or disappears, an element's label or value contains text, or the title does. Returns met:true with the element, or met:false at timeout_ms."},
	{Name: "click", Kind: KindAct, Destructive: true, NeedsSession: true, act: clickSpec(clickActions, 1, 1),
		Description: "Click an element (element_token) through its accessibility action, without moving the pointer. x,y (window coordinates) or delivery_mode:\"foreground\" need a takeover session."},
	{Name: "double_click", Kind: KindAct, Destructive: true, NeedsSession: true, act: clickSpec(doubleActions, 1, 2),
		Description: "Double-click an element: its activate action headless, or two real clicks in takeover."},
	{Name: "right_click", Kind: KindAct, Destructive: true, NeedsSession: true, act: clickSpec(menuActions, 3, 1),
		Description: "Open an element's context menu through its menu action headless, or a real right click in takeover."},
	{Name: "type_text", Kind: KindAct, Destructive: true, NeedsSession: true, act: typeTextSpec,
		Description: "Insert text at an editable element's caret (element_token). delivery_mode:\"foreground\" types real keys and needs takeover. Refused for secure fields and credential-looking text."},
	{Name: "set_value", Kind: KindAct, Destructive: true, NeedsSession: true, act: setValueSpec,
		Description: "Replace an element's whole text, or set a slider/spin value, then read it back (readback: match, mismatch or unverified)."},
	{Name: "press_key", Kind: KindAct, Destructive: true, NeedsSession: true, act: pressKeySpec,
		Description: "Press one key (X keysym name: Return, Tab, Escape, F5, a ...). Needs takeover, except a key used in a field (Return, Tab, BackSpace, Delete, Escape, arrows, Home, End, a character) into the element_token of a Chromium page field (path window_keys)."},
	{Name: "hotkey", Kind: KindAct, Destructive: true, NeedsSession: true, act: hotkeySpec,
		Description: "Press a key combination, e.g. keys:[\"Control_L\",\"s\"]. Needs takeover."},
	{Name: "scroll", Kind: KindAct, Destructive: false, NeedsSession: true, act: scrollSpec(),
		Description: "Scroll with the wheel over an element or x,y. Needs takeover."},
	{Name: "drag", Kind: KindAct, Destructive: true, NeedsSession: true, act: dragSpec(),
		Description: "Drag from one point or element to another inside the same window. Needs takeover."},
	{Name: "bring_to_front", Kind: KindAct, Destructive: false, NeedsSession: true, act: bringToFrontSpec,
		Description: "Raise and focus a window. Needs takeover."},
	{Name: "move_cursor", Kind: KindAct, Destructive: false, NeedsSession: true, act: moveSpec(),
		Description: "Move the pointer to x,y in the window (scope:\"desktop\": root coordinates), gliding over duration_ms. Needs takeover."},
	{Name: "clipboard_read", Kind: KindRead, ReadOnly: true, NeedsSession: true, handler: clipboardRead,
		Description: "Read the clipboard's text. Needs start_session clipboard_read:true, the person's tick and the host's approval for each call."},
	{Name: "clipboard_write", Kind: KindAct, Destructive: true, NeedsSession: true, handler: clipboardWrite,
		Description: "Put text on the clipboard. Needs start_session clipboard_write:true. Refused for credential-looking text."},
	{Name: "list_notifications", Kind: KindRead, ReadOnly: true, handler: unsupportedTool(noNotifications),
		Description: "List desktop notifications. Unsupported on X11 (no platform API)."},
	{Name: "dismiss_notification", Kind: KindAct, Destructive: true, handler: unsupportedTool(noNotifications),
		Description: "Dismiss a notification. Unsupported on X11 (no platform API)."},
	{Name: "invoke_notification_action", Kind: KindAct, Destructive: true, handler: unsupportedTool(noNotifications),
		Description: "Invoke a notification's action. Unsupported on X11 (no platform API)."},
	{Name: "list_app_actions", Kind: KindRead, ReadOnly: true, handler: unsupportedTool(noAppActions),
		Description: "List an app's declared automation actions. Windows only; unsupported on Linux."},
	{Name: "app_action", Kind: KindAct, Destructive: true, handler: unsupportedTool(noAppActions),
		Description: "Run a declared app automation action. Windows only; unsupported on Linux."},
	{Name: "health_report", Kind: KindRead, ReadOnly: true, handler: healthReport,
		Description: "Report whether the driver's backends and capabilities are available, and why not."},
})

// mustTools is the tool table once checkTools has passed it: a row without
// behaviour stops the program at start-up (and every test with it), never
// a call at run time.
func mustTools(rows []ToolSpec) []ToolSpec {
	if err := checkTools(rows); err != nil {
		panic("engine: " + err.Error())
	}
	return rows
}

// checkTools holds every row to the table's rules: a name, a kind, a
// description, a name no other row has, and exactly one of handler or act
// (act only for an act tool).
func checkTools(rows []ToolSpec) error {
	seen := map[string]bool{}
	for _, t := range rows {
		switch {
		case t.Name == "":
			return errors.New("a tool row has no name")
		case seen[t.Name]:
			return fmt.Errorf("tool %s has two rows", t.Name)
		case t.Kind == "":
			return fmt.Errorf("tool %s has no kind", t.Name)
		case t.Description == "":
			return fmt.Errorf("tool %s has no description", t.Name)
		case (t.handler == nil) == (t.act == nil):
			return fmt.Errorf("tool %s needs exactly one of a handler and an act spec", t.Name)
		case t.act != nil && t.Kind != KindAct:
			return fmt.Errorf("tool %s has an act spec but is not an act", t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}

// ToolNames lists every tool's name in tools/list order.
func ToolNames() []string {
	names := make([]string, len(toolTable))
	for i, t := range toolTable {
		names[i] = t.Name
	}
	return names
}

// Tools returns the tool table.
func Tools() []ToolSpec { return slices.Clone(toolTable) }

// LookupTool finds a tool by name.
func LookupTool(name string) (ToolSpec, bool) {
	i := slices.IndexFunc(toolTable, func(t ToolSpec) bool { return t.Name == name })
	if i < 0 {
		return ToolSpec{}, false
	}
	return toolTable[i], true
}

// run runs the tool's behaviour on a call whose arguments are parsed.
func (t ToolSpec) run(ctx context.Context, c *Conn, a *Args) Result {
	if t.act != nil {
		return runAct(ctx, c, t.Name, t.act, a)
	}
	return t.handler(ctx, c, a)
}
