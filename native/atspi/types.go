package atspi

// The package's own vocabulary: what a read returns and what an act names.
// They are deliberately plain (no methods the engine relies on): package
// native translates them into the engine's types, the one place the two
// meet, so this package can change its reading (a walk level by level, a
// table read by its visible block) without touching the engine.

// ID names an element: its app's bus name, the bus generation's tag, and
// the object's path (see splitID).
type ID string

// Rect is an element's extents, in screen coordinates and the app's own
// pixels (package native turns them into device pixels).
type Rect struct {
	X, Y, W, H int
}

// Budget bounds one read.
type Budget struct {
	MaxElements int
	MaxDepth    int
}

// DefaultBudget is what a read with a zero budget field reads: the same
// bounds as the engine's zoom budget, which package native passes on
// every read.
var DefaultBudget = Budget{MaxElements: 5000, MaxDepth: 200}

// Tree is one window's read, in pre-order with Nodes[0] the frame.
type Tree struct {
	Nodes []Node
	// Truncated: the budget or a fill-in that stopped early left
	// elements out.
	Truncated bool
	// BlocksOnly: Truncated only because tables were read by their
	// visible block (engine.Tree.BlocksOnly).
	BlocksOnly bool
}

// Node is one element of a read. Name, Description, Value and the action
// names are untrusted app text.
type Node struct {
	ID            ID
	Parent        int // index in Tree.Nodes; -1 for the root
	IndexInParent int
	Depth         int
	Role          string // AT-SPI role in snake_case
	Name          string
	Description   string
	// Value is the text or numeric value as text; HasValue says whether
	// the element has one. Never set for a secure element.
	Value    string
	HasValue bool
	// Numeric holds the range of a Value-interface element.
	Numeric *Range
	// States are AT-SPI state names in snake_case. Nodes with the same
	// states may share one slice (its capacity is its length, so an
	// append copies).
	States     []string
	Actions    []string
	ChildCount int
	Frame      Rect
	Secure     bool
	Editable   bool // implements EditableText, and the app takes what is written
	Text       bool // implements Text (ReadText works)
	// Table is set on a table read by its visible block (tables.go):
	// its counts and the block the read holds.
	Table *TableSize
}

// TableSize is a table's row and column counts as it reports them, and
// the block of its cells a read holds as one-based first and last row and
// column (zero when it holds none).
type TableSize struct {
	Rows, Columns           int
	FirstRow, LastRow       int
	FirstColumn, LastColumn int
}

// Range is a Value-interface element's range.
type Range struct {
	Step float64
}

// HasState reports whether the node carries a state.
func (n *Node) HasState(s string) bool {
	for _, x := range n.States {
		if x == s {
			return true
		}
	}
	return false
}

// Field is a live read of an editable element's text and caret.
type Field struct {
	Text      string
	Truncated bool
	Caret     int // -1 when unknown
	Secure    bool
}

// Readback is a live read of one element's value.
type Readback struct {
	Value     string
	Truncated bool // the element held more than the bytes asked for
	Secure    bool
}

// ScrollHint says how to bring an element into view when the app declines
// to scroll it there itself (Client.ScrollIntoView).
type ScrollHint struct {
	// ScrollBar is the clipping view's vertical scroll bar ("" when none
	// is known).
	ScrollBar ID
	// Position is where the element lies in the view's content, from 0
	// (its start) to 1 (its end).
	Position float64
	// Delta, when not zero, moves the scroll bar by this many of the
	// app's pixels from where it is instead.
	Delta int
}
