package atspi

import (
	"strings"
)

// stateSet is an AT-SPI state set: bit N is state number N (the wire sends
// it as two 32-bit words, low word first).
type stateSet uint64

// State numbers the package tests (AtspiStateType).
const (
	stateEditable           = 7
	stateEnabled            = 8
	stateFocused            = 12
	stateSensitive          = 24
	stateShowing            = 25
	stateVisible            = 30
	stateManagesDescendants = 31
)

func (s stateSet) has(n int) bool { return s&(1<<uint(n)) != 0 }

// ifaceSet records which AT-SPI interfaces an object implements.
type ifaceSet uint32

const (
	ifAccessible ifaceSet = 1 << iota
	ifAction
	ifApplication
	ifCollection
	ifComponent
	ifDocument
	ifEditableText
	ifHyperlink
	ifHypertext
	ifImage
	ifSelection
	ifTable
	ifTableCell
	ifText
	ifValue
)

var ifaceBits = map[string]ifaceSet{
	"org.a11y.atspi.Accessible":   ifAccessible,
	"org.a11y.atspi.Action":       ifAction,
	"org.a11y.atspi.Application":  ifApplication,
	"org.a11y.atspi.Collection":   ifCollection,
	"org.a11y.atspi.Component":    ifComponent,
	"org.a11y.atspi.Document":     ifDocument,
	"org.a11y.atspi.EditableText": ifEditableText,
	"org.a11y.atspi.Hyperlink":    ifHyperlink,
	"org.a11y.atspi.Hypertext":    ifHypertext,
	"org.a11y.atspi.Image":        ifImage,
	"org.a11y.atspi.Selection":    ifSelection,
	"org.a11y.atspi.Table":        ifTable,
	"org.a11y.atspi.TableCell":    ifTableCell,
	"org.a11y.atspi.Text":         ifText,
	"org.a11y.atspi.Value":        ifValue,
}

// decodeIfaces reads a list of interface names (as) into a set.
func decodeIfaces(d *decoder) ifaceSet {
	var s ifaceSet
	end := d.array(4)
	for d.more(end) {
		s |= ifaceBits[string(d.strBytes())]
	}
	return s
}

// elem is one accessible object as the reader learns it: first from the
// app's cache reply or from per-object calls, then placed in the tree.
type elem struct {
	bus, path string
	ident     string // bus + path: the map key and the ElementID
	// parent as the app reported it (empty when unknown)
	parentBus, parentPath string
	index                 int32 // index in parent as reported; -1 unknown
	childCount            int32 // as reported; -1 unknown (menus in the cache)
	ifaces                ifaceSet
	name, desc            string
	role                  uint32
	states                stateSet

	// id is the element's id in the read (assemble): by path, or by
	// place for a child of a container that remakes its children
	// (places.go).
	id   ID
	mark int // the walk that last visited it (cycle guard)
	// inEditableDoc: the element is, or lies inside, a document that says
	// it is editable (read.go, documentStates).
	inEditableDoc bool
	// inPage: the element is, or lies inside, a web page (role
	// document_web): its action lists say when a browser's are live
	// (actionlists.go).
	inPage bool
	// A table whose visible block is read (tables.go): blockRead once
	// tried, with the table's row and column counts (-1 unknown when
	// zero-valued fields are not yet read).
	blockRead            bool
	tableRows, tableCols int32
	// blockCut: the cells of the block the read holds cannot stand for
	// those that show (a cell not known ended it early, none was read, or
	// the bounds or the budget cut it and a cell read is a password
	// field), so the read is not Tree.BlocksOnly (tables.go).
	blockCut bool
	// A cell of such a block: its row and column.
	inBlock          bool
	cellRow, cellCol int32
	hasProps         bool // role, name, states and interfaces are known
	gone             bool // the object vanished during the read
	resolved         bool // children is the complete, ordered child list
	// counted: the child count was asked for on its own (a cache reply
	// gives -1 for a container that manages its descendants)
	counted  bool
	children []*elem // valid when resolved
	cached   []*elem // children the cache reply named (unordered)
	// depth is the element's depth in the tree as the fill-in last saw
	// it: its follow-up calls keep to the depth budget by it (fill.go).
	depth int32
}

// newElem makes an element known by reference only.
func newElem(bus, path string) *elem {
	return &elem{bus: bus, path: path, ident: bus + path, index: -1, childCount: -1}
}

// key is the element's identity: bus name and object path.
func (e *elem) key() string { return e.ident }

// nullPath is AT-SPI's "no object" reference.
const nullPath = "/org/a11y/atspi/null"

// An ElementID is the app's bus name and the object's path,
// ":1.42/org/a11y/atspi/accessible/17". Bus names are handed out afresh
// when the accessibility bus restarts, so the same text could name another
// app's object afterwards: ids minted after the client's first bus
// connection carry the connection's generation after the bus name
// (":1.42@2/org/..."; '@' never occurs in a bus name), and ids of an older
// generation are refused as gone.

// splitID splits an ElementID into bus name (generation included) and
// object path.
func splitID(id ID) (bus, path string, ok bool) {
	s := string(id)
	i := strings.IndexByte(s, '/')
	if i <= 0 {
		return "", "", false
	}
	return s[:i], s[i:], true
}

// topLevelRoles are the roles of an application's windows.
var topLevelRoles = map[string]bool{
	"frame": true, "window": true, "dialog": true, "alert": true, "file_chooser": true,
	"color_chooser": true, "font_chooser": true,
}

// textValueRoles are roles whose text is their value (what a person typed
// or a document's content), as opposed to labels whose text is their name.
var textValueRoles = map[string]bool{
	"text": true, "entry": true, "paragraph": true, "terminal": true, "editbar": true,
	"document_text": true, "document_web": true, "document_email": true,
	"document_frame": true, "document_spreadsheet": true, "document_presentation": true,
	"password_text": true, "spin_button": true,
}

// unnamedTextRoles are roles whose text is read as the value when the
// element has no name. Web pages keep most of what they show in such
// blocks' text rather than in names: Firefox names neither a table cell
// nor a live region by its text (Chromium adds a named static child), so
// without this a cell, a status line or a heading would read empty.
var unnamedTextRoles = map[string]bool{
	"table_cell": true, "column_header": true, "row_header": true, "status_bar": true,
	"heading": true, "list_item": true, "section": true, "caption": true,
	"block_quote": true, "static": true, "label": true, "alert": true,
	"notification": true, "log": true, "timer": true, "marquee": true,
	"comment": true, "footnote": true, "definition": true, "description_value": true,
	"article": true, "mark": true, "content_insertion": true, "content_deletion": true,
}

// editableText reports whether an element takes typed text: it has the
// EditableText interface and says it is editable now. Firefox gives every
// block of a page the interface (a page may turn editable), so the
// interface alone would make a heading or a table cell a typing target.
func editableText(ifaces ifaceSet, states stateSet) bool {
	return ifaces&ifEditableText != 0 && states.has(stateEditable)
}
