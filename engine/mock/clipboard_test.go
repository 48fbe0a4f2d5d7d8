package mock

import (
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

func TestClipboardRead(t *testing.T) {
	cases := []struct {
		name string
		prep func(d *Desktop)
		text string
		code engine.Code
	}{
		{"no owner at start", func(d *Desktop) {}, "", engine.CodeClipboardUnavailable},
		{"text", func(d *Desktop) { d.SetClipboard("copied words") }, "copied words", ""},
		{"empty text", func(d *Desktop) { d.SetClipboard("") }, "", engine.CodeClipboardUnavailable},
		{"empty", func(d *Desktop) { d.SetClipboardState(ClipboardEmpty) }, "", engine.CodeClipboardUnavailable},
		{"not text", func(d *Desktop) { d.SetClipboardState(ClipboardNotText) }, "", engine.CodeClipboardUnavailable},
		{"incr", func(d *Desktop) { d.SetClipboardState(ClipboardIncr) }, "", engine.CodeClipboardUnavailable},
		{"no owner", func(d *Desktop) { d.SetClipboard("x"); d.SetClipboardState(ClipboardNoOwner) }, "", engine.CodeClipboardUnavailable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := New()
			c.prep(d)
			text, err := d.ClipboardRead(testCtx(t))
			wantCode(t, "ClipboardRead", err, c.code)
			if text != c.text {
				t.Errorf("text %q", text)
			}
		})
	}
}

func TestClipboardWriteOwnsUntilReleased(t *testing.T) {
	d := New()
	ctx := testCtx(t)
	release, err := d.ClipboardWrite(ctx, "from the driver")
	if err != nil {
		t.Fatal(err)
	}
	if !d.ClipboardOwned() {
		t.Fatal("not owned after a write")
	}
	if text, err := d.ClipboardRead(ctx); err != nil || text != "from the driver" {
		t.Fatalf("read back %q %v", text, err)
	}
	release()
	release()
	if d.ClipboardOwned() {
		t.Fatal("owned after release")
	}
	if s, _ := d.Clipboard(); s != ClipboardNoOwner {
		t.Errorf("state %s after release", s)
	}
	_, err = d.ClipboardRead(ctx)
	wantCode(t, "read after release", err, engine.CodeClipboardUnavailable)
}

func TestAnotherCopyTakesOwnershipAway(t *testing.T) {
	d := New()
	ctx := testCtx(t)
	release, _ := d.ClipboardWrite(ctx, "mine")
	d.SetClipboard("the person's")
	if d.ClipboardOwned() {
		t.Fatal("still owned")
	}
	release()
	if s, text := d.Clipboard(); s != ClipboardText || text != "the person's" {
		t.Errorf("a stale release cleared the person's copy: %s %q", s, text)
	}
	old, _ := d.ClipboardWrite(ctx, "one")
	_, _ = d.ClipboardWrite(ctx, "two")
	old()
	if !d.ClipboardOwned() {
		t.Error("an older write's release gave up a newer one")
	}
}
