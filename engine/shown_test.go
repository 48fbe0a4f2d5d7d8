package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// Every matcher sees what a read shows (engine/shown.go): a filter or a
// condition that looked at text before redaction would answer questions
// about what a read hides, and a model guessing a character at a time
// would read a key through met/not met.

// vault is a window that keeps secrets in each place a matcher looks: its
// title, a button's label, a field's value, a document, and a password
// field.
type vault struct {
	win                              *mock.Window
	button, entry, doc, password     *mock.Element
	titleKey, labelKey, entryKey     string
	docKey, passwordValue, titleText string
}

const (
	vaultTitleKey = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	vaultLabelKey = "AKIAIOSFODNN7EXAMPLE"
	vaultEntryKey = "hunter2-Hunter2-hunter2"
	vaultDocKey   = "sk-abcdefghijklmnopqrstuvwxyzABCDEF012345"
	vaultPassword = "Pw-in-the-field-42"
)

func addVault(h *harness) *vault {
	app := h.desk.AddApp("Vault", "/usr/bin/vault")
	v := &vault{titleText: "deploy token: " + vaultTitleKey + " — Vault"}
	v.win = app.AddWindow(v.titleText, engine.Rect{X: 40, Y: 620, W: 500, H: 400})
	root := v.win.Root()
	v.button = root.Add("push_button", "api_key="+vaultLabelKey)
	v.entry = root.Add("entry", "Config").SetValue("password=" + vaultEntryKey)
	v.doc = root.Add("document_text", "notes").SetValue("deploy notes\nsecret: " + vaultDocKey + "\nend")
	v.password = root.Add("password_text", "Password").SetValue(vaultPassword)
	return v
}

// probes are texts a model might guess: growing prefixes of a secret, the
// secret whole, and what reads show in its place.
func probes(secret string) []string {
	out := []string{"[redacted]", "redacted", secret, strings.ToLower(secret)}
	for _, n := range []int{1, 3, 5, 8, 12, 16, 20} {
		if n < len(secret) {
			out = append(out, secret[:n], secret[len(secret)-n:])
		}
	}
	return out
}

func TestEveryMatcherSeesWhatAReadShows(t *testing.T) {
	h := newHarness(t, nil)
	v := addVault(h)
	h.start(map[string]any{"apps": []any{"Vault"}})
	win := uint64(v.win.ID())
	read := h.ok("get_window_state", map[string]any{"window_id": win})
	shownLabel := map[string]string{}
	shownValue := map[string]string{}
	for _, r := range read["elements"].([]any) {
		row := r.(map[string]any)
		role := row["role"].(string)
		shownLabel[role], _ = row["label"].(string)
		if val, ok := row["value"].(string); ok {
			shownValue[role] = val
		}
		if role == "password_text" && row["value"] != nil {
			t.Fatalf("a read showed the password field's value: %v", row)
		}
	}
	shownTitle := read["window"].(map[string]any)["title"].(string)

	met := func(cond map[string]any) bool {
		res := h.ok("wait_for", map[string]any{"window_id": win, "condition": cond, "timeout_ms": 0})
		return res["met"] == true
	}
	matchers := []struct {
		name    string
		secrets []string
		shown   string // what a read shows of the text the matcher looks at
		matches func(probe string) bool
	}{
		{"find_elements label", []string{vaultLabelKey, "api_key="}, shownLabel["push_button"], func(p string) bool {
			res := h.ok("find_elements", map[string]any{"window_id": win, "role": "push_button", "label": p})
			return testkit.Int(t, res, "match_count") > 0
		}},
		{"wait_for appears by label", []string{vaultLabelKey}, shownLabel["push_button"], func(p string) bool {
			return met(map[string]any{"kind": "appears", "role": "push_button", "label": p})
		}},
		{"wait_for text in a label", []string{vaultLabelKey}, shownLabel["push_button"], func(p string) bool {
			return met(map[string]any{"kind": "text", "role": "push_button", "text": p})
		}},
		{"wait_for text in a field's value", []string{vaultEntryKey, "password="}, shownLabel["entry"] + "\x00" + shownValue["entry"], func(p string) bool {
			return met(map[string]any{"kind": "text", "role": "entry", "text": p})
		}},
		{"wait_for text in a document", []string{vaultDocKey, "secret: "}, shownLabel["document_text"] + "\x00" + shownValue["document_text"], func(p string) bool {
			return met(map[string]any{"kind": "text", "role": "document_text", "text": p})
		}},
		{"wait_for text in a password field", []string{vaultPassword}, shownLabel["password_text"], func(p string) bool {
			return met(map[string]any{"kind": "text", "role": "password_text", "text": p})
		}},
		{"wait_for title", []string{vaultTitleKey, "token: "}, shownTitle, func(p string) bool {
			return met(map[string]any{"kind": "title", "text": p})
		}},
		{"a window target by title fragment", []string{vaultTitleKey}, shownTitle + "\x00Vault", func(p string) bool {
			res := h.raw("find_elements", map[string]any{"app": p, "role": "push_button"})
			// app_not_approved: the fragment names another app (names are
			// what list_windows shows of every app).
			if res.Err != nil && res.Err.Code != engine.CodeWindowTargetNotFound && res.Err.Code != engine.CodeAppNotApproved {
				t.Fatalf("a target by title fragment: %s", res.Text)
			}
			return res.Err == nil
		}},
	}
	for _, m := range matchers {
		t.Run(m.name, func(t *testing.T) {
			checked := 0
			for _, secret := range m.secrets {
				for _, p := range probes(secret) {
					want := strings.Contains(strings.ToLower(m.shown), strings.ToLower(p))
					if got := m.matches(p); got != want {
						t.Errorf("probe %q: matched %v, but a read shows %q", p, got, m.shown)
					}
					checked++
				}
			}
			if checked < 10 {
				t.Fatalf("only %d probes", checked)
			}
		})
	}
	// The secrets really are in the app: a matcher that saw them would be
	// told apart by the test above.
	for _, s := range []string{vaultTitleKey, vaultLabelKey, vaultEntryKey, vaultDocKey} {
		if strings.Contains(fmt.Sprint(read), s) {
			t.Fatalf("the read itself shows %q", s)
		}
	}
	if !strings.Contains(v.win.Title(), vaultTitleKey) || !strings.Contains(v.doc.Value(), vaultDocKey) {
		t.Fatal("the vault lost its secrets")
	}
}

// TestWaitForIsNoOracleForARedactedKey is the adversary's own probe: a
// key the read shows as [redacted], guessed one character at a time.
func TestWaitForIsNoOracleForARedactedKey(t *testing.T) {
	h := newHarness(t, nil)
	h.start(nil)
	doc := h.demo.Editor.Window.ID()
	guess := func(text string) bool {
		res := h.ok("wait_for", map[string]any{"app": "Editor", "condition": map[string]any{"kind": "text", "role": "document_text", "text": text}, "timeout_ms": 0})
		return res["met"] == true
	}
	if !guess("api_key=[redacted]") {
		t.Fatal("what the read shows is not matched")
	}
	for _, text := range []string{"api_key=akiaiosfodnn7example", "api_key=akiaiosfodnn7examplf", "api_key=a", "akia", "7example"} {
		if guess(text) {
			t.Errorf("wait_for met on %q, text the read of window %d hides", text, uint64(doc))
		}
	}
}
