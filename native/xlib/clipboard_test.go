//go:build cgo

package xlib

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
)

// The clipboard tests use xclip as the other client on the test desktop:
// it sets the clipboard for our reads and asks for our owner's text.

// ownerWait bounds the wait for another client to take the clipboard.
const ownerWait = 15 * time.Second

// waitOwner waits until the clipboard's owner is not before, and returns
// it (0 for none, when wantNone is set).
func waitOwner(t *testing.T, before uint64, wantNone bool) uint64 {
	t.Helper()
	var w uint64
	testkit.Eventually(t, ownerWait, fmt.Sprintf("the clipboard's owner changes (to none: %v)", wantNone), func() bool {
		var err error
		if w, err = xt.ClipboardOwner(); err != nil {
			t.Fatal(err)
		}
		if wantNone {
			return w == 0
		}
		return w != 0 && w != before
	})
	return w
}

// xclipIn makes xclip, in the foreground, the clipboard's owner with data
// (offered as target, or as xclip's text targets when target is empty).
func xclipIn(t *testing.T, data []byte, target string) *exec.Cmd {
	t.Helper()
	before, err := xt.ClipboardOwner()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-quiet", "-selection", "clipboard", "-i"}
	if target != "" {
		args = append(args, "-t", target)
	}
	cmd := desk.Command("xclip", args...)
	cmd.Stdin = bytes.NewReader(data)
	if err := desk.Start(cmd); err != nil {
		t.Fatalf("xclip (Debian: xclip): %v", err)
	}
	w := waitOwner(t, before, false)
	t.Cleanup(func() {
		// Wait until the server has seen xclip go: a client started next
		// may be given the same window id, and must not look like it.
		_ = cmd.Process.Kill()
		waitOwnerNot(t, w)
	})
	return cmd
}

// waitOwnerNot waits until the clipboard's owner is not w.
func waitOwnerNot(t *testing.T, w uint64) {
	t.Helper()
	testkit.Eventually(t, ownerWait, "a killed xclip no longer owns the clipboard", func() bool {
		now, err := xt.ClipboardOwner()
		return err != nil || now != w
	})
}

// xclipOut asks xclip for the clipboard as target ("" for its default).
func xclipOut(t *testing.T, target string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	args := []string{"-selection", "clipboard", "-o"}
	if target != "" {
		args = append(args, "-t", target)
	}
	cmd := exec.CommandContext(ctx, "xclip", args...)
	cmd.Env = desk.Env()
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("xclip -o -t %q did not finish", target)
	}
	return out, err
}

// own makes the driver the clipboard's owner, released at the test's end.
func own(t *testing.T, text string) *ClipboardOwner {
	t.Helper()
	o, err := dpy.OwnClipboard(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(o.Release)
	return o
}

// emptyClipboard leaves the clipboard with no owner.
func emptyClipboard(t *testing.T) {
	t.Helper()
	own(t, "").Release()
	waitOwner(t, 0, true)
}

func TestReadClipboardReturnsAnotherClientsText(t *testing.T) {
	for _, text := range []string{
		"plain words",
		"Grüße, ½ € — 世界 ✓ 🙂",
		"two\nlines\twith a tab\n",
		strings.Repeat("long text ", 20000),
	} {
		xclipIn(t, []byte(text), "")
		got, err := dpy.ReadClipboard(context.Background())
		if err != nil || got != text {
			t.Errorf("ReadClipboard = %.40q, %v; want %.40q", got, err, text)
		}
	}
}

func TestReadClipboardOfEmptyTextIsEmpty(t *testing.T) {
	own(t, "")
	got, err := dpy.ReadClipboard(context.Background())
	if err != nil || got != "" {
		t.Fatalf("ReadClipboard of an owner's empty text = %q, %v", got, err)
	}
}

func TestReadClipboardFallsBackToLatin1String(t *testing.T) {
	xclipIn(t, []byte("Gr\xfc\xdfe \xbd"), "STRING")
	got, err := dpy.ReadClipboard(context.Background())
	if err != nil || got != "Grüße ½" {
		t.Fatalf("a STRING-only owner: ReadClipboard = %q, %v", got, err)
	}
}

func TestReadClipboardMendsInvalidUTF8(t *testing.T) {
	xclipIn(t, []byte("ok \xff\xfe end"), "UTF8_STRING")
	got, err := dpy.ReadClipboard(context.Background())
	if err != nil || got != "ok \uFFFD end" {
		t.Fatalf("ReadClipboard = %q, %v", got, err)
	}
}

func TestReadClipboardRefusals(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T)
		want  error
	}{
		{"no owner", emptyClipboard, ErrClipboardEmpty},
		{"an owner without text", func(t *testing.T) {
			xclipIn(t, []byte("\x89PNG not really"), "image/png")
		}, ErrClipboardNoText},
		{"an incremental transfer", func(t *testing.T) {
			// Over the server's request size, so xclip sends it in pieces.
			xclipIn(t, bytes.Repeat([]byte("incremental "), 5<<20/12), "")
		}, ErrClipboardIncremental},
		{"one byte over the limit", func(t *testing.T) {
			own(t, strings.Repeat("x", MaxClipboardRead+1))
		}, ErrClipboardTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.setup(t)
			got, err := dpy.ReadClipboard(context.Background())
			if !errors.Is(err, c.want) || got != "" {
				t.Fatalf("ReadClipboard = %.20q, %v; want %v", got, err, c.want)
			}
		})
	}
}

func TestReadClipboardTakesTextUpToTheLimit(t *testing.T) {
	text := strings.Repeat("y", MaxClipboardRead)
	own(t, text)
	got, err := dpy.ReadClipboard(context.Background())
	if err != nil || got != text {
		t.Fatalf("ReadClipboard of exactly the limit: %d bytes, %v", len(got), err)
	}
}

