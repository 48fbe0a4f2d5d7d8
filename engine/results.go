package engine

// The structuredContent of each tool's success. schema/output/*.json
// describe the same shapes; the contract test validates every result against
// them, so a field added here without its schema fails the build's tests.

// WindowRow is one list_windows entry. With a session, approved apps carry
// the window fields; unapproved apps carry only app, pid and approved:false.
type WindowRow struct {
	WindowID uint64 `json:"window_id,omitempty"`
	Pid      int    `json:"pid"`
	App      string `json:"app"`
	Title    string `json:"title,omitempty"`
	// Frame and Stacking are left out for a window whose place on screen
	// and stacking are not known (WindowSpace).
	Frame    *Rect `json:"frame,omitempty"`
	Focused  *bool `json:"focused,omitempty"`
	OnScreen *bool `json:"on_screen,omitempty"`
	Stacking *int  `json:"stacking,omitempty"`
	Approved *bool `json:"approved,omitempty"`
}

// ListWindowsResult is list_windows' result.
type ListWindowsResult struct {
	OK      bool        `json:"ok"`
	Session bool        `json:"session"`
	Windows []WindowRow `json:"windows"`
}

// WindowInfo names the window a read or act is about.
type WindowInfo struct {
	WindowID uint64 `json:"window_id"`
	Pid      int    `json:"pid"`
	App      string `json:"app"`
	Title    string `json:"title"`
	Frame    Rect   `json:"frame"`
}

// ElementRow is one row of a full or drill-down read. Frame is in window
// coordinates.
type ElementRow struct {
	ElementIndex   int      `json:"element_index"`
	ElementToken   string   `json:"element_token"`
	Role           string   `json:"role"`
	Label          string   `json:"label,omitempty"`
	Value          *string  `json:"value,omitempty"`
	ValueTruncated bool     `json:"value_truncated,omitempty"`
	Secure         bool     `json:"secure,omitempty"`
	States         []string `json:"states,omitempty"`
	Actions        []string `json:"actions,omitempty"`
	ParentIndex    *int     `json:"parent_index"`
	Depth          int      `json:"depth"`
	ChildCount     int      `json:"child_count"`
	Frame          Rect     `json:"frame"`
	// Table: a table whose cells the read holds in part says how many
	// rows and columns it has and which it shows (table.go).
	Table *TableSize `json:"table,omitempty"`
}

// SkeletonRow is one row of a skeleton read (docs/contract.md#skeleton).
type SkeletonRow struct {
	ElementIndex    int    `json:"element_index"`
	ElementToken    string `json:"element_token"`
	Role            string `json:"role"`
	Label           string `json:"label,omitempty"`
	ParentIndex     *int   `json:"parent_index"`
	Depth           int    `json:"depth"`
	ChildCount      int    `json:"child_count"`
	DescendantCount int    `json:"descendant_count"`
	Frame           Rect   `json:"frame"`
	// Table: as ElementRow's.
	Table *TableSize `json:"table,omitempty"`
}

