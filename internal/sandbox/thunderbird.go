package sandbox

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
)

// Thunderbird on the test desktop: Debian's thunderbird, a Gecko app
// started like Firefox (gecko.go) on a profile that needs no first-run
// wizard. The profile has one account, Local Folders, with an identity
// (a compose window needs one to open), works offline, and opens a folder
// of Local Folders in its three-pane window at the first start: the
// folder's mbox file is the caller's to write (MailboxFile) before the
// start.

// ThunderbirdAppName is the name Thunderbird registers under on the
// AT-SPI bus.
const ThunderbirdAppName = "Thunderbird"

// ThunderbirdIdentity is the address of the profile's one identity: the
// From of every message composed in it.
const ThunderbirdIdentity = "ada@example.invalid"

// thunderbirdUserJS are Thunderbird's own preferences of a test profile,
// after the ones every Gecko app gets: the Local Folders account and its
// identity (so neither the account wizard nor the account hub opens), no
// default-client question, start page, rights bar, donation or in-app
// notification, no search indexer, no mail check, and offline from the
// start (nothing here needs the network).
const thunderbirdUserJS = `user_pref("mail.accountmanager.accounts", "account1");
user_pref("mail.accountmanager.defaultaccount", "account1");
user_pref("mail.accountmanager.localfoldersserver", "server1");
user_pref("mail.account.account1.server", "server1");
user_pref("mail.account.account1.identities", "id1");
user_pref("mail.identity.id1.fullName", "Ada");
user_pref("mail.identity.id1.useremail", "` + ThunderbirdIdentity + `");
user_pref("mail.server.server1.type", "none");
user_pref("mail.server.server1.hostname", "Local Folders");
user_pref("mail.server.server1.name", "Local Folders");
user_pref("mail.server.server1.userName", "nobody");
user_pref("mail.server.server1.directory-rel", "[ProfD]Mail/Local Folders");
user_pref("mail.provider.enabled", false);
user_pref("mail.provider.suppress_dialog_on_startup", true);
user_pref("mail.shell.checkDefaultClient", false);
user_pref("mail.spotlight.firstRunDone", true);
user_pref("mail.winsearch.firstRunDone", true);
user_pref("mail.rights.version", 1);
user_pref("mailnews.start_page.enabled", false);
user_pref("mailnews.database.global.indexer.enabled", false);
user_pref("mail.inappnotifications.enabled", false);
user_pref("app.donation.eoy.version.viewed", 999);
user_pref("mail.startup.enabledMailCheckOnce", true);
user_pref("mail.biff.show_alert", false);
user_pref("mail.biff.play_sound", false);
user_pref("mail.phishing.detection.enabled", false);
user_pref("offline.startup_state", 3);
`

// ThunderbirdProfile is a Thunderbird profile made for one start.
type ThunderbirdProfile struct {
	Dir string
}

// localFolders is the profile's Local Folders store: one mbox file per
// folder, named as the folder.
func (p ThunderbirdProfile) localFolders() string {
	return filepath.Join(p.Dir, "Mail", "Local Folders")
}

// MailboxFile is the path of the mbox file of folder in Local Folders;
// Thunderbird finds a folder there by its file.
func (p ThunderbirdProfile) MailboxFile(folder string) string {
	return filepath.Join(p.localFolders(), folder)
}

// NewThunderbirdProfile makes a new profile under the desktop's private
// folder whose three-pane window opens folder (of Local Folders) at the
// first start, with the message pane shown.
func (d *Desktop) NewThunderbirdProfile(folder string) (ThunderbirdProfile, error) {
	dir, err := d.geckoProfile("thunderbird", thunderbirdUserJS)
	if err != nil {
		return ThunderbirdProfile{}, err
	}
	p := ThunderbirdProfile{Dir: dir}
	if err := os.MkdirAll(p.localFolders(), 0o700); err != nil {
		return p, err
	}
	session, err := json.Marshal(threePaneSession(folder))
	if err != nil {
		return p, err
	}
	return p, os.WriteFile(filepath.Join(dir, "session.json"), session, 0o600)
}

// threePaneSession is the session Thunderbird restores at its start (its
// session.json, SessionStoreManager's format): one three-pane window
// whose first tab shows folder of Local Folders with the folder and
// message panes shown.
func threePaneSession(folder string) any {
	type tab struct {
		Mode  string         `json:"mode"`
		State map[string]any `json:"state"`
		Ext   map[string]any `json:"ext"`
	}
	first := tab{Mode: "mail3PaneTab", Ext: map[string]any{}, State: map[string]any{
		"firstTab":           true,
		"folderURI":          "mailbox://nobody@Local%20Folders/" + url.PathEscape(folder),
		"folderPaneVisible":  true,
		"messagePaneVisible": true,
	}}
	return map[string]any{"rev": 0, "windows": []any{map[string]any{
		"type": "3pane",
		"tabs": map[string]any{"rev": 0, "selectedIndex": 0, "tabs": []tab{first}},
	}}}
}

// ThunderbirdCommand prepares Thunderbird on this desktop in profile
// (NewThunderbirdProfile), with its tree exposed. Start it with Start;
// the process started is the app on the accessibility bus (Debian's
// launcher script execs it).
func (d *Desktop) ThunderbirdCommand(p ThunderbirdProfile) (*exec.Cmd, error) {
	prog, err := lookTool("thunderbird", "thunderbird")
	if err != nil {
		return nil, err
	}
	return d.geckoCommand(prog, p.Dir), nil
}
