package engine

import (
	"context"
	"image"
	"slices"
	"time"
)

// The Backend is everything the engine needs from a desktop. The Linux
// backend (native/) implements it over Xlib and libatspi; engine/mock
// implements it in memory. It speaks plain Go values only, every call takes a
// context whose deadline is the call's bound, and every failure is returned as
// an *Error with a table code (window_gone, app_not_responding,
// backend_unavailable, clipboard_unavailable, unsupported, ...), never a panic.
//
// The interface is split by concern so that a reader can find a method by
// what it is for; a backend implements all of them. A part that both the
// live and the mock backend have is required even where a desktop could do
// without it: the unavailable backend (native/unavailable.go) fails it
// with backend_unavailable like every other call, and the engine keeps one
// path instead of a second one that rarely runs. What a backend really may
// lack is asserted where it is used, and its comment names who lacks it.
type Backend interface {
	Describer
	Desktop
	WindowsByID
	TreeReader
	DetailReader
	FrameReader
	FieldReader
	DocumentTextReader
	ChangeLister
	ChangeNotifier
	SubtreeReader
	AccessibilityEnabler
	AccessibilityProber
	SemanticActor
	ScrollIntoViewer
	SyntheticInput
	Screen
	Clipboard
	Person
}

// Describer reports what the backend can do, for the doctor, health_report
// and the manifest.
type Describer interface {
	// Registry reports how the desktop's parts stand (its entries and
	// features), the permissions and the probes
	// (docs/contract.md#registry). It lists no capabilities: the engine
	// derives them from the parts (capabilities.go).
	Registry(ctx context.Context) Registry
}

// Desktop lists windows and identifies processes.
type Desktop interface {
	// Windows lists visible top-level windows, topmost first (Stacking 0 is
	// the top). The driver's own windows (indicator, consent dialog) are never
	// listed.
	Windows(ctx context.Context) ([]Window, error)
	// Process returns the identity of a live process; a pid that no longer
	// exists is window_gone.
	Process(ctx context.Context, pid int) (ProcessIdentity, error)
}

// TreeReader reads accessibility trees.
type TreeReader interface {
	// ReadTree reads a window's whole tree within the budget, in pre-order
	// (a parent before its children, siblings in order). Nodes[0] is the
	// window's frame. Truncated is set when the budget cut the read short.
	ReadTree(ctx context.Context, window WindowID, budget Budget) (*Tree, error)
	// ReadText returns an element's whole text, at most maxBytes of it.
	ReadText(ctx context.Context, ref ElementRef, maxBytes int) (text string, truncated bool, err error)
	// ReadValue reads an element's current value live, at most maxBytes of
	// it (Truncated when it held more), re-checking whether it is secure
	// first; a secure element's value is never read (Secure true, Value
	// empty).
	ReadValue(ctx context.Context, ref ElementRef, maxBytes int) (Readback, error)
}

// FieldReader reads what an editable element holds before a write: its
// text and where its caret is, live, in one look at the element. The
// credential check of type_text runs on the text the field will hold (the
// insertion goes in at the caret, as InsertText puts it), so a secret
// split over several writes is caught.
type FieldReader interface {
	// ReadField re-checks the element's security first: a secure
	// element's text and caret are never read (Secure true). Text is at
	// most maxBytes (Truncated when cut); Caret is where InsertText
	// would put text, in characters, -1 for the end.
	ReadField(ctx context.Context, ref ElementRef, maxBytes int) (Field, error)
	// ReadTextAt reads the element's live text from character start to
	// end, re-checking its security first (Secure true, nothing read). It
	// tells whether an insertion landed where it was made, in a field
	// whose text a read cuts short.
	ReadTextAt(ctx context.Context, ref ElementRef, start, end int) (Readback, error)
}

// Field is a live read of an editable element for the credential check.
// Text is untrusted app text: it is checked, never returned or logged.
type Field struct {
	Text      string
	Truncated bool
	Caret     int
	Secure    bool
}

