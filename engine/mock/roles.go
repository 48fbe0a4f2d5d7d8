package mock

// What a new element of a role starts with, so that builders stay short and
// elements look as GTK's look over AT-SPI. Every setter overrides these.
type roleDefaults struct {
	actions  []string
	states   []string // added after the base states
	editable bool     // implements EditableText
	text     bool     // implements Text
	secure   bool
	value    bool // has a value from the start (an empty text)
}

// baseStates are what every new element carries: it can be used and is on
// screen. A disabled element lacks enabled and sensitive; a hidden one lacks
// visible and showing (AT-SPI has no "disabled" state of its own).
var baseStates = []string{"enabled", "sensitive", "visible", "showing"}

var roleTable = map[string]roleDefaults{
	"push_button":     {actions: []string{"click"}, states: []string{"focusable"}},
	"toggle_button":   {actions: []string{"click"}, states: []string{"focusable", "checkable"}},
	"check_box":       {actions: []string{"click"}, states: []string{"focusable", "checkable"}},
	"radio_button":    {actions: []string{"click"}, states: []string{"focusable", "checkable"}},
	"menu_item":       {actions: []string{"click"}, states: []string{"selectable"}},
	"check_menu_item": {actions: []string{"click"}, states: []string{"checkable"}},
	"radio_menu_item": {actions: []string{"click"}, states: []string{"checkable"}},
	"menu":            {actions: []string{"click"}, states: []string{"selectable"}},
	"combo_box":       {actions: []string{"press"}, states: []string{"focusable", "expandable"}},
	"link":            {actions: []string{"jump"}, states: []string{"focusable"}},
	"page_tab":        {actions: []string{"click"}, states: []string{"selectable"}},
	"list_item":       {states: []string{"focusable", "selectable"}},
	"table_cell":      {states: []string{"selectable"}, text: true},
	"entry":           {actions: []string{"activate"}, states: []string{"focusable", "editable", "single_line"}, editable: true, text: true, value: true},
	"password_text":   {actions: []string{"activate"}, states: []string{"focusable", "editable", "single_line"}, editable: true, text: true, value: true, secure: true},
	"text":            {states: []string{"focusable", "editable", "multi_line"}, editable: true, text: true, value: true},
	"document_text":   {states: []string{"focusable", "editable", "multi_line"}, editable: true, text: true, value: true},
	"spin_button":     {actions: []string{"activate"}, states: []string{"focusable", "editable", "single_line"}, editable: true, text: true},
	"slider":          {states: []string{"focusable"}},
	"label":           {text: true},
	"heading":         {text: true},
	"paragraph":       {text: true},
	"static":          {text: true},
}

// primaryActions are the actions a pointer click (or Return/space on a
// focused control) performs, in the order the first present one is chosen.
var primaryActions = []string{"click", "press", "activate", "toggle", "jump"}

// toggling roles flip "checked" on their primary action when no handler
// says otherwise.
var toggling = map[string]bool{
	"check_box": true, "toggle_button": true, "radio_button": true,
	"check_menu_item": true, "radio_menu_item": true,
}

// radio roles uncheck their checked siblings when checked.
var radio = map[string]bool{"radio_button": true, "radio_menu_item": true}
