package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// ClipboardState is what the CLIPBOARD selection holds.
type ClipboardState string

const (
	ClipboardText    ClipboardState = "text"     // an owner offers text
	ClipboardEmpty   ClipboardState = "empty"    // an owner offers an empty text
	ClipboardNotText ClipboardState = "not_text" // an owner offers only non-text targets (an image)
	ClipboardIncr    ClipboardState = "incr"     // the owner answers with an INCR transfer
	ClipboardNoOwner ClipboardState = "no_owner" // nobody owns the selection
)

type clipboard struct {
	state ClipboardState
	text  string
	// owner is the driver's ownership generation; 0 when the person (or
	// another app) owns it or nobody does.
	owner int
	gen   int
}

// SetClipboard is another app (the person's copy) taking the clipboard
// with text; the driver loses ownership.
func (d *Desktop) SetClipboard(text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clip.state, d.clip.text, d.clip.owner = ClipboardText, text, 0
}

// SetClipboardState is another app taking the clipboard with content the
// driver cannot read (or nobody owning it). ClipboardText keeps the current
// text.
func (d *Desktop) SetClipboardState(s ClipboardState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clip.state, d.clip.owner = s, 0
	if s != ClipboardText {
		d.clip.text = ""
	}
}

// Clipboard returns the clipboard's state and text, for tests.
func (d *Desktop) Clipboard() (ClipboardState, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.clip.state, d.clip.text
}

// ClipboardOwned reports whether the driver owns the clipboard (a write not
// yet released nor replaced).
func (d *Desktop) ClipboardOwned() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.clip.owner != 0
}

// ClipboardRead returns the clipboard's text. An empty text, a non-text
// offer, an INCR transfer or no owner is clipboard_unavailable.
func (d *Desktop) ClipboardRead(ctx context.Context) (string, error) {
	var text string
	err := d.plainCall(Call{Method: "ClipboardRead"}, func() error {
		switch d.clip.state {
		case ClipboardText:
			if d.clip.text == "" {
				return engine.Errf(engine.CodeClipboardUnavailable, "the clipboard holds no text")
			}
			text = d.clip.text
			return nil
		case ClipboardIncr:
			return engine.Errf(engine.CodeClipboardUnavailable, "the clipboard owner sent an incremental transfer")
		case ClipboardEmpty, ClipboardNotText:
			return engine.Errf(engine.CodeClipboardUnavailable, "the clipboard holds no text")
		case ClipboardNoOwner:
			return engine.Errf(engine.CodeClipboardUnavailable, "nobody owns the clipboard")
		default:
			return engine.Errf(engine.CodeClipboardUnavailable, "the clipboard holds no text")
		}
	})
	return text, err
}

// ClipboardWrite takes ownership of the clipboard with text. The release
// gives ownership up (the selection then has no owner) unless someone took
// the clipboard since; it is safe to call more than once.
func (d *Desktop) ClipboardWrite(ctx context.Context, text string) (func(), error) {
	var gen int
	err := d.plainCall(Call{Method: "ClipboardWrite"}, func() error {
		d.clip.gen++
		gen = d.clip.gen
		d.clip.state, d.clip.text, d.clip.owner = ClipboardText, text, gen
		return nil
	})
	if err != nil {
		return nil, err
	}
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.clip.owner == gen {
			d.clip.state, d.clip.text, d.clip.owner = ClipboardNoOwner, "", 0
		}
	}, nil
}