func TestReadClipboardStopsWaitingForAnOwnerThatNeverAnswers(t *testing.T) {
	fake, err := xtest.Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if _, err := fake.OwnClipboardSilently(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if got, err := dpy.ReadClipboard(ctx); !errors.Is(err, ErrClipboardTimeout) || got != "" {
		t.Fatalf("with a deadline: ReadClipboard = %q, %v; want ErrClipboardTimeout", got, err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := dpy.ReadClipboard(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: ReadClipboard = %v; want context.Canceled", err)
	}
	// The default bound holds without any deadline.
	if _, err := dpy.ReadClipboard(context.Background()); !errors.Is(err, ErrClipboardTimeout) {
		t.Fatalf("no deadline: ReadClipboard = %v; want ErrClipboardTimeout", err)
	}
}

func TestOwnedClipboardServesOtherClients(t *testing.T) {
	cases := []struct {
		text   string
		latin1 []byte // nil: no STRING form
	}{
		{text: "hello from the driver", latin1: []byte("hello from the driver")},
		{text: "Grüße ½", latin1: []byte("Gr\xfc\xdfe \xbd")},
		{text: "世界 ✓ and 🙂"},
	}
	for _, c := range cases {
		own(t, c.text)
		for _, target := range []string{"", "UTF8_STRING"} {
			if out, err := xclipOut(t, target); err != nil || string(out) != c.text {
				t.Errorf("xclip -o -t %q = %q, %v; want %q", target, out, err, c.text)
			}
		}
		out, err := xclipOut(t, "TARGETS")
		if err != nil {
			t.Fatalf("xclip -o -t TARGETS: %v", err)
		}
		targets := strings.Fields(string(out))
		want := []string{"TARGETS", "TIMESTAMP", "UTF8_STRING"}
		if c.latin1 != nil {
			want = append(want, "STRING")
		}
		if !slices.Equal(targets, want) {
			t.Errorf("TARGETS of %q = %v, want %v", c.text, targets, want)
		}
		out, err = xclipOut(t, "STRING")
		switch {
		case c.latin1 != nil && (err != nil || !bytes.Equal(out, c.latin1)):
			t.Errorf("xclip -o -t STRING = %q, %v; want %q", out, err, c.latin1)
		case c.latin1 == nil && len(out) != 0:
			t.Errorf("a text without a Latin-1 form is not served as STRING: got %q", out)
		}
		if out, _ := xclipOut(t, "image/png"); len(out) != 0 {
			t.Errorf("another target is refused: got %q", out)
		}
		if got, err := dpy.ReadClipboard(context.Background()); err != nil || got != c.text {
			t.Errorf("our own read of our own text = %q, %v", got, err)
		}
	}
}

// stopReason says why a stopped owner stopped.
func stopReason(o *ClipboardOwner) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

func TestReleaseGivesTheClipboardUp(t *testing.T) {
	o := own(t, "soon gone")
	o.Release()
	select {
	case <-o.done:
	default:
		t.Fatal("the owner has not stopped after Release")
	}
	if err := stopReason(o); err != nil {
		t.Fatalf("the owner stopped after Release for %v", err)
	}
	if w, err := xt.ClipboardOwner(); err != nil || w != 0 {
		t.Fatalf("the clipboard still has an owner after Release: %d, %v", w, err)
	}
	if out, err := xclipOut(t, ""); err == nil {
		t.Fatalf("xclip -o found text after Release: %q", out)
	}
	o.Release() // twice is safe
}

func TestAnotherClientTakingTheClipboardStopsTheOwner(t *testing.T) {
	o := own(t, "ours for now")
	xclipIn(t, []byte("theirs now"), "")
	select {
	case <-o.done:
	case <-time.After(ownerWait):
		t.Fatal("the owner did not stop after another client took the clipboard")
	}
	if err := stopReason(o); !errors.Is(err, ErrClipboardTaken) {
		t.Fatalf("the owner stopped for %v, want ErrClipboardTaken", err)
	}
	o.Release() // leaves the other client's clipboard alone
	if got, err := dpy.ReadClipboard(context.Background()); err != nil || got != "theirs now" {
		t.Fatalf("after our late Release the clipboard is %q, %v", got, err)
	}
}

func TestANewOwnerReplacesTheOldOne(t *testing.T) {
	first := own(t, "first")
	second := own(t, "second")
	select {
	case <-first.done:
	case <-time.After(ownerWait):
		t.Fatal("the first owner did not stop")
	}
	first.Release()
	if got, err := dpy.ReadClipboard(context.Background()); err != nil || got != "second" {
		t.Fatalf("ReadClipboard = %q, %v; want the second text", got, err)
	}
	second.Release()
	waitOwner(t, 0, true)
}

func TestClipboardOnAClosedDisplay(t *testing.T) {
	d, err := Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := d.ReadClipboard(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("ReadClipboard = %v, want ErrClosed", err)
	}
	if _, err := d.OwnClipboard(context.Background(), "x"); !errors.Is(err, ErrClosed) {
		t.Errorf("OwnClipboard = %v, want ErrClosed", err)
	}
}

func TestToLatin1(t *testing.T) {
	cases := []struct {
		in   string
		want []byte
		ok   bool
	}{
		{"", []byte{}, true},
		{"abc", []byte("abc"), true},
		{"ÿ é", []byte{0xff, ' ', 0xe9}, true},
		{"Ā", nil, false},
		{"€", nil, false},
		{"ok 🙂", nil, false},
	}
	for _, c := range cases {
		got, ok := toLatin1(c.in)
		if ok != c.ok || !bytes.Equal(got, c.want) {
			t.Errorf("toLatin1(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