// DetailReader reads a window leaving out the per-element details (values,
// actions, frames): those cost one call per element on AT-SPI, while the
// structure of a whole window comes in one reply. The engine reads a
// window's structure and then the details of only the rows it shows (and of
// secure fields, for screenshots).
type DetailReader interface {
	// ReadStructure is ReadTree without details: Detailed is false and
	// Value, HasValue, Numeric, Actions and Frame are left empty.
	ReadStructure(ctx context.Context, window WindowID, budget Budget) (*Tree, error)
	// ReadDetails fills the details of nodes of an earlier read of window
	// w, in place, and sets their Detailed. A secure node's value is never
	// read. The window says whose scale turns the app's extents into the
	// device pixels Frame is in.
	ReadDetails(ctx context.Context, w WindowID, nodes []*Node) error
	// ReadActions reads the action names of nodes of an earlier read of
	// window w again, in place, asking the app itself: a backend may keep
	// what a read learnt of an element's actions (the live one does: a
	// widget's actions do not change while it lives, and asking each of a
	// page's thousand elements on every read costs a call each), and this
	// asks anew. An act whose read listed none of the actions it wants
	// asks it before refusing.
	ReadActions(ctx context.Context, w WindowID, nodes []*Node) error
}

// FrameReader reads only the frames of nodes of an earlier read of window w
// again, in place (device pixels, as ReadDetails). A read the engine keeps
// because the app reported no change since (readWindow) has its values and
// actions vouched for by the app's reports; where an element lies is not (a
// window that moves sends none), so its shown rows' frames are read again.
type FrameReader interface {
	ReadFrames(ctx context.Context, w WindowID, nodes []*Node) error
}

// HitTester is an optional part of a backend that can say which elements
// of a window lie under a point, as the app itself answers it (AT-SPI
// Component.GetAccessibleAtPoint). Before synthetic input aimed at an
// element by token, the engine checks that the element is what the point
// holds now: a read can be out of date (the layout moved, a popup covers
// the element), and frames can be in the wrong space (an app that scales
// its pixels), and then a click would land on another element. The live
// and the mock backend have it; it stays optional for the tests of a click
// through a backend that cannot hit-test (its landing is then judged from
// the settled read alone, landedElsewhere).
type HitTester interface {
	// ElementsAt lists the elements of window w under p (root
	// coordinates, device pixels), outermost first, each one the child
	// of the one before that holds the point, down to the deepest one the
	// app names. The window's frame itself is not listed; an empty list
	// means the app names no element there.
	ElementsAt(ctx context.Context, w WindowID, p Point) ([]ElementID, error)
}

// CaretFinder finds where text typed into an editable container goes when
// the container has no editable text of its own: LibreOffice Writer's
// document is editable, but only its paragraphs take text. A person typing
// into the document types at the caret's paragraph, and so does type_text.
// The live and the mock backend have it; it stays optional for a backend
// whose apps hold no such container (typing into one is then refused).
type CaretFinder interface {
	// CaretChild returns the child of ref that holds the caret, or, with
	// no caret in it, its last child (the end of what shows). A container
	// with editable text of its own is returned as it is.
	CaretChild(ctx context.Context, ref ElementRef) (ElementID, error)
}

// ChangeWaiter hears an app report its own changes (AT-SPI events):
// settling after an act waits on those reports instead of re-reading the
// window every few milliseconds. Where the backend cannot hear an app
// (MarkChanges fails), the engine re-reads the window instead.
type ChangeWaiter interface {
	// MarkChanges starts listening to window w's app if it is not yet, and
	// returns a mark of the changes reported so far. Call it before acting.
	MarkChanges(ctx context.Context, w WindowID) (ChangeMark, error)
	// WaitQuiet waits until the app has reported no change for quiet
	// (counted from the call or the newest change, whichever is later), or
	// until max. changed says whether any change came after mark;
	// lastChange is the newest change's time.
	WaitQuiet(ctx context.Context, w WindowID, mark ChangeMark, quiet, max time.Duration) (settled, changed bool, lastChange time.Time, err error)
}

// ChangeMark is a backend's count of changes at one moment.
type ChangeMark uint64