// ImageInfo describes a screenshot sent as an MCP image block.
type ImageInfo struct {
	MIMEType string `json:"mime_type"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Bytes    int    `json:"bytes"`
	// BlackedOut counts the secure-field frames painted black.
	BlackedOut int `json:"blacked_out"`
}

// WindowStateResult is get_window_state's result. Elements holds
// []ElementRow for full and drill-down reads and []SkeletonRow for skeleton
// reads.
type WindowStateResult struct {
	OK         bool   `json:"ok"`
	SnapshotID string `json:"snapshot_id"`
	// SnapshotKept says the read is the earlier snapshot of the same id,
	// kept because the app reported no change to what it holds since
	// (readWindow; frames that moved are read again).
	SnapshotKept bool       `json:"snapshot_kept,omitempty"`
	Window       WindowInfo `json:"window"`
	// Coordinates is "window" when the elements' frames (and the
	// window's) are relative to the window's top-left because its place
	// on screen is not known; left out when they are the screen's
	// (docs/contract.md#frame-coordinates).
	Coordinates     FrameSpace `json:"coordinates,omitempty"`
	Skeleton        bool       `json:"skeleton,omitempty"`
	Root            string     `json:"root,omitempty"`
	Elements        any        `json:"elements"`
	ElementCount    int        `json:"element_count"`
	TreeText        string     `json:"tree_text"`
	Truncated       bool       `json:"truncated"`
	Text            *string    `json:"text,omitempty"`
	TextTruncated   bool       `json:"text_truncated,omitempty"`
	Screenshot      *ImageInfo `json:"screenshot,omitempty"`
	ScreenshotError *ErrorBody `json:"screenshot_error,omitempty"`
	// AccessibilityHint says, in the driver's own words, why a window reads
	// as its frame and little else and what fixes it (hint.go).
	AccessibilityHint *AccessibilityHint `json:"accessibility_hint,omitempty"`
}

// TakeoverState is the takeover part of session results.
type TakeoverState struct {
	On           bool        `json:"on"`
	Indicator    bool        `json:"indicator"`
	Paused       bool        `json:"paused"`
	PausedReason PauseReason `json:"paused_reason,omitempty"`
	Reason       string      `json:"reason,omitempty"`
	// Action says what the person can do when the desktop refused the
	// takeover (the capability's fixed sentence, never app text).
	Action string `json:"action,omitempty"`
}

// LeaseState is the lease part of session results.
type LeaseState struct {
	ExpiresAtMs int64 `json:"expires_at_ms"`
	RemainingS  int64 `json:"remaining_s"`
}

// AppState is one approved app of a session.
type AppState struct {
	Pid int    `json:"pid"`
	App string `json:"app"`
}

// ConsentedCapabilities says what the person allowed beyond the apps.
type ConsentedCapabilities struct {
	Takeover       bool `json:"takeover"`
	ClipboardRead  bool `json:"clipboard_read"`
	ClipboardWrite bool `json:"clipboard_write"`
}

// SessionResult is the result of start_session and get_session_state.
type SessionResult struct {
	OK           bool                  `json:"ok"`
	Session      string                `json:"session"`
	Active       bool                  `json:"active"`
	Input        InputMode             `json:"input"`
	Takeover     TakeoverState         `json:"takeover"`
	Apps         []AppState            `json:"apps"`
	Lease        *LeaseState           `json:"lease,omitempty"`
	Capabilities ConsentedCapabilities `json:"capabilities"`
	Dialog       bool                  `json:"dialog,omitempty"` // start_session: the consent dialog was shown
	// AccessibilitySwitch (start_session): the desktop's accessibility
	// switch was on, the driver turned it on, or it was unavailable; left
	// out for a backend without one.
	AccessibilitySwitch string `json:"accessibility_switch,omitempty"`
}

// EndSessionResult is end_session's result.
type EndSessionResult struct {
	OK      bool   `json:"ok"`
	Session string `json:"session"`
	Ended   bool   `json:"ended"`
}

// DiffChange is one changed row of a diff. Fields lists what changed; the
// new label and value ride along (never a secure value).
type DiffChange struct {
	ElementIndex int      `json:"element_index"`
	Fields       []string `json:"fields"`
	Label        string   `json:"label,omitempty"`
	Value        *string  `json:"value,omitempty"`
	States       []string `json:"states,omitempty"`
}

// DiffRow names an added or removed row.
type DiffRow struct {
	ElementIndex int    `json:"element_index"`
	Role         string `json:"role"`
	Label        string `json:"label,omitempty"`
}

// Diff is the change an act made, keyed by element_index, at most 50 entries.
type Diff struct {
	Added     []DiffRow    `json:"added"`
	Removed   []DiffRow    `json:"removed"`
	Changed   []DiffChange `json:"changed"`
	Truncated bool         `json:"truncated"`
}

// Settle says how long the window took to go quiet after an act.
type Settle struct {
	Ms      int64 `json:"ms"`
	Settled bool  `json:"settled"`
}

// Observation is an act's observe block (docs/contract.md#observe).
type Observation struct {
	SnapshotID      string       `json:"snapshot_id,omitempty"`
	Truncated       bool         `json:"truncated"`
	Elements        []ElementRow `json:"elements,omitempty"`
	TreeText        string       `json:"tree_text,omitempty"`
	Screenshot      *ImageInfo   `json:"screenshot,omitempty"`
	Error           *ErrorBody   `json:"error,omitempty"`
	ScreenshotError *ErrorBody   `json:"screenshot_error,omitempty"`

	image *ImageBlock // sent as the MCP image block, not in structuredContent
}

// ActResult is the result of every act tool.
type ActResult struct {
	OK              bool        `json:"ok"`
	Effect          Effect      `json:"effect"` // confirmed, changed, no_change
	Verified        bool        `json:"verified"`
	Path            Path        `json:"path"`
	TookCursor      bool        `json:"took_cursor"`
	Escalation      *Escalation `json:"escalation,omitempty"`
	Diff            *Diff       `json:"diff,omitempty"`
	SnapshotID      string      `json:"snapshot_id,omitempty"`
	Settle          *Settle     `json:"settle,omitempty"`
	Readback        string      `json:"readback,omitempty"` // set_value: match, mismatch, unverified
	TypedCharacters *int        `json:"typed_characters,omitempty"`
	Action          string      `json:"action,omitempty"` // the accessibility action used
	// ScrolledIntoView: the element was below the fold (clipped by a
	// scrolled view) and was scrolled into view before the act.
	ScrolledIntoView bool `json:"scrolled_into_view,omitempty"`
	// LandedElsewhere: a synthetic click aimed at an element by token
	// left its marks (focus, checked, selected, ...) on these other
	// elements and none on the target; effect is then no_change.
	LandedElsewhere []int        `json:"landed_elsewhere,omitempty"`
	Observe         *Observation `json:"observe,omitempty"`
}

// ClipboardReadResult is clipboard_read's result.
type ClipboardReadResult struct {
	OK     bool   `json:"ok"`
	Text   string `json:"text"`
	Length int    `json:"length"`
}

// RegistryEntryOut is a backend entry on the wire.
type RegistryEntryOut struct {
	ID         string  `json:"id"`
	Status     string  `json:"status"`
	Required   bool    `json:"required"`
	ReasonCode *string `json:"reason_code"`
	Action     *string `json:"action"`
}

// CapabilityOut is a capability on the wire.
type CapabilityOut struct {
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	ReasonCode *string `json:"reason_code"`
	Action     *string `json:"action"`
	Consent    string  `json:"consent"`
	// RestsOn names the parts of the desktop the capability uses, from
	// the capability table.
	RestsOn []string `json:"rests_on,omitempty"`
}

// HealthResult is health_report's result.
type HealthResult struct {
	OK              bool               `json:"ok"`
	Ready           bool               `json:"ready"`
	SessionType     string             `json:"session_type"`
	DriverVersion   string             `json:"driver_version"`
	ContractVersion string             `json:"contract_version"`
	Backends        []RegistryEntryOut `json:"backends"`
	Capabilities    []CapabilityOut    `json:"capabilities"`
}

// FoundRow is one element find_elements or wait_for returns: a read's row
// without its place in the tree, which Path names instead (its nearest
// labelled ancestors, outermost first). Frame is in window coordinates.
type FoundRow struct {
	ElementIndex int      `json:"element_index"`
	ElementToken string   `json:"element_token"`
	Role         string   `json:"role"`
	Label        string   `json:"label,omitempty"`
	Value        *string  `json:"value,omitempty"`
	Secure       bool     `json:"secure,omitempty"`
	States       []string `json:"states,omitempty"`
	Actions      []string `json:"actions,omitempty"`
	Path         string   `json:"path,omitempty"`
	Frame        Rect     `json:"frame"`
}

// FindElementsResult is find_elements' result. MatchCount counts every
// match, also past max_results.
type FindElementsResult struct {
	OK         bool       `json:"ok"`
	SnapshotID string     `json:"snapshot_id"`
	Window     WindowInfo `json:"window"`
	// Coordinates: as WindowStateResult's.
	Coordinates FrameSpace `json:"coordinates,omitempty"`
	Elements    []FoundRow `json:"elements"`
	MatchCount  int        `json:"match_count"`
	Truncated   bool       `json:"truncated"`
	// AccessibilityHint is the read's hint (get_window_state's): a find
	// that matches nothing in a window that reads empty says why.
	AccessibilityHint *AccessibilityHint `json:"accessibility_hint,omitempty"`
}

// WaitForResult is wait_for's result: met false at the timeout. Element
// is the matching element (none for a title or a disappearance); the
// snapshot is the last read the wait made, so its tokens act.
type WaitForResult struct {
	OK         bool       `json:"ok"`
	Met        bool       `json:"met"`
	SnapshotID string     `json:"snapshot_id"`
	Window     WindowInfo `json:"window"`
	// Coordinates: as WindowStateResult's.
	Coordinates FrameSpace `json:"coordinates,omitempty"`
	Element     *FoundRow  `json:"element,omitempty"`
	WaitedMs    int64      `json:"waited_ms"`
}
