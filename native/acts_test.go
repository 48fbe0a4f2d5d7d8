package native_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/audit"
	"github.com/nish-driver/nish-driver/engine/control"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native"
)

func TestHeadlessActsOnARealForm(t *testing.T) {
	onDesktop(t)
	pid, h := grantedSynthetic(t, 6)
	read, entry := clickTypeAndSet(t, h, pid)
	var res map[string]any

	spin := testkit.Token(t, read, "spin_button", "Amount")
	res = h.ok("set_value", map[string]any{"element_token": spin, "value": 42})
	if res["readback"] != "match" || res["path"] != "atspi_value" {
		t.Fatalf("set_value spin: %v", res)
	}

	// Pick a combo box item as a person would: open the combo (its press
	// action pops its menu up), read again, click the item now showing.
	read = h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	combo := testkit.Token(t, read, "combo_box", "")
	h.ok("click", map[string]any{"element_token": combo})
	read = h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	item := testkit.Token(t, read, "menu_item", "two")
	res = h.ok("click", map[string]any{"element_token": item})
	if !strings.Contains(testkit.JSON(t, res["diff"]), "two") {
		t.Fatalf("picking a combo item shows in the diff: %v", res["diff"])
	}

	pw := testkit.Token(t, read, "password_text", "")
	for _, tool := range []string{"type_text", "set_value"} {
		r := h.call(tool, map[string]any{"element_token": pw, "text": "x", "value": "x"})
		if r.Err == nil || r.Err.Code != engine.CodeSecureField {
			t.Fatalf("%s on the password field: %s", tool, r.Text)
		}
		noCanary(t, tool, r)
	}
	for _, text := range []string{"api_key=0123456789abcdefXYZ", "ghp_" + strings.Repeat("a1B2", 9), "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----"} {
		h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"element_token": entry, "text": text})
	}
	h.fail(engine.CodeRequiresTakeover, "press_key", map[string]any{"pid": pid, "key": "Return"})

	// observe rides along.
	read = h.ok("get_window_state", map[string]any{"pid": pid})
	click := testkit.Token(t, read, "push_button", "Click me")
	res = h.ok("click", map[string]any{"element_token": click, "observe": map[string]any{"tree": true, "screenshot": true}})
	obs := res["observe"].(map[string]any)
	if obs["tree_text"] == nil || obs["screenshot"] == nil {
		t.Fatalf("observe: %v", obs)
	}
}

func TestActsOutsideTheGrant(t *testing.T) {
	onDesktop(t)
	mine := startSynthetic(t, 3)
	other := startSynthetic(t, 4)
	h := newHarness(t, consentWait)
	grant(t, h, mine.cmd.Process.Pid)
	h.fail(engine.CodeAppNotApproved, "get_window_state", map[string]any{"pid": other.cmd.Process.Pid})
	// A headless act can only name an element from a read, and the other
	// app cannot be read: no token, no act. Its title is never matched (no
	// read shows an unapproved app's titles): the fragment names nothing.
	h.fail(engine.CodeWindowTargetNotFound, "get_window_state", map[string]any{"app": "Synthetic 4 rows"})
}

func TestStoppedAppMidAct(t *testing.T) {
	onDesktop(t)
	pid, h := grantedSynthetic(t, 3)
	read := h.ok("get_window_state", map[string]any{"pid": pid})
	click := testkit.Token(t, read, "push_button", "Click me")
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	e := h.fail(engine.CodeAppNotResponding, "click", map[string]any{"element_token": click})
	if e["disposition"].(map[string]any)["retry"] != "unsafe" {
		t.Fatalf("app_not_responding is retry unsafe: %v", e)
	}
	_ = syscall.Kill(pid, syscall.SIGCONT)
	h.ok("get_window_state", map[string]any{"pid": pid})
	_ = syscall.Kill(pid, syscall.SIGKILL)
	testkit.Poll(10*time.Second, func() bool { return syscall.Kill(pid, 0) != nil })
	r := h.call("click", map[string]any{"element_token": click})
	if r.Err == nil || (r.Err.Code != engine.CodeWindowGone && r.Err.Code != engine.CodeWindowTargetNotFound && r.Err.Code != engine.CodeStaleElementToken) {
		t.Fatalf("an exited app: %s", r.Text)
	}
}