// OwnInputNoter is an optional part of a backend whose input watcher
// reports the driver's own events in other terms than they were sent (on
// X11 a typed "A" comes back as Shift_L and "a"). synth tells it each press
// and pointer target right before sending it, after the engine logged it,
// so the backend can turn their raw echoes back into the events the engine
// logged and drop the extra presses it adds itself. The mock lacks it: its
// watcher reports the driver's events as they were sent.
type OwnInputNoter interface {
	NoteOwnInput(ev InputEvent)
}

// WindowsByID lists the windows without their app names, which cost a
// call into every app on the bus. An act or a read aimed at a window id or
// a pid needs no names; the engine then uses it.
type WindowsByID interface {
	// WindowsWithoutNames is Windows with App left empty.
	WindowsWithoutNames(ctx context.Context) ([]Window, error)
}

// ChangeLister is a ChangeWaiter that also says which elements changed, so
// that the engine can leave reads out: before an act it reuses a fresh
// snapshot of a window whose app reported nothing since that asks for a
// read, and after the act, and after each batch of reports a wait hears,
// it patches the read it has with what the app reported (patch.go gives
// the rule for each kind of report). Where the reports cannot say what
// changed (changes the backend did not keep, among others), the window is
// read whole.
type ChangeLister interface {
	ChangeWaiter
	// CurrentMark returns the mark of the changes of window w's app so far,
	// without any I/O; ok is false when the backend is not listening to
	// that app (then there is nothing to compare with later).
	CurrentMark(w WindowID) (mark ChangeMark, ok bool)
	// ChangesSince lists the changes w's app reported after mark, oldest
	// first. complete is false when some were not kept or the backend
	// stopped listening in between.
	ChangesSince(w WindowID, mark ChangeMark) (changes []Change, complete bool)
	// Refresh reads the role, name, description, states and child count of
	// each node again, in place; the details (Value, Actions, Frame) are
	// left as they were and Detailed is cleared. Secure is never cleared.
	Refresh(ctx context.Context, nodes []*Node) error
}

// SubtreeReader reads one element's subtree again, structure only, so
// that a patched read (an act's settled read, a wait's) that hears an
// element's children come or go reads that element's part of the window
// instead of all of it (patch.go).
type SubtreeReader interface {
	// ReadSubtree reads the subtree of root, an element of an earlier read
	// of window w, as ReadStructure reads a window: in pre-order within the
	// budget, Nodes[0] being root read again, and Parent, IndexInParent and
	// Depth counted within the subtree. Truncated is set when the budget,
	// or a container that may not be asked for its children, left
	// anything out. An element that is gone is an error.
	ReadSubtree(ctx context.Context, w WindowID, root ElementID, budget Budget) (*Tree, error)
}

// Change is one change an app reported.
type Change struct {
	Kind ChangeKind
	// Source is the element the report is about (as reads name it; it may
	// be an element no read has returned).
	Source ElementID
	// Op, Child and Index, on a structural report that one element was
	// added under Source or removed from it (AT-SPI's children-changed),
	// say which it was, name that element and give its index among
	// Source's children (-1 when the app did not say). Op is empty on any
	// other report.
	Op    ChildOp
	Child ElementID
	Index int
}

// ChildOp says what a children-changed report did.
type ChildOp string

const (
	ChildAdded   ChildOp = "add"
	ChildRemoved ChildOp = "remove"
)

// ChangeKind says what a report tells about its element.
type ChangeKind string

const (
	// ChangeStructure: children added or removed, a role or parent
	// changed, the element went away.
	ChangeStructure ChangeKind = "structure"
	// ChangeContent: the element's own name, description, value, text,
	// states or extents changed.
	ChangeContent ChangeKind = "content"
	// ChangeExtents: the element's frame moved or changed size, and the
	// report says no more (AT-SPI's bounds-changed). No element is read
	// for it: the read's frames are marked stale and read again before a
	// row is shown or acted on (patch.go).
	ChangeExtents ChangeKind = "extents"
	// ChangeSubtree: something among the element's descendants changed
	// without reports of their own (a selection, an active descendant,
	// the visible rows of a view).
	ChangeSubtree ChangeKind = "subtree"
)

