package mock

import (
	"fmt"
	"strings"

	"github.com/nish-driver/nish-driver/engine"
)

// EditorSecretLine is a credential-looking line in the demo editor's
// document, for testing that drill-down text redacts it.
const EditorSecretLine = "api_key=AKIAIOSFODNN7EXAMPLE"

// EditorText is the demo editor's document.
var EditorText = strings.Join([]string{
	"Meeting notes",
	"",
	"The quarterly review is on Thursday. Bring the figures for the north and south regions, and the list of open questions from last time.",
	"",
	"Deployment settings",
	EditorSecretLine,
	"region=eu-west-1",
	"",
	"Action items",
	"- Ada: update the dashboard before the review.",
	"- Grace: check that last night's backups finished.",
	"- Everyone: read the draft plan and send comments by Friday.",
	"",
}, "\n")

// Editor is a text editor window: a menu bar, a tool bar, one
// document_text holding EditorText, and a status bar.
type Editor struct {
	Window   *Window
	Document *Element // document_text, editable, multi-line
	Status   *Element // label "Ln 1, Col 1"
}

// EditorWindow opens the demo editor window in an app (at 680,20, 800x560).
func EditorWindow(app *App) *Editor {
	w := app.AddWindow("notes.txt — Editor", engine.Rect{X: 680, Y: 20, W: 800, H: 560})
	root := w.Root()
	bar := root.Add("menu_bar", "")
	file := bar.Add("menu", "File")
	for _, s := range []string{"New", "Open…", "Save", "Quit"} {
		file.Add("menu_item", s)
	}
	edit := bar.Add("menu", "Edit")
	for _, s := range []string{"Undo", "Copy", "Paste"} {
		edit.Add("menu_item", s)
	}
	tools := root.Add("tool_bar", "")
	for _, s := range []string{"New", "Open", "Save"} {
		tools.Add("push_button", s)
	}
	doc := root.Add("scroll_pane", "").Add("document_text", "notes.txt").SetValue(EditorText).SetCaret(0)
	status := root.Add("status_bar", "").Add("label", "Ln 1, Col 1")
	doc.Focus()
	return &Editor{Window: w, Document: doc, Status: status}
}

// DenseWindow opens a chat-client-like window in an app: a tool bar, a
// channel list, and a conversation of rows messages, each a list item
// holding an unnamed panel with an author label, a text label and React /
// Reply buttons (six elements a row), so a full read is large while a
// skeleton read (containers and landmarks only) stays small.
func DenseWindow(app *App, title string, rows int) *Window {
	w := app.AddWindow(title, engine.Rect{X: 680, Y: 600, W: 900, H: 460})
	root := w.Root()
	tools := root.Add("tool_bar", "Toolbar")
	for _, s := range []string{"Home", "Mentions", "Saved", "Settings"} {
		tools.Add("push_button", s)
	}
	tools.Add("entry", "Search messages")
	split := root.Add("split_pane", "")
	side := split.Add("panel", "Sidebar")
	channels := side.Add("list", "Channels")
	for i := 1; i <= 10; i++ {
		channels.Add("list_item", fmt.Sprintf("channel-%d", i)).Add("label", fmt.Sprintf("channel-%d", i))
	}
	conv := split.Add("panel", "Conversation")
	msgs := conv.Add("scroll_pane", "").Add("list", "Messages")
	for i := 1; i <= rows; i++ {
		item := msgs.Add("list_item", "")
		p := item.Add("panel", "")
		p.Add("label", fmt.Sprintf("User %d", i%7+1))
		p.Add("label", fmt.Sprintf("Message number %d in this conversation.", i))
		p.Add("push_button", "React")
		p.Add("push_button", "Reply")
	}
	conv.Add("entry", "Message")
	conv.Add("push_button", "Send")
	root.Add("status_bar", "").Add("label", "Connected")
	return w
}

// Demo names the parts of NewDemo's desktop.
type Demo struct {
	FormApp, EditorApp, ChatApp *App
	Form                        *Form
	Editor                      *Editor
	// ChatMain (80 message rows) and ChatDirect (20 rows) are the Chat
	// app's two windows, so a target of app "Chat" is ambiguous.
	ChatMain, ChatDirect *Window
}

// NewDemo returns a desktop with three apps: "Form Demo" (pid 4000,
// /usr/bin/form-demo) with FormWindow, "Editor" (pid 4001, /usr/bin/editor)
// with EditorWindow, and "Chat" (pid 4002, /usr/bin/chat) with two dense
// windows. No two windows overlap; the form is on top and focused. The
// person allows everything asked (AllowAll). Demo returns the parts.
func NewDemo() *Desktop {
	d := New()
	d.demo = BuildDemo(d)
	d.SetConsent(AllowAll)
	return d
}

// BuildDemo adds NewDemo's apps and windows to a desktop.
func BuildDemo(d *Desktop) *Demo {
	dm := &Demo{
		FormApp:   d.AddApp("Form Demo", "/usr/bin/form-demo"),
		EditorApp: d.AddApp("Editor", "/usr/bin/editor"),
		ChatApp:   d.AddApp("Chat", "/usr/bin/chat"),
	}
	dm.ChatMain = DenseWindow(dm.ChatApp, "general — Chat", 80)
	dm.ChatDirect = DenseWindow(dm.ChatApp, "Direct messages — Chat", 20)
	dm.ChatDirect.SetFrame(engine.Rect{X: 1500, Y: 20, W: 400, H: 560})
	dm.Editor = EditorWindow(dm.EditorApp)
	dm.Form = FormWindow(dm.FormApp)
	return dm
}

// Demo returns the parts of a NewDemo desktop (nil for other desktops).
func (d *Desktop) Demo() *Demo {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.demo
}