// TestHostApprovalsOverTheControlPipe drives approvals through the real
// control pipe: a read waits for the host and goes on when allowed; a deny
// and a host that never answers are approval_denied; a pre-approved act
// that observes still asks, with observe on the card.
func TestHostApprovalsOverTheControlPipe(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 3)
	pid := a.cmd.Process.Pid
	h := newHarness(t, consentWait)
	hostIn, driverOut := io.Pipe()
	driverIn, hostOut := io.Pipe()
	pipe := control.New(driverIn, driverOut, h.d, control.Options{ApprovalTimeout: time.Second})
	h.d.SetHost(pipe)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = pipe.Run(ctx) }()
	defer pipe.Close()

	// The host: answers approvals as mode says ("allow", "deny", "silent")
	// and reports every card it saw.
	var mu sync.Mutex
	mode := "allow"
	cards := make(chan map[string]any, 64)
	acks := make(chan string, 64)
	go playHost(hostIn, hostOut, func(card map[string]any) (bool, bool) {
		cards <- card
		mu.Lock()
		m := mode
		mu.Unlock()
		return m == "allow", m != "silent"
	}, func(ev map[string]any) {
		if ev["event"] == "ack" {
			m, _ := ev["method"].(string)
			acks <- m
		}
	})
	setMode := func(m string) {
		mu.Lock()
		mode = m
		mu.Unlock()
	}

	grant(t, h, pid)
	read := h.ok("get_window_state", map[string]any{"pid": pid})
	setMode("deny")
	h.fail(engine.CodeApprovalDenied, "get_window_state", map[string]any{"pid": pid})
	setMode("silent")
	h.fail(engine.CodeApprovalDenied, "get_window_state", map[string]any{"pid": pid})

	setMode("allow")
	policy, _ := json.Marshal(map[string]any{"method": "approval.policy", "params": map[string]any{"approve_reads": true, "pre_approved": []string{"click"}}})
	_, _ = hostOut.Write(append(policy, '\n'))
	for m := range acks {
		if m == "approval.policy" {
			break
		}
	}
	for len(cards) > 0 {
		<-cards
	}
	read = h.ok("get_window_state", map[string]any{"pid": pid})
	<-cards
	click := testkit.Token(t, read, "push_button", "Click me")
	h.ok("click", map[string]any{"element_token": click})
	if len(cards) != 0 {
		t.Fatal("a pre-approved act without observe needs no card")
	}
	read = h.ok("get_window_state", map[string]any{"pid": pid})
	<-cards
	click = testkit.Token(t, read, "push_button", "Click me")
	h.ok("click", map[string]any{"element_token": click, "observe": map[string]any{"tree": true}})
	card := <-cards
	obs, _ := card["observe"].(map[string]any)
	if card["tool"] != "click" || obs == nil || obs["tree"] != true {
		t.Fatalf("the observing act's card: %v", card)
	}
	if strings.Contains(testkit.JSON(t, card), "Click me") {
		t.Fatal("a card carries no app text")
	}
}

// TestLeaseAndAuditOnARealApp: a one-minute lease refuses reads and acts
// once it ends, and the audit log of the run holds the records of the
// spec and none of the app's text, typed characters or values.
func TestLeaseAndAuditOnARealApp(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 3)
	pid := a.cmd.Process.Pid
	b := openBackend(t)
	logPath := t.TempDir() + "/audit.jsonl"
	log, err := audit.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	clock := testkit.NewClock(time.Now())
	d := engine.New(engine.Options{Backend: b, Clock: clock, Audit: log, ConsentTimeout: consentWait})
	h := harnessOn(t, b, d, "lease")
	defer d.Shutdown()

	p := newPerson(t)
	wait := p.answer("allow")
	h.ok("start_session", map[string]any{"apps": []any{pid}, "lease_minutes": 1})
	wait.Wait()
	read := h.ok("get_window_state", map[string]any{"pid": pid})
	var entry string
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] == "text" && row["value"] == "value 1" {
			entry = row["element_token"].(string)
		}
	}
	secretWords := "zebra-quartz-typed"
	h.ok("type_text", map[string]any{"element_token": entry, "text": secretWords})
	click := testkit.Token(t, read, "push_button", "Click me")
	h.ok("click", map[string]any{"element_token": click})

	clock.Advance(61 * time.Second)
	h.fail(engine.CodeConsentExpired, "get_window_state", map[string]any{"pid": pid})
	h.fail(engine.CodeConsentExpired, "click", map[string]any{"element_token": click})
	h.ok("end_session", nil)
	log.Close()

	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{`"session.started"`, `"consent.granted"`, `"event":"act"`, `"session.ended"`, `"exe":"python3`} {
		if !strings.Contains(text, want) {
			t.Errorf("the audit log lacks %s:\n%s", want, text)
		}
	}
	for _, never := range []string{secretWords, testkit.PasswordCanary, "Click me", "value 1", "Synthetic"} {
		if strings.Contains(text, never) {
			t.Errorf("the audit log holds %q", never)
		}
	}
}

