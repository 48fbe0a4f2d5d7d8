package engine_test

// Fields whose text is longer than a read holds: set_value's readback,
// type_text's confirmation and its credential check each read what they
// need of such a field live, not the cut read.

import (
	"context"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// keepsMore stands between the engine and the mock desktop for a field
// whose app keeps extra after whatever it is given (an autocompleting
// field, an app that adds a signature). Reads are cut at the caller's bound
// as a real backend cuts them.
type keepsMore struct {
	*mock.Desktop
	extra string
}

func (k keepsMore) ReadValue(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Readback, error) {
	rb, err := k.Desktop.ReadValue(ctx, ref, 0)
	if err != nil || rb.Secure {
		return rb, err
	}
	rb.Value, rb.Truncated = utf8cut.Cut(rb.Value+k.extra, maxBytes)
	return rb, nil
}

// TestSetValueReadsBackTheWholeValue: set_value's readback reads as much
// as the longest value the tool takes can hold, so a value of any length
// it takes reads back match when the field holds it, and mismatch when the
// field holds more, even more than the read takes.
func TestSetValueReadsBackTheWholeValue(t *testing.T) {
	longest := testkit.InputMaxLength(t, "set_value", "value")
	cases := []struct {
		name, value, extra, readback string
	}{
		{"a short value held", "ada@example.org", "", engine.ReadbackMatch},
		{"the longest value, two bytes a character", strings.Repeat("é", longest), "", engine.ReadbackMatch},
		{"the longest value, four bytes a character", strings.Repeat("𝄞", longest), "", engine.ReadbackMatch},
		{"a short value and one character more", "ada@example.org", "x", engine.ReadbackMismatch},
		{"the longest value and more than the read takes", strings.Repeat("𝄞", longest), "x", engine.ReadbackMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil, withBackend(func(d *mock.Desktop) engine.Backend { return keepsMore{d, c.extra} }))
			h.start(nil)
			read := h.readForm(nil)
			res := h.ok("set_value", map[string]any{"element_token": testkit.Token(t, read, "entry", h.demo.Form.Email.Name()), "value": c.value})
			if res["readback"] != c.readback {
				t.Fatalf("readback %v, want %s", res["readback"], c.readback)
			}
		})
	}
}

// cutsValues stands between the engine and the mock desktop as a backend
// whose reads cut each value (as AT-SPI reads cut a text value at 4 KiB):
// a long document's text past the cut is in no read. landedAs, when set,
// is what a ranged read of the field answers instead of its text (an app
// that did not apply the insertion where it said).
type cutsValues struct {
	*mock.Desktop
	landedAs *string
}

const cutAt = 64

func cutNodes(nodes []*engine.Node) {
	for _, n := range nodes {
		n.Value, _ = utf8cut.Cut(n.Value, cutAt)
	}
}

func (c cutsValues) ReadTree(ctx context.Context, w engine.WindowID, b engine.Budget) (*engine.Tree, error) {
	t, err := c.Desktop.ReadTree(ctx, w, b)
	if t != nil {
		for i := range t.Nodes {
			cutNodes([]*engine.Node{&t.Nodes[i]})
		}
	}
	return t, err
}

func (c cutsValues) ReadDetails(ctx context.Context, w engine.WindowID, nodes []*engine.Node) error {
	err := c.Desktop.ReadDetails(ctx, w, nodes)
	cutNodes(nodes)
	return err
}

func (c cutsValues) Refresh(ctx context.Context, nodes []*engine.Node) error {
	err := c.Desktop.Refresh(ctx, nodes)
	cutNodes(nodes)
	return err
}

func (c cutsValues) ReadTextAt(ctx context.Context, ref engine.ElementRef, start, end int) (engine.Readback, error) {
	if c.landedAs != nil {
		return engine.Readback{Value: *c.landedAs}, nil
	}
	return c.Desktop.ReadTextAt(ctx, ref, start, end)
}

// TestTypedTextPastWhatAReadShowsIsConfirmed: typing into a field whose
// text runs past what a read holds, with the caret at its end, changes
// nothing a read shows; the live read where the text went in confirms it,
// headless (type_text's insertion) and in a takeover (keys typed where the
// focused field's caret stood). Before, such a typing said no_change, and
// a model told its text did not land would type it again. Where the live
// read does not find the text, the effect stays the diff's: no_change.
func TestTypedTextPastWhatAReadShowsIsConfirmed(t *testing.T) {
	long := strings.Repeat("a long line of notes, ", 20)
	const typed = " typed at the end"
	ways := []struct {
		name     string
		takeover bool
		path     engine.Path
	}{
		{"headless", false, engine.PathText},
		{"in a takeover", true, engine.PathXTest},
	}
	landings := []struct {
		name     string
		landedAs *string
		effect   engine.Effect
	}{
		{"the text is where it went in", nil, engine.EffectConfirmed},
		{"the app holds something else there", new("something else"), engine.EffectNoChange},
	}
	for _, w := range ways {
		for _, l := range landings {
			t.Run(w.name+", "+l.name, func(t *testing.T) {
				backend := withBackend(func(d *mock.Desktop) engine.Backend { return cutsValues{d, l.landedAs} })
				var h *harness
				args := map[string]any{"text": typed}
				if w.takeover {
					h = takeoverHarness(t, backend)
					args["window_id"], args["delivery_mode"] = uint64(h.demo.Form.Window.ID()), "foreground"
				} else {
					h = newHarness(t, nil, backend)
					h.start(nil)
				}
				name := h.demo.Form.Name
				name.SetValue(long).SetCaret(len(long)).Focus()
				read := h.readForm(nil)
				if !w.takeover {
					args["element_token"] = testkit.Token(t, read, "entry", name.Name())
				}
				res := h.ok("type_text", args)
				if res["effect"] != string(l.effect) || res["path"] != string(w.path) {
					t.Fatalf("effect %v path %v, want %s %s: %v", res["effect"], res["path"], l.effect, w.path, res)
				}
				if !strings.HasSuffix(name.Value(), typed) {
					t.Fatalf("the field holds %q", name.Value())
				}
			})
		}
	}
}

// TestACredentialSplitPastWhatTheCheckReadsIsRefused: the credential
// check on type_text reads a field's text to 64 KiB; at the end of a
// longer document, with the caret there, it reads the text around the
// caret instead, so an access key id split between the document's end and
// the typing is refused as it is in a short field. Before, the check saw
// the document's first 64 KiB and typed the second half.
func TestACredentialSplitPastWhatTheCheckReadsIsRefused(t *testing.T) {
	filler := strings.Repeat("plain words of a long document. ", 3000) // 96,000 bytes
	cases := []struct {
		name, before string
		code         engine.Code
	}{
		{"a short field", "AKIAQWERTY", engine.CodeSensitiveText},
		{"the end of a long document", filler + "AKIAQWERTY", engine.CodeSensitiveText},
		{"a long document without the first half", filler + "nothing here", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			notes := h.demo.Form.Name
			notes.SetValue(c.before).SetCaret(len(c.before))
			h.start(nil)
			read := h.readForm(nil)
			args := map[string]any{"element_token": testkit.Token(t, read, "entry", notes.Name()), "text": "UIOPASDFGH"}
			if c.code == "" {
				h.ok("type_text", args)
				return
			}
			h.fail(c.code, "type_text", args)
			if notes.Value() != c.before {
				t.Fatal("the refused text reached the field")
			}
		})
	}
}
