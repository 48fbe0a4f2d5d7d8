package sandbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGeckoProfilesShareTheQuietPreferences: Firefox's and Thunderbird's
// profiles both begin with the preferences every Gecko app gets, then
// their own, and both run as separate instances without a crash
// reporter.
func TestGeckoProfilesShareTheQuietPreferences(t *testing.T) {
	d := unstartedDesktop(t)
	tb, err := d.NewThunderbirdProfile("Fixture")
	if err != nil {
		t.Fatal(err)
	}
	tbCmd, err := d.ThunderbirdCommand(tb)
	if err != nil {
		t.Fatalf("%v (make test installs thunderbird)", err)
	}
	ffCmd, err := d.BrowserCommand(Firefox, "about:blank")
	if err != nil {
		t.Fatalf("%v (make test installs firefox-esr)", err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		env    []string
		ownPre string
	}{
		{"Thunderbird", tbCmd.Args, tbCmd.Env, thunderbirdUserJS},
		{"Firefox", ffCmd.Args, ffCmd.Env, firefoxUserJS},
	} {
		t.Run(c.name, func(t *testing.T) {
			i := slices.Index(c.args, "--profile")
			if i < 0 || i+1 == len(c.args) || !slices.Contains(c.args, "--no-remote") {
				t.Fatalf("not a separate instance on a profile of its own: %q", c.args)
			}
			b, err := os.ReadFile(filepath.Join(c.args[i+1], "user.js"))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != geckoUserJS+c.ownPre {
				t.Errorf("user.js is not the shared preferences, then the app's own:\n%s", b)
			}
			for _, want := range []string{"MOZ_CRASHREPORTER_DISABLE=1", "GNOME_ACCESSIBILITY=1"} {
				if !slices.Contains(c.env, want) {
					t.Errorf("no %s in the environment", want)
				}
			}
		})
	}
}

// TestThunderbirdProfileOpensTheFolder: a Thunderbird profile inside the
// desktop's folder, with the Local Folders account whose store holds the
// caller's mailbox file, and a session that opens that folder in the
// three-pane window's first tab.
func TestThunderbirdProfileOpensTheFolder(t *testing.T) {
	d := unstartedDesktop(t)
	p, err := d.NewThunderbirdProfile("My Mail")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Dir, d.Root+string(filepath.Separator)) {
		t.Fatalf("profile %q is not inside the desktop's folder %s", p.Dir, d.Root)
	}
	if want := filepath.Join(p.Dir, "Mail", "Local Folders", "My Mail"); p.MailboxFile("My Mail") != want {
		t.Fatalf("the folder's mailbox is %s, want %s", p.MailboxFile("My Mail"), want)
	}
	if err := os.WriteFile(p.MailboxFile("My Mail"), nil, 0o600); err != nil {
		t.Fatalf("the Local Folders store is not made: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(p.Dir, "session.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Windows []struct {
			Type string
			Tabs struct {
				Tabs []struct {
					Mode  string
					State map[string]any
				}
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Windows) != 1 || s.Windows[0].Type != "3pane" || len(s.Windows[0].Tabs.Tabs) != 1 {
		t.Fatalf("the session is not one three-pane window with one tab: %s", b)
	}
	tab := s.Windows[0].Tabs.Tabs[0]
	if tab.Mode != "mail3PaneTab" || tab.State["firstTab"] != true ||
		tab.State["folderURI"] != "mailbox://nobody@Local%20Folders/My%20Mail" {
		t.Fatalf("the first tab does not open the folder: %s", b)
	}
}