// TestTypingIntoMousepad types a paragraph, reads it back through the
// document's drill-down text, then replaces the whole text.
func TestTypingIntoMousepad(t *testing.T) {
	onDesktop(t)
	ap := startApp(t, "mousepad", "mousepad")
	pid := ap.cmd.Process.Pid
	h := newHarness(t, consentWait)
	grant(t, h, pid)
	read := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	// The document is the editable text view.
	var doc string
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if (row["role"] == "text" || row["role"] == "document_text") && strings.Contains(testkit.JSON(t, row["states"]), "editable") {
			doc = row["element_token"].(string)
		}
	}
	if doc == "" {
		t.Fatalf("no text view in mousepad:\n%v", read["tree_text"])
	}
	para := "The quick brown fox jumps over the lazy dog. It was the best of times, it was the worst of times."
	if res := h.ok("type_text", map[string]any{"element_token": doc, "text": para}); res["effect"] != "confirmed" {
		t.Fatalf("type_text: %v", res)
	}
	back := h.ok("get_window_state", map[string]any{"root": tokenIn(t, h, pid, doc)})
	if body, _ := back["text"].(string); !strings.Contains(body, para) {
		t.Fatalf("the document reads back %q", body)
	}
	// The longest value set_value takes reads back whole: here 110,000
	// bytes, more than the 64 KiB a readback used to read.
	line := "Déjà vu, une ligne.\n" // 20 characters
	long := strings.Repeat(line, testkit.InputMaxLength(t, "set_value", "value")/20)
	if res := h.ok("set_value", map[string]any{"element_token": tokenIn(t, h, pid, doc), "value": long}); res["readback"] != "match" {
		t.Fatalf("set_value of %d bytes: readback %v", len(long), res["readback"])
	}
	// Typed at the caret, after the document's 110,000 bytes: past what a
	// read holds of its text, so nothing a read shows changes, and the
	// live read where the text went in confirms it.
	const more = " Typed past the cut."
	res := h.ok("type_text", map[string]any{"element_token": tokenIn(t, h, pid, doc), "text": more})
	if strings.Contains(testkit.JSON(t, res["diff"]), more) {
		t.Fatalf("the typing shows in the read's diff: the caret was not past the cut, and this checks nothing: %v", res["diff"])
	}
	if res["effect"] != "confirmed" {
		t.Fatalf("type_text past what a read shows: %v", res)
	}
	// Half an access key id at the end of the long document and the other
	// half typed there: the credential check reads around the caret, not
	// the document's first 64 KiB.
	h.ok("set_value", map[string]any{"element_token": tokenIn(t, h, pid, doc), "value": strings.TrimSuffix(long, line) + "AKIAQWERTY"})
	h.fail(engine.CodeSensitiveText, "type_text", map[string]any{"element_token": tokenIn(t, h, pid, doc), "text": "UIOPASDFGH"})
	res = h.ok("set_value", map[string]any{"element_token": tokenIn(t, h, pid, doc), "value": "Replaced whole."})
	if res["readback"] != "match" {
		t.Fatalf("set_value: %v", res)
	}
}

// tokenIn re-reads a window and returns the fresh token of the element a
// previous token named (row numbers are stable).
func tokenIn(t *testing.T, h *harness, pid int, old string) string {
	t.Helper()
	idx := old[strings.IndexByte(old, ':')+1:]
	read := h.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	return read["snapshot_id"].(string) + ":" + idx
}

// TestAppExitsMidAct: the app dies while the act is in flight (stopped
// first, and killed only once the act has asked the backend for something
// the app must answer, so the act is surely waiting on it): window_gone, and the driver keeps serving.
func TestAppExitsMidAct(t *testing.T) {
	onDesktop(t)
	appExitsMidAct(t, "click")
}

// On Wayland alike, for a click and for typing.
func TestWaylandAppExitsMidAct(t *testing.T) {
	onWaylandDesktop(t)
	for _, tool := range []string{"click", "type_text"} {
		t.Run(tool, func(t *testing.T) { appExitsMidAct(t, tool) })
	}
}