// AccessibilityEnabler turns on the desktop's switch that asks apps to
// expose their accessibility trees (on Linux, property IsEnabled of
// org.a11y.Status on the session bus). Firefox and
// Qt 6 watch it and turn their trees on while running; other toolkits read
// it when they start. The engine turns it on when a session starts, within
// a short bound; a failure is reported in the result and never fails the
// session. It must never touch the screen reader's switch.
type AccessibilityEnabler interface {
	// EnableAccessibility turns the switch on if it is off; wasOn says
	// whether it was on already.
	EnableAccessibility(ctx context.Context) (wasOn bool, err error)
}

// AccessibilityProber says why a window's tree is empty: whether the window
// belongs to an app on the accessibility bus, and which toolkit the app is
// built on. The engine asks only for a read that looks empty, and decides
// itself which hint, if any, the read carries (hint.go).
type AccessibilityProber interface {
	WindowAccessibility(ctx context.Context, w WindowID) (WindowAccessibility, error)
}

// WindowAccessibility is what a backend knows about a window's
// accessibility.
type WindowAccessibility struct {
	// OnBus: the window matched an accessible frame of an app on the
	// accessibility bus. Otherwise its read is the one frame row a backend
	// builds from the window system.
	OnBus bool
	// Toolkit is the app's toolkit family, one of the Toolkit constants,
	// or "" when the backend cannot tell.
	Toolkit string
	// QtBus is what the doctor's AT_SPI_BUS check finds (one of the QtBus
	// constants), asked for only about a Qt app off the bus: "" when not
	// asked. A missing or wrong property is why such an app never joined.
	QtBus string
}

// AccessibilityOf is what a backend reports of a window's app: on the bus
// or not, its toolkit, and, for a Qt app off the bus only, the AT_SPI_BUS
// check (qtBus, asked for then and only then: a missing or wrong property
// is why such an app never joined, and no other app reads it).
func AccessibilityOf(onBus bool, toolkit string, qtBus func() string) WindowAccessibility {
	info := WindowAccessibility{OnBus: onBus, Toolkit: toolkit}
	if !onBus && toolkit == ToolkitQt {
		info.QtBus = qtBus()
	}
	return info
}

// Toolkit families a backend can report. A backend maps what the app says
// (its toolkit name) or what its process has loaded onto one of these; the
// app's own words never reach the engine's hints.
const (
	ToolkitChromium    = "chromium"    // Chromium, Chrome and Electron apps (VS Code, Slack, ...)
	ToolkitGecko       = "gecko"       // Firefox, Thunderbird
	ToolkitQt          = "qt"          // Qt 5 and Qt 6
	ToolkitLibreOffice = "libreoffice" // LibreOffice's own toolkit (VCL)
	ToolkitGTK         = "gtk"         // GTK 3 and GTK 4
)

// SemanticActor acts through accessibility interfaces: no pointer, no keys,
// no focus change, no raise.
type SemanticActor interface {
	// DoAction invokes a named accessibility action of the element.
	DoAction(ctx context.Context, ref ElementRef, action string) error
	// InsertText inserts text at the element's caret (EditableText) and
	// returns the character offset where it went in.
	InsertText(ctx context.Context, ref ElementRef, text string) (at int, err error)
	// SetText replaces the element's whole text (EditableText).
	SetText(ctx context.Context, ref ElementRef, text string) error
	// SetNumber sets the element's numeric value (the Value interface).
	SetNumber(ctx context.Context, ref ElementRef, v float64) error
}

// ScrollIntoViewer scrolls an element into view by accessibility means
// alone (no pointer, no keys, no focus change): most of a long page or list
// is scrolled out of view, and a headless act on such an element would
// otherwise be refused. The engine decides from its read that only a
// scrolled ancestor clips the element (scrollview.go) and asks; it then
// waits for the element to show.
type ScrollIntoViewer interface {
	// ScrollIntoView asks the element's app to scroll it into view. The
	// element's own request comes first (AT-SPI Component.ScrollTo); an
	// app that declines it is scrolled through the hint's scroll bar, at
	// the hint's place. It returns without waiting for the app to show
	// the element. An app that cannot be scrolled either way is
	// not_actionable.
	ScrollIntoView(ctx context.Context, ref ElementRef, hint ScrollHint) error
}

