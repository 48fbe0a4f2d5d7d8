package native

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/atspi"
)

// The window_keys path (docs/contract.md#window-keys, docs/decisions.md,
// "Window keys"): a field of an app that takes text only as keys sent to
// its window (atspi's keysToWindow: Gecko, Chromium) is focused through
// accessibility, and the characters go to its X top-level with XSendEvent
// (xlib.SendChar): never through the devices, never to the window holding
// the person's keyboard focus. An app that takes such keys only while it
// believes its window holds the focus (atspi.KeysToActiveWindow: Chromium)
// is told so by a synthetic FocusIn sent to that window alone before the
// field is focused, and told otherwise by a synthetic FocusOut when the
// typing ends, whatever its outcome. Only X11's windows qualify: a Wayland
// session's windows have no X window the driver may send to.

var _ engine.WindowKeyTyper = (*Backend)(nil)

// landedWithin bounds the wait for sent keys to show in the field: the
// browsers apply them on their own turn (measured 2-8 ms).
const landedWithin = time.Second

// TakesWindowKeys: an editable field of an app atspi's keysToWindow names.
func (b *Backend) TakesWindowKeys(ctx context.Context, ref engine.ElementRef) (bool, error) {
	way, err := b.a.TakesWindowKeys(ctx, atspiID(ref.ID))
	return way != atspi.NoWindowKeys, atspiErr(err)
}