// appExitsMidAct kills an app while tool (click or type_text) acts on it.
func appExitsMidAct(t *testing.T, tool string) {
	a := startSynthetic(t, 3)
	other := startSynthetic(t, 4)
	pid := a.cmd.Process.Pid
	acting := make(chan struct{}, 1)
	sig := &actSignal{acting: acting}
	h := newHarnessAround(t, engine.Options{ConsentTimeout: consentWait}, func(b *native.Backend) engine.Backend {
		sig.Backend = b
		return sig
	})
	grant(t, h, pid, other.cmd.Process.Pid)
	read := h.ok("get_window_state", map[string]any{"pid": pid})
	args := map[string]any{"element_token": testkit.Token(t, read, "push_button", "Click me")}
	if tool == "type_text" {
		args = map[string]any{"element_token": testkit.Token(t, read, "text", ""), "text": " more"}
	}
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	sig.armed.Store(true)
	done := make(chan engine.Result, 1)
	go func() { done <- h.call(tool, args) }()
	select {
	case <-acting:
	case r := <-done:
		t.Fatalf("the %s on a stopped app returned before it reached the app: %s", tool, r.Text)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	killed := time.Now()
	r := <-done
	if r.Err == nil || r.Err.Code != engine.CodeWindowGone {
		t.Fatalf("an app that dies mid-act is window_gone: %s", r.Text)
	}
	t.Logf("%s: window_gone %v after the app was killed", tool, time.Since(killed).Round(time.Millisecond))
	h.ok("get_window_state", map[string]any{"pid": other.cmd.Process.Pid})
}

// actSignal is the native backend with a signal when a call that the app
// must answer starts, once armed: reads, refreshes and actions.
type actSignal struct {
	*native.Backend
	armed  atomic.Bool
	acting chan<- struct{}
}

func (b *actSignal) signal() {
	if !b.armed.Load() {
		return
	}
	select {
	case b.acting <- struct{}{}:
	default:
	}
}

func (b *actSignal) ReadTree(ctx context.Context, w engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	b.signal()
	return b.Backend.ReadTree(ctx, w, budget)
}

func (b *actSignal) ReadStructure(ctx context.Context, w engine.WindowID, budget engine.Budget) (*engine.Tree, error) {
	b.signal()
	return b.Backend.ReadStructure(ctx, w, budget)
}

func (b *actSignal) ReadDetails(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	b.signal()
	return b.Backend.ReadDetails(ctx, w, nodes)
}

func (b *actSignal) Refresh(ctx context.Context, nodes []*engine.Node) error {
	b.signal()
	return b.Backend.Refresh(ctx, nodes)
}

func (b *actSignal) DoAction(ctx context.Context, ref engine.ElementRef, action string) error {
	b.signal()
	return b.Backend.DoAction(ctx, ref, action)
}

// clickTypeAndSet reads the synthetic form (pid) and acts on it headless
// as most tests begin: clicks "Click me" (the diff shows the status label
// it changes), clicks a check box (confirmed by its state), types into the
// entry holding "value 1" and sets its text (confirmed, read back). It
// returns the read the entry's token came from and that token.
func clickTypeAndSet(t *testing.T, h *harness, pid int) (read map[string]any, entry string) {
	t.Helper()
	read = h.ok("get_window_state", map[string]any{"pid": pid})

	// A button whose handler changes a label: the diff shows the label.
	click := testkit.Token(t, read, "push_button", "Click me")
	res := h.ok("click", map[string]any{"element_token": click})
	if res["path"] != "atspi_action" || res["took_cursor"] != false || res["effect"] == "no_change" {
		t.Fatalf("click: %v", res)
	}
	if !strings.Contains(testkit.JSON(t, res["diff"]), "clicked 1") {
		t.Fatalf("the diff shows the status label: %v", res["diff"])
	}

	read = h.ok("get_window_state", map[string]any{"pid": pid})
	box := testkit.Token(t, read, "check_box", "Check 2")
	if res := h.ok("click", map[string]any{"element_token": box}); res["effect"] != "confirmed" || !strings.Contains(testkit.JSON(t, res["diff"]), "checked") {
		t.Fatalf("a check box click is confirmed by its state, and the diff shows it: %v", res)
	}

	entry = testkit.Token(t, read, "text", "")
	for _, e := range read["elements"].([]any) {
		row := e.(map[string]any)
		if row["role"] == "text" && row["value"] == "value 1" {
			entry = row["element_token"].(string)
		}
	}
	res = h.ok("type_text", map[string]any{"element_token": entry, "text": " typed"})
	if res["path"] != "atspi_text" || res["effect"] != "confirmed" || !strings.Contains(testkit.JSON(t, res["diff"]), " typed") {
		t.Fatalf("type_text is confirmed and the diff shows the new value: %v", res)
	}
	res = h.ok("set_value", map[string]any{"element_token": entry, "value": "replaced"})
	if res["readback"] != "match" || res["effect"] != "confirmed" {
		t.Fatalf("set_value text: %v", res)
	}
	return read, entry
}