// ScrollHint is what the engine's read tells about where an element sits
// in the view that clips it, for a backend that has to scroll by a scroll
// bar.
type ScrollHint struct {
	// Pane is the scrolled ancestor that clips the element (a scroll
	// pane, a viewport, a web document).
	Pane ElementID
	// ScrollBar is that pane's vertical scroll bar in the read ("" when
	// the read holds none).
	ScrollBar ElementID
	// Position is an estimate of where the element lies in the pane's
	// content, from 0 (its start) to 1 (its end). A backend scrolling by
	// the scroll bar sets it to that share of its range: for content laid
	// out in one column, the element then shows.
	Position float64
	// Delta, when not zero, asks instead to move the scroll bar by this
	// many pixels from where it is (positive: further down the content),
	// for an element whose showing ancestor the engine pages through. The
	// pixels are device pixels, as frames are; a backend whose app scales
	// its pixels converts them to the app's own.
	Delta int
}

// SyntheticInput sends XTEST-style input and answers the questions the
// takeover's safety checks (scope, occlusion, focus) ask. The engine calls
// Send once per event, after its own checks and after logging the event;
// the backend only sends.
type SyntheticInput interface {
	Send(ctx context.Context, ev InputEvent) error
	// Pointer returns the pointer's position in root coordinates.
	Pointer(ctx context.Context) (Point, error)
	// FocusedWindow returns the window holding keyboard focus (0 for none).
	FocusedWindow(ctx context.Context) (WindowID, error)
	// TopmostAt returns the topmost window at a root point, skipping the
	// driver's own indicator windows.
	TopmostAt(ctx context.Context, p Point) (WindowID, error)
	// Raise raises and focuses a window (takeover only).
	Raise(ctx context.Context, w WindowID) error
	// HasKey reports whether a key name (an X keysym name such as "Return",
	// "a", "F5") is one the backend can send.
	HasKey(name string) bool
}

// Screen captures a window's own contents (never the indicator or other
// windows above it).
type Screen interface {
	Capture(ctx context.Context, w WindowID) (*image.RGBA, error)
}

// Clipboard reads and owns the CLIPBOARD selection.
type Clipboard interface {
	// ClipboardRead returns the clipboard's text; no text, INCR or no owner
	// answering is clipboard_unavailable.
	ClipboardRead(ctx context.Context) (string, error)
	// ClipboardWrite takes ownership of the clipboard with text. The returned
	// release gives it up; the engine calls it when the session ends.
	ClipboardWrite(ctx context.Context, text string) (release func(), err error)
}

// Person is how the engine meets the human: the consent dialog, the
// takeover indicator and the watcher of their own input.
type Person interface {
	// AskConsent shows the consent dialog and waits for a real click (or the
	// context's end, which is a denial).
	AskConsent(ctx context.Context, req ConsentRequest) (ConsentAnswer, error)
	// ShowIndicator puts the takeover indicator on screen. If it cannot be
	// shown, takeover is not granted.
	ShowIndicator(ctx context.Context, paused bool) (Indicator, error)
	// WatchInput starts reporting raw input events (the person's and the
	// driver's own alike: the engine tells them apart with its send log)
	// until the context ends. XInput2 raw events on X11.
	WatchInput(ctx context.Context, sink func(RawInput)) error
}

// Indicator is a visible takeover indicator on screen.
type Indicator interface {
	// SetPaused switches between the active look and the paused look with
	// its Continue button.
	SetPaused(paused bool) error
	// Events reports the person's Continue clicks (only real clicks count)
	// and the indicator's loss. The channel is closed when Remove is called.
	Events() <-chan IndicatorEvent
	// Remove takes the indicator off screen; it is safe to call twice.
	Remove()
	IndicatorPlacer
}