// WindowKeys prepares typing text into ref (see engine.WindowKeyTyper):
// nothing is focused unless the window is an X11 one that does not hold
// the keyboard focus and every character has a key; focusing must leave
// the focus and the stacking as they were.
func (b *Backend) WindowKeys(ctx context.Context, ref engine.ElementRef, text string) (engine.KeyTyping, error) {
	way, err := b.windowKeysWay(ctx, ref)
	if err != nil {
		return nil, err
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
	k, err := b.focusForKeys(ctx, ref, way, text)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// windowKeysWay is how ref takes keys sent to its window; not_actionable
// when it takes none or its window is not an X11 one.
func (b *Backend) windowKeysWay(ctx context.Context, ref engine.ElementRef) (atspi.WindowKeys, error) {
	if _, x11 := b.src.(x11Windows); !x11 {
		return atspi.NoWindowKeys, engine.Errf(engine.CodeNotActionable, "keys can be sent to one window alone only on X11")
	}
	way, err := b.a.TakesWindowKeys(ctx, atspiID(ref.ID))
	if err != nil {
		return atspi.NoWindowKeys, atspiErr(err)
	}
	if way == atspi.NoWindowKeys {
		return atspi.NoWindowKeys, engine.Errf(engine.CodeNotActionable, "the element takes no keys sent to its window")
	}
	return way, nil
}

// heldTextMax bounds the field's text read before typing into it. Typing
// into a field that holds more is refused before any key is sent: the check
// of what landed counts the field's whole text, and a count of its start
// would call every batch lost.
const heldTextMax = 1 << 20

// focusForKeys focuses ref for keys sent to its window, refusing a window
// that holds the keyboard focus or a secure field, and notes what the
// checks compare with: the person's focus, the stacking, the field's text.
// text is what will be typed ("" for one key, whose check reads no text).
func (b *Backend) focusForKeys(ctx context.Context, ref engine.ElementRef, way atspi.WindowKeys, text string) (*windowKeys, error) {
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
	held, err := b.heldText(ctx, ref, heldTextMax)
	if err != nil {
		return nil, err
	}
	if held.Secure {
		return nil, engine.Errf(engine.CodeSecureField, "the element is a secure field")
	}
	if held.Truncated && text != "" {
		return nil, engine.Errf(engine.CodeNotActionable, "the field holds more than %d KiB of text, more than the check of what typing did reads", heldTextMax>>10)
	}
	k := &windowKeys{b: b, ref: ref, person: person, above: windowsAbove(before, win), held: held.Value,
		// The field holding held and all of text, and a last line break.
		checkBytes: len(held.Value) + len(text) + utf8.UTFMax}
	if err := k.focus(ctx, way); err != nil {
		k.End()
		return nil, err
	}
	return k, nil
}

// focus gives the field its app's focus. An app that needs its window
// active (atspi.KeysToActiveWindow) is first told that it is, and then
// asked once more for the field's text: that answer comes after the app
// has had its turn to read the FocusIn, which is queued before the
// question, so GrabFocus finds the window active and activates nothing.
func (k *windowKeys) focus(ctx context.Context, way atspi.WindowKeys) error {
	if way == atspi.KeysToActiveWindow {
		k.told = true
		if err := k.b.x.SendFocusChange(uint64(k.ref.Window), true); err != nil {
			return xErr(err)
		}
		// A round trip: only that the answer came matters.
		if _, err := k.b.heldText(ctx, k.ref, 1); err != nil {
			return err
		}
	}
	if err := atspiErr(k.b.a.GrabFocus(ctx, atspiID(k.ref.ID))); err != nil {
		return err
	}
	if err := k.desktopStill(); err != nil {
		// Focusing moved what it must not: no key is sent.
		return engine.Errf(engine.CodeNotActionable, "focusing the field moved the keyboard focus or raised a window")
	}
	if way != atspi.KeysToActiveWindow {
		return nil
	}
	// Chromium's page applies the focus after GrabFocus answers, and keys
	// sent before it would land elsewhere in the page: wait until the
	// field says it holds the focus.
	focused, err := poll(ctx, func() (bool, error) {
		f, err := k.b.a.Focused(ctx, atspiID(k.ref.ID))
		return f, atspiErr(err)
	})
	if err != nil {
		return err
	}
	if !focused {
		return engine.Errf(engine.CodeNotActionable, "the field did not take its page's focus")
	}
	return nil
}

// poll asks done every 5 ms until it answers true or an error, for at most
// landedWithin (the browsers apply what they are asked on their own turn);
// false when the time ran out.
func poll(ctx context.Context, done func() (bool, error)) (bool, error) {
	deadline := time.Now().Add(landedWithin)
	for {
		ok, err := done()
		if ok || err != nil {
			return ok, err
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// windowKeys is one typing on the window_keys path.
type windowKeys struct {
	b      *Backend
	ref    engine.ElementRef
	person uint64   // the top-level holding the keyboard focus at the start (0: none)
	above  []uint64 // the windows above the field's window at the start
	held   string   // the field's text at the start
	told   bool     // the app was told its window holds the focus (focus)
	// checkBytes bounds Check's reads of the field's text: what it held
	// and all that is typed fit, so a cut read holds more than was sent.
	checkBytes int
}

// Check: the keyboard focus and the field's window's place in the stacking
// are as they were, and the field holds sent on top of what it held
// (waiting up to landedWithin for the app to apply the last batch).
func (k *windowKeys) Check(ctx context.Context, sent string) error {
	if err := k.desktopStill(); err != nil {
		return err
	}
	want := utf8.RuneCountInString(strings.TrimSuffix(k.held, "\n")) + utf8.RuneCountInString(sent)
	holds, err := poll(ctx, func() (bool, error) {
		rb, err := k.b.heldText(ctx, k.ref, k.checkBytes)
		if err != nil {
			return false, err
		}
		if rb.Secure {
			return false, engine.Errf(engine.CodeSecureField, "the element turned into a secure field")
		}
		// An empty line of an editable document holds a line break of its
		// own (Gecko's placeholder), which goes when the first character
		// comes: a text's last line break is not counted.
		return !rb.Truncated && utf8.RuneCountInString(strings.TrimSuffix(rb.Value, "\n")) == want && strings.Contains(rb.Value, sent), nil
	})
	if err != nil {
		return err
	}
	if !holds {
		return engine.Errf(engine.CodeFocusChanged, "the field does not hold what was sent: its app's focus moved")
	}
	return nil
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

// End tells an app told that its window holds the focus (focus) that it
// does not: a synthetic FocusOut, so it drops keys again and believes
// what the X server says. Should the window hold the X focus by now (the
// person activated it during the typing), it is told so once more after
// the FocusOut: the server's own FocusIn may have come before ours.
// Errors are dropped: a window that went away needs nothing undone.
func (k *windowKeys) End() {
	if !k.told {
		return
	}
	k.told = false
	win := uint64(k.ref.Window)
	if k.b.x.SendFocusChange(win, false) != nil {
		return
	}
	if focus, err := k.b.x.FocusedTopLevel(); err == nil && focus == win {
		_ = k.b.x.SendFocusChange(win, true)
	}
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
func (b *Backend) heldText(ctx context.Context, ref engine.ElementRef, maxBytes int) (engine.Readback, error) {
	v, err := b.a.HeldText(ctx, atspiID(ref.ID), maxBytes)
	return engine.Readback{Value: v.Value, Truncated: v.Truncated, Secure: v.Secure}, atspiErr(err)
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
