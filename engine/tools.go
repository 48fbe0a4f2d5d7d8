package engine

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

// ToolSpec is one tool of the contract as the engine serves it. Input
// schemas live in schema/ (they are data, with golden files); this is the
// behaviour.
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
	handler      toolHandler
}

// The tool table, in the order tools/list shows it. Descriptions teach what
// a model needs to use the tool well, in as few bytes as that takes: the
// model pays for every byte of tools/list on every turn.
var toolTable = []ToolSpec{
	{Name: "list_windows", Kind: KindRead, ReadOnly: true,
		Description: "List apps with visible windows. Before start_session: app names and pids only. With a session: approved apps' windows (window_id, title, frame, focus, stacking); other apps as approved:false."},
	{Name: "start_session", Kind: KindSession,
		Description: "Ask the person for access to apps (names or pids from list_windows). Shows a consent dialog only for what is not yet granted. input:\"takeover\" also asks to allow visible pointer/keyboard control. Returns the session state."},
	{Name: "get_session_state", Kind: KindSession, ReadOnly: true, NeedsSession: true,
		Description: "Report the session: input mode, takeover {on, indicator, paused, paused_reason}, approved apps, lease and consented capabilities."},
	{Name: "end_session", Kind: KindSession, NeedsSession: true,
		Description: "End the session: removes any takeover indicator and releases everything held."},
	{Name: "get_window_state", Kind: KindRead, ReadOnly: true, NeedsSession: true,
		Description: "Read a window's accessibility tree. tree_text starts with the snapshot_id; rows read [N] role \"label\" ...; act on a row with element_token \"<snapshot_id>:<N>\". For dense apps use skeleton:true, then root:<token> to read one region. A text element as root also returns its whole text."},
	{Name: "click", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Click an element (element_token) through its accessibility action, without moving the pointer. x,y (window coordinates) or delivery_mode:\"foreground\" need a takeover session."},
	{Name: "double_click", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Double-click an element: its activate action headless, or two real clicks in takeover."},
	{Name: "right_click", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Open an element's context menu through its menu action headless, or a real right click in takeover."},
	{Name: "type_text", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Insert text at an editable element's caret (element_token). delivery_mode:\"foreground\" types real keys and needs takeover. Refused for secure fields and credential-looking text."},
	{Name: "set_value", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Replace an element's whole text, or set a slider/spin value, then read it back (readback: match, mismatch or unverified)."},
	{Name: "press_key", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Press one key (X keysym name: Return, Tab, Escape, F5, a ...). Needs takeover."},
	{Name: "hotkey", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Press a key combination, e.g. keys:[\"Control_L\",\"s\"]. Needs takeover."},
	{Name: "scroll", Kind: KindAct, Destructive: false, NeedsSession: true,
		Description: "Scroll with the wheel over an element or x,y. Needs takeover."},
	{Name: "drag", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Drag from one point or element to another inside the same window. Needs takeover."},
	{Name: "bring_to_front", Kind: KindAct, Destructive: false, NeedsSession: true,
		Description: "Raise and focus a window. Needs takeover."},
	{Name: "move_cursor", Kind: KindAct, Destructive: false, NeedsSession: true,
		Description: "Move the pointer to x,y in the window (scope:\"desktop\": root coordinates), gliding over duration_ms. Needs takeover."},
	{Name: "clipboard_read", Kind: KindRead, ReadOnly: true, NeedsSession: true,
		Description: "Read the clipboard's text. Needs start_session clipboard_read:true, the person's tick and the host's approval for each call."},
	{Name: "clipboard_write", Kind: KindAct, Destructive: true, NeedsSession: true,
		Description: "Put text on the clipboard. Needs start_session clipboard_write:true. Refused for credential-looking text."},
	{Name: "list_notifications", Kind: KindRead, ReadOnly: true,
		Description: "List desktop notifications. Unsupported on X11 (no platform API)."},
	{Name: "dismiss_notification", Kind: KindAct, Destructive: true,
		Description: "Dismiss a notification. Unsupported on X11 (no platform API)."},
	{Name: "invoke_notification_action", Kind: KindAct, Destructive: true,
		Description: "Invoke a notification's action. Unsupported on X11 (no platform API)."},
	{Name: "list_app_actions", Kind: KindRead, ReadOnly: true,
		Description: "List an app's declared automation actions. Windows only; unsupported on Linux."},
	{Name: "app_action", Kind: KindAct, Destructive: true,
		Description: "Run a declared app automation action. Windows only; unsupported on Linux."},
	{Name: "health_report", Kind: KindRead, ReadOnly: true,
		Description: "Report whether the driver's backends and capabilities are available, and why not."},
}

// ToolNames lists every tool's name in tools/list order.
func ToolNames() []string {
	names := make([]string, len(toolTable))
	for i, t := range toolTable {
		names[i] = t.Name
	}
	return names
}

// Tools returns the tool table (without handlers' internals).
func Tools() []ToolSpec { return append([]ToolSpec(nil), toolTable...) }

// LookupTool finds a tool by name.
func LookupTool(name string) (ToolSpec, bool) {
	for _, t := range toolTable {
		if t.Name == name {
			return t, true
		}
	}
	return ToolSpec{}, false
}

// setHandler attaches a tool's behaviour to its table row; each tool file
// registers its own in init.
func setHandler(name string, h toolHandler) {
	for i := range toolTable {
		if toolTable[i].Name == name {
			toolTable[i].handler = h
			return
		}
	}
	panic("engine: handler for unknown tool " + name)
}