// IndicatorPlacer says where the indicator's label and Continue button
// sit. On a desktop of several monitors the frame goes round every
// monitor, and the controls go on the monitor of the window the driver
// works in, where the person is looking; a monitor that cannot be told
// stays with the primary.
type IndicatorPlacer interface {
	// Place puts the label and Continue on the monitor holding most of
	// target (root coordinates).
	Place(target Rect) error
}

// IndicatorEvent is something that happened to the indicator.
type IndicatorEvent struct {
	Kind IndicatorEventKind
	At   time.Time
}

// IndicatorEventKind names an indicator event.
type IndicatorEventKind string

const (
	IndicatorContinue IndicatorEventKind = "continue" // the person clicked Continue
	IndicatorLost     IndicatorEventKind = "lost"     // unmapped, destroyed, or its connection failed
)

// WindowID is an X window id (or the mock's).
type WindowID uint64

// Rect is a rectangle; X and Y are in the coordinates the field says.
type Rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// Contains reports whether p lies inside r.
func (r Rect) Contains(p Point) bool {
	return p.X >= r.X && p.Y >= r.Y && p.X < r.X+r.W && p.Y < r.Y+r.H
}

// Center is the middle of r.
func (r Rect) Center() Point { return Point{X: r.X + r.W/2, Y: r.Y + r.H/2} }

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Point is a position.
type Point struct{ X, Y int }

// Window is a visible top-level window. Title and App are untrusted app text.
type Window struct {
	ID       WindowID
	Pid      int
	App      string // the app's name (WM_CLASS or the AT-SPI application name)
	Title    string
	Frame    Rect // root coordinates, device pixels
	Focused  bool
	OnScreen bool
	Stacking int // 0 is the topmost
	// FrameSpace says what Frame and the frames of the window's elements
	// are relative to (docs/contract.md#frame-coordinates).
	FrameSpace FrameSpace
	// NotAnswering marks an entry that is no window: an app that is there
	// (on the accessibility bus) but did not answer the listing in time,
	// and of which no window is known. Only Pid and App (when known) are
	// set. A backend that lists windows from the apps themselves (the
	// Wayland source) says so, so that a target naming that app is told
	// app_not_responding, never that it has no window (target.go).
	NotAnswering bool
}

// FrameSpace is what a window's frames are relative to. It is a fact of
// the window's source, not of the display server: the engine only passes
// it on to the model and leaves out what it cannot know.
type FrameSpace string

const (
	// ScreenSpace: Frame is the window's place on the root window, in
	// device pixels, and its elements' frames are root coordinates too;
	// reads show them relative to the window's top-left.
	ScreenSpace FrameSpace = ""
	// WindowSpace: where the window is on screen is not known (a Wayland
	// compositor tells no client). Frame is the window's size at 0,0, and
	// its elements' frames are relative to its top-left, in the app's
	// logical pixels, as the app reports them. Its stacking order is not
	// known either: Stacking only puts the focused window first.
	WindowSpace FrameSpace = "window"
)

// ProcessIdentity identifies a process beyond its pid, so a reused pid is
// not mistaken for an approved app.
type ProcessIdentity struct {
	Pid       int
	StartTime uint64 // clock ticks since boot, from /proc/PID/stat
	Exe       string // the executable's path
}

// Budget bounds one tree read (the zoom budget).
type Budget struct {
	MaxElements int
	MaxDepth    int
}

// DefaultZoomBudget is what every read reads, whatever it returns, unless
// Options.ZoomBudget says otherwise; a backend given a zero budget uses it.
func DefaultZoomBudget() Budget { return Budget{MaxElements: 5000, MaxDepth: 200} }

// Tree is one whole-window read.
type Tree struct {
	Window    WindowID
	Nodes     []Node
	Truncated bool
	// BlocksOnly: the read is Truncated only because tables were read by
	// their visible block (Node.Table), so every element that can show on
	// screen is in it, but for cells of a block too big for one read that
	// are alike to those read and, like them, no secure field: every
	// secure field on screen is in it, and a screenshot needs no search
	// (capture.go). False when the budget, the depth or anything else left
	// elements out, and on any backend that cannot tell.
	BlocksOnly bool
}

