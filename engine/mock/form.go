package mock

import (
	"fmt"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// PasswordCanary is the value of the demo form's password field. It must
// never appear in anything the engine returns, logs or captures.
const PasswordCanary = "CANARY-pw-7f3a"

// SaveDelay is how long after a click on the form's Save button its status
// label changes, so a settle loop has a late change to wait for.
const SaveDelay = 20 * time.Millisecond

// FormTitle is the demo form window's title.
const FormTitle = "Form Demo — Settings"

// Form is a settings-dialog-like window: labels and entries, a secure
// password entry, a multi-line text area, check boxes, radio buttons, a
// combo box with a menu, a spin button, a slider, a list that grows, a
// table, a link, elements with no action at all, and buttons whose clicks
// change the window. The fields name the elements tests act on.
type Form struct {
	Window *Window

	Tabs                  *Element // page_tab_list
	General, Advanced     *Element // page_tab
	Name, Email, Password *Element // entry, entry, password_text (secure, PasswordCanary)
	Notes                 *Element // text: multi-line, editable

	Updates, Remember, DarkMode *Element // check_box; Updates starts checked
	Beta                        *Element // check_box, disabled
	Daily, Weekly, Monthly      *Element // radio_button; Daily starts checked
	Language                    *Element // combo_box; its menu items rename it
	LanguageMenu                *Element // menu under the combo box
	Volume                      *Element // spin_button, 0..100 step 1, value 50
	Brightness                  *Element // slider, 0..1 step 0.1, value 0.5

	AddRow *Element // push_button: appends an item to Items at once
	Items  *Element // list of list_items "Item 1"...
	Table  *Element // table: 3 column headers, 4 table_rows of 3 table_cells

	Logo    *Element // image, no actions
	Hint    *Element // label, no actions
	Privacy *Element // link (jump)

	Save, Cancel, Help *Element // push_button; Save renames Status after SaveDelay
	Unavailable        *Element // push_button, disabled
	Status             *Element // label in the status bar: "Not saved yet", then "Saved (N)"
}

// FormWindow opens the demo form in an app (at 20,20, 640x760).
func FormWindow(app *App) *Form {
	w := app.AddWindow(FormTitle, engine.Rect{X: 20, Y: 20, W: 640, H: 760})
	f := &Form{Window: w}
	root := w.Root()

	f.Tabs = root.Add("page_tab_list", "Sections")
	f.General = f.Tabs.Add("page_tab", "General").AddStates("selected")
	f.Advanced = f.Tabs.Add("page_tab", "Advanced")

	profile := root.Add("panel", "Profile")
	profile.Add("label", "Name")
	f.Name = profile.Add("entry", "Name").SetValue("Ada Lovelace")
	profile.Add("label", "Email")
	f.Email = profile.Add("entry", "Email").SetValue("ada@example.org")
	profile.Add("label", "Password")
	f.Password = profile.Add("password_text", "Password").SetValue(PasswordCanary)
	for _, field := range []struct{ label, value string }{
		{"Phone", "+44 20 7946 0000"},
		{"Company", "Analytical Engines Ltd"},
		{"Street", "12 St James's Square"},
		{"City", "London"},
		{"Postcode", "SW1Y 4JH"},
		{"Country", "United Kingdom"},
	} {
		profile.Add("label", field.label)
		profile.Add("entry", field.label).SetValue(field.value)
	}
	profile.Add("label", "Notes")
	f.Notes = profile.Add("text", "Notes").SetValue("First line of the notes.\nSecond line.\nThird line, the last.")

	prefs := root.Add("panel", "Preferences")
	f.Updates = prefs.Add("check_box", "Send me updates").AddStates("checked")
	f.Remember = prefs.Add("check_box", "Remember me")
	f.DarkMode = prefs.Add("check_box", "Dark mode")
	prefs.Add("check_box", "Show notifications").AddStates("checked")
	prefs.Add("check_box", "Play sounds")
	prefs.Add("check_box", "Start at login")
	f.Beta = prefs.Add("check_box", "Beta features").Disable()
	freq := prefs.Add("panel", "Frequency")
	f.Daily = freq.Add("radio_button", "Daily").AddStates("checked")
	f.Weekly = freq.Add("radio_button", "Weekly")
	f.Monthly = freq.Add("radio_button", "Monthly")
	prefs.Add("label", "Language")
	f.Language = prefs.Add("combo_box", "English")
	f.LanguageMenu = f.Language.Add("menu", "Language").SetActions()
	for _, lang := range []string{"English", "Français", "Deutsch", "Español"} {
		item := f.LanguageMenu.Add("menu_item", lang)
		item.OnAction("click", func(ac *ActionContext) { f.choose(ac.Element) })
	}
	f.LanguageMenu.Find("menu_item", "English").AddStates("selected")
	prefs.Add("label", "Volume")
	f.Volume = prefs.Add("spin_button", "Volume").SetNumeric(0, 100, 1, 50)
	prefs.Add("label", "Brightness")
	f.Brightness = prefs.Add("slider", "Brightness").SetNumeric(0, 1, 0.1, 0.5)

	rows := root.Add("panel", "Rows")
	f.AddRow = rows.Add("push_button", "Add row")
	f.Items = rows.Add("list", "Items")
	for i := 1; i <= 3; i++ {
		f.Items.Add("list_item", fmt.Sprintf("Item %d", i))
	}
	f.AddRow.OnAction("click", func(ac *ActionContext) {
		n := len(f.Items.Children()) + 1
		f.Items.Add("list_item", fmt.Sprintf("Item %d", n))
	})

	f.Table = root.Add("table", "Accounts")
	for _, h := range []string{"Service", "User", "Last used"} {
		f.Table.Add("table_column_header", h)
	}
	for _, r := range [][3]string{
		{"Mail", "ada", "today"},
		{"Calendar", "ada", "yesterday"},
		{"Files", "ada.l", "last week"},
		{"Chat", "lovelace", "never"},
	} {
		row := f.Table.Add("table_row", r[0])
		for _, c := range r {
			row.Add("table_cell", c)
		}
	}

	f.Logo = root.Add("image", "Logo")
	f.Hint = root.Add("label", "Changes apply after you press Save.")
	f.Privacy = root.Add("link", "Privacy policy")

	actions := root.Add("panel", "Actions")
	f.Save = actions.Add("push_button", "Save")
	f.Cancel = actions.Add("push_button", "Cancel")
	f.Help = actions.Add("push_button", "Help")
	f.Unavailable = actions.Add("push_button", "Export").Disable()

	f.Status = root.Add("status_bar", "Status").Add("label", "Not saved yet")
	saves := 0
	f.Save.OnAction("click", func(ac *ActionContext) {
		ac.After(SaveDelay, func() {
			// Count and rename in one step, so concurrent saves end
			// with the last count shown.
			ac.Desktop.mu.Lock()
			defer ac.Desktop.mu.Unlock()
			saves++
			f.Status.name = fmt.Sprintf("Saved (%d)", saves)
			ac.Desktop.touch()
		})
	})

	f.Name.Focus()
	return f
}

// choose picks a language from the combo box's menu: the combo box takes
// its name and closes.
func (f *Form) choose(item *Element) {
	for _, it := range f.LanguageMenu.Children() {
		it.RemoveStates("selected")
	}
	item.AddStates("selected")
	f.Language.SetName(item.Name()).RemoveStates("expanded")
}
