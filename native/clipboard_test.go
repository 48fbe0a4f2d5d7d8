package native_test

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/control"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// The clipboard through the engine on the real desktop: xclip plays the
// person's other apps, a control pipe plays the host that approves each
// clipboard read.

// clipHost is a host on a control pipe that answers every approval request
// with its current answer.
type clipHost struct {
	mu    sync.Mutex
	allow bool
}

func (c *clipHost) setAllow(v bool) {
	c.mu.Lock()
	c.allow = v
	c.mu.Unlock()
}

// startClipHost connects a control pipe to the harness's driver.
func startClipHost(t *testing.T, h *harness) *clipHost {
	t.Helper()
	hostIn, driverOut := io.Pipe()
	driverIn, hostOut := io.Pipe()
	pipe := control.New(driverIn, driverOut, h.d, control.Options{ApprovalTimeout: 5 * time.Second})
	h.d.SetHost(pipe)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _ = pipe.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		pipe.Close()
		_ = hostOut.Close()
		_ = hostIn.Close()
	})
	host := &clipHost{allow: true}
	go playHost(hostIn, hostOut, func(map[string]any) (bool, bool) {
		host.mu.Lock()
		defer host.mu.Unlock()
		return host.allow, true
	}, nil)
	return host
}

// clipOut is what another app pasting gets: xclip's reading of the
// clipboard, ok false when it finds no owner or no text.
func clipOut(t *testing.T) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xclip", "-selection", "clipboard", "-o")
	cmd.Env = deskOf(t).Env()
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatal("xclip -o did not finish")
	}
	return string(out), err == nil
}

// clipCopy is another app copying text: xclip owns the clipboard with it
// until it is killed or another client takes the clipboard.
func clipCopy(t *testing.T, text string) *exec.Cmd {
	t.Helper()
	cmd := deskOf(t).Command("xclip", "-quiet", "-selection", "clipboard", "-i")
	cmd.Stdin = bytes.NewReader([]byte(text))
	if err := deskOf(t).Start(cmd); err != nil {
		t.Fatalf("xclip (Debian: xclip): %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	clipWait(t, func(s string, ok bool) bool { return ok && s == text })
	return cmd
}

// clipWait waits until another app's paste gives what want accepts.
func clipWait(t *testing.T, want func(string, bool) bool) {
	t.Helper()
	testkit.Eventually(t, 15*time.Second, "the clipboard changes as expected", func() bool { return want(clipOut(t)) })
}

func TestClipboardThroughTheEngine(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 3)
	h := newHarness(t, consentWait)
	for _, c := range h.b.Registry(context.Background()).Capabilities() {
		if strings.HasPrefix(c.Name, "clipboard_") && c.Status != "available" {
			t.Fatalf("the registry's %s: %+v", c.Name, c)
		}
	}
	host := startClipHost(t, h)

	p := newPerson(t)
	wg := p.answer("clipboard_read", "allow")
	st := h.ok("start_session", map[string]any{"apps": []any{a.cmd.Process.Pid}, "clipboard_read": true, "clipboard_write": true})
	wg.Wait()
	if !strings.Contains(testkit.JSON(t, st), `"clipboard_read":true`) {
		t.Fatalf("the session lacks clipboard reading: %v", st)
	}

	// A write is confirmed, other apps paste it, and a read returns it.
	text := "Grüße vom Treiber ✓ 🙂\nsecond line"
	res := h.ok("clipboard_write", map[string]any{"text": text})
	if res["effect"] != "confirmed" || res["path"] != "clipboard" {
		t.Fatalf("clipboard_write: %v", res)
	}
	if got, ok := clipOut(t); !ok || got != text {
		t.Fatalf("another app pastes %q (%v), want %q", got, ok, text)
	}
	res = h.ok("clipboard_read", nil)
	if res["text"] != text || res["length"] != float64(utf8.RuneCountInString(text)) {
		t.Fatalf("clipboard_read: %v", res)
	}

	// Another app's copy is what the next read returns; the host's no is
	// approval_denied.
	clipCopy(t, "copied in another app")
	if res := h.ok("clipboard_read", nil); res["text"] != "copied in another app" {
		t.Fatalf("clipboard_read after another app's copy: %v", res)
	}
	host.setAllow(false)
	h.fail(engine.CodeApprovalDenied, "clipboard_read", nil)
	host.setAllow(true)

	// Credential-looking text is refused both ways, and never shown.
	secret := "api_key=0123456789abcdefXYZ"
	r := h.call("clipboard_write", map[string]any{"text": secret})
	if r.Err == nil || r.Err.Code != engine.CodeSensitiveText || strings.Contains(r.Text, secret) {
		t.Fatalf("a credential write: %s", r.Text)
	}
	if got, _ := clipOut(t); got != "copied in another app" {
		t.Fatalf("a refused write changed the clipboard to %q", got)
	}
	token := "ghp_" + strings.Repeat("a1B2", 9)
	clipCopy(t, token)
	r = h.call("clipboard_read", nil)
	if r.Err == nil || r.Err.Code != engine.CodeSensitiveText || strings.Contains(r.Text, token) || strings.Contains(testkit.JSON(t, r.Structured), token) {
		t.Fatalf("a credential read: %s", r.Text)
	}

	// With nobody owning the clipboard there is nothing to read.
	h.ok("clipboard_write", map[string]any{"text": "ours once more"})
	h.ok("end_session", nil)
	clipWait(t, func(_ string, ok bool) bool { return !ok })

	wg = p.answer("clipboard_read", "allow")
	h.ok("start_session", map[string]any{"apps": []any{a.cmd.Process.Pid}, "clipboard_read": true})
	wg.Wait()
	h.fail(engine.CodeClipboardUnavailable, "clipboard_read", nil)
}