// ElementID is a backend's stable identity of an element (on AT-SPI, the
// bus name plus the object path).
type ElementID string

// ElementRef names an element for an act.
type ElementRef struct {
	Window WindowID
	ID     ElementID
}

// Node is one element of a tree. Name, Description, Value and Text are
// untrusted app text.
type Node struct {
	ID            ElementID
	Parent        int // index in Tree.Nodes; -1 for the root
	IndexInParent int
	Depth         int
	Role          string // AT-SPI role in snake_case
	Name          string
	Description   string
	// Value is the text or numeric value as text; HasValue says whether the
	// element has one. Never set for a secure element.
	Value    string
	HasValue bool
	// Numeric holds the range of a Value-interface element.
	Numeric    *NumericRange
	States     []string // AT-SPI state names in snake_case
	Actions    []string
	ChildCount int
	// Frame is in root coordinates and device pixels (the pixels of the
	// screen, of a capture and of synthetic input), whatever space the
	// app reports its extents in: a backend converts an app that draws
	// each of its logical pixels as several device pixels (docs/decisions.md).
	Frame    Rect
	Secure   bool
	Editable bool // implements EditableText
	Text     bool // implements Text (ReadText works)
	// Table is set on a table whose cells the read holds only in part
	// (the block on screen): its own row and column counts and the block
	// held (table.go). Nil for every other element.
	Table *TableSize
	// Detailed: Value, HasValue, Numeric, Actions and Frame were read (see
	// DetailReader); a plain ReadTree's nodes are all detailed.
	Detailed bool
}

// NumericRange marks a Value-interface element (set_value writes it a
// number) and holds its step, the tolerance of a number's readback (half a
// step). Its bounds are not read: no result shows them, and asking every
// menu item of an office suite for them cost a quarter of its read.
type NumericRange struct {
	Step float64
}

// HasState reports whether the node carries a state.
func (n *Node) HasState(s string) bool { return slices.Contains(n.States, s) }

// Readback is a live read of one element's value.
type Readback struct {
	Value string
	// Truncated: the element held more than the bytes asked for, and Value
	// is their start.
	Truncated bool
	Secure    bool
}

// InputKind is a kind of synthetic or raw input event.
type InputKind string

const (
	InputMotion        InputKind = "motion"
	InputButtonPress   InputKind = "button_press"
	InputButtonRelease InputKind = "button_release"
	InputKeyPress      InputKind = "key_press"
	InputKeyRelease    InputKind = "key_release"
)

// InputEvent is one synthetic event the engine asks the backend to send.
type InputEvent struct {
	Kind   InputKind
	At     Point  // root coordinates, for motion
	Button int    // 1 left, 3 right, 4-7 scroll; 2 is never sent
	Key    string // a keysym name for key events
	Char   rune   // for typing a character that has no key name
}

// RawInput is one raw event the watcher saw, the driver's own included.
type RawInput struct {
	Kind   InputKind
	At     Point
	Button int
	Key    string
	Char   rune
	// Time is when the watcher read the event, on the engine's clock: the
	// wall clock for a real backend and the engine's real clock; a test
	// that gives the engine a fake clock stamps its events with it. Zero
	// when unknown (the event is then judged whenever it arrives).
	Time time.Time
}

// ConsentRequest is what the consent dialog shows. Host and Purpose are the
// host's words, shown as text, never as controls.
type ConsentRequest struct {
	Host          string
	Purpose       string
	Apps          []ConsentApp
	Takeover      bool // show the "ALSO allow VISIBLE TAKEOVER" line
	ClipboardRead bool // show the "Allow clipboard reading" line
}

// ConsentApp is one app line of the dialog.
type ConsentApp struct {
	Pid  int
	Name string
}

// ConsentAnswer is what the person chose.
type ConsentAnswer struct {
	Allowed       bool
	Pids          []int // the app lines left ticked
	Takeover      bool
	ClipboardRead bool
}
