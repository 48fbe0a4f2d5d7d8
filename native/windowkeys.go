package native

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
)

// The window_keys path (docs/contract.md#window-keys, docs/decisions.md,
// "Window keys"): a field of an app that takes text only as keys sent to
// its window (atspi's keysToWindow: Gecko) is focused through
// accessibility, and the characters go to its X top-level with XSendEvent
// (xlib.SendChar): never through the devices, never to the window holding
// the person's keyboard focus. Only X11's windows qualify: a Wayland
// session's windows have no X window the driver may send to.

var _ engine.WindowKeyTyper = (*Backend)(nil)

// landedWithin bounds the wait for sent keys to show in the field: the
// browsers apply them on their own turn (measured 2-8 ms).
const landedWithin = time.Second

// TakesWindowKeys: an editable field of an app atspi's keysToWindow names.
func (b *Backend) TakesWindowKeys(ctx context.Context, ref engine.ElementRef) (bool, error) {
	takes, err := b.a.TakesWindowKeys(ctx, atspiID(ref.ID))
	return takes, atspiErr(err)
}

// WindowKeys prepares typing text into ref (see engine.WindowKeyTyper):
// nothing is focused unless the window is an X11 one that does not hold
// the keyboard focus and every character has a key; focusing must leave
// the focus and the stacking as they were.
func (b *Backend) WindowKeys(ctx context.Context, ref engine.ElementRef, text string) (engine.KeyTyping, error) {
	if _, x11 := b.src.(x11Windows); !x11 {
		return nil, engine.Errf(engine.CodeNotActionable, "keys can be sent to one window alone only on X11")
	}
	checked := map[rune]bool{}
	for _, r := range text {
		if checked[r] {
			continue
		}
		checked[r] = true
		if !b.x.CanSendChar(r) {
			return nil, engine.Errf(engine.CodeNotActionable, "a character of the text has no key in the keyboard map")
		}
	}
	win := uint64(ref.Window)
	person, err := b.x.FocusedTopLevel()
	if err != nil {
		return nil, xErr(err)
	}
	if person == win {
		return nil, engine.Errf(engine.CodeNotActionable, "the window holds the keyboard focus")
	}
	before, err := b.stacking()
	if err != nil {
		return nil, err
	}
	held, err := b.heldText(ctx, ref)
	if err != nil {
		return nil, err
	}
	if held.Secure {
		return nil, engine.Errf(engine.CodeSecureField, "the element is a secure field")
	}
	k := &windowKeys{b: b, ref: ref, person: person, above: windowsAbove(before, win), held: held.Value}
	if err := atspiErr(b.a.GrabFocus(ctx, atspiID(ref.ID))); err != nil {
		return nil, err
	}
	if err := k.desktopStill(); err != nil {
		// Focusing moved what it must not: no key is sent.
		return nil, engine.Errf(engine.CodeNotActionable, "focusing the field moved the keyboard focus or raised a window")
	}
	return k, nil
}

// windowKeys is one typing on the window_keys path.
type windowKeys struct {
	b      *Backend
	ref    engine.ElementRef
	person uint64   // the top-level holding the keyboard focus at the start (0: none)
	above  []uint64 // the windows above the field's window at the start
	held   string   // the field's text at the start
}

// Check: the keyboard focus and the field's window's place in the stacking
// are as they were, and the field holds sent on top of what it held
// (waiting up to landedWithin for the app to apply the last batch).
func (k *windowKeys) Check(ctx context.Context, sent string) error {
	if err := k.desktopStill(); err != nil {
		return err
	}
	want := utf8.RuneCountInString(strings.TrimSuffix(k.held, "\n")) + utf8.RuneCountInString(sent)
	deadline := time.Now().Add(landedWithin)
	for {
		rb, err := k.b.heldText(ctx, k.ref)
		if err != nil {
			return err
		}
		if rb.Secure {
			return engine.Errf(engine.CodeSecureField, "the element turned into a secure field")
		}
		// An empty line of an editable document holds a line break of its
		// own (Gecko's placeholder), which goes when the first character
		// comes: a text's last line break is not counted.
		if utf8.RuneCountInString(strings.TrimSuffix(rb.Value, "\n")) == want && strings.Contains(rb.Value, sent) {
			return nil
		}
		if time.Now().After(deadline) {
			return engine.Errf(engine.CodeFocusChanged, "the field does not hold what was sent: its app's focus moved")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Send sends text's key presses and releases to the field's top-level.
func (k *windowKeys) Send(ctx context.Context, text string) error {
	for _, r := range text {
		for _, press := range []bool{true, false} {
			if err := k.b.x.SendChar(uint64(k.ref.Window), r, press); err != nil {
				return xErr(err)
			}
		}
	}
	return nil
}

// desktopStill is focus_changed when the keyboard focus left the window
// that held it at the start, or a window that was above the field's window
// no longer is (it was raised).
func (k *windowKeys) desktopStill() error {
	focus, err := k.b.x.FocusedTopLevel()
	if err != nil {
		return xErr(err)
	}
	if focus != k.person {
		return engine.Errf(engine.CodeFocusChanged, "the keyboard focus moved to another window")
	}
	now, err := k.b.stacking()
	if err != nil {
		return err
	}
	if raised(k.above, now, uint64(k.ref.Window)) {
		return engine.Errf(engine.CodeFocusChanged, "the field's window was raised")
	}
	return nil
}

// raised reports whether win now sits above a window that was above it
// (above, from windowsAbove) and is still mapped: windows that appeared or
// went away since do not count.
func raised(above, now []uint64, win uint64) bool {
	over := windowsAbove(now, win)
	for _, w := range above {
		if slices.Contains(now, w) && !slices.Contains(over, w) {
			return true
		}
	}
	return false
}

// heldText is what the field holds, its children's text in the places
// they stand (atspi.HeldText): a document's text is in its paragraphs.
func (b *Backend) heldText(ctx context.Context, ref engine.ElementRef) (engine.Readback, error) {
	v, err := b.a.HeldText(ctx, atspiID(ref.ID))
	return engine.Readback{Value: v.Value, Secure: v.Secure}, atspiErr(err)
}

// stacking lists the mapped top-levels, topmost first.
func (b *Backend) stacking() ([]uint64, error) {
	wins, err := b.x.TopLevels()
	if err != nil {
		return nil, xErr(err)
	}
	var ids []uint64
	for _, w := range wins {
		if w.Mapped {
			ids = append(ids, w.ID)
		}
	}
	return ids, nil
}

// windowsAbove is the windows listed before win in stacking (topmost
// first); all of them when win is not listed.
func windowsAbove(stacking []uint64, win uint64) []uint64 {
	if i := slices.Index(stacking, win); i >= 0 {
		return stacking[:i]
	}
	return stacking
}
