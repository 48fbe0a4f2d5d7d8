package atspi

import "context"

// The accessibility side of the window_keys path (docs/decisions.md,
// "Window keys"): which fields take text only as keys sent to their window,
// how, and focusing such a field before the keys are sent.

// WindowKeys is how a field takes text as key events sent to its window.
type WindowKeys int

const (
	// NoWindowKeys: text goes another way (accessibility, or a takeover).
	NoWindowKeys WindowKeys = iota
	// KeysToWindow: the field is focused and the keys are sent (Gecko).
	KeysToWindow
	// KeysToActiveWindow: the app takes keys, and focuses a field without
	// activating its window, only while it believes the window holds the
	// focus (Chromium): it is told so before the field is focused and
	// told otherwise after the keys (keysNeedActiveWindow).
	KeysToActiveWindow
)

// TakesWindowKeys reports how text typed into the element goes as key
// events sent to its window: an editable text field with a Component that
// a read does not show Editable (its app takes no text through
// accessibility), of an app whose toolkit takes keys that way
// (keysToWindow). A secure element is KindSecure.
func (c *Client) TakesWindowKeys(ctx context.Context, id ID) (WindowKeys, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return NoWindowKeys, err
	}
	if l.secure {
		return NoWindowKeys, failure(KindSecure, "the element is a secure field")
	}
	if !l.states.has(stateEditable) || l.ifaces&ifText == 0 || l.ifaces&ifComponent == 0 {
		return NoWindowKeys, nil
	}
	kit := c.ToolkitName(ctx, l.bus)
	switch {
	case !keysToWindow(kit), writesText(kit) && editableText(l.ifaces, l.states):
		return NoWindowKeys, nil
	case keysNeedActiveWindow(kit):
		return KeysToActiveWindow, nil
	}
	return KeysToWindow, nil
}

// GrabFocus gives the element its app's focus (Component.GrabFocus); an
// app that declines is KindRefused, a secure element KindSecure.
func (c *Client) GrabFocus(ctx context.Context, id ID) error {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return err
	}
	if l.secure {
		return failure(KindSecure, "the element is a secure field")
	}
	return l.act(ctx, "the focus", "org.a11y.atspi.Component", "GrabFocus")
}

// Focused reads, live, whether the element holds its app's focus (its
// focused state). Chromium applies a GrabFocus in its page's process some
// time after the call answers, and says so by this state.
func (c *Client) Focused(ctx context.Context, id ID) (bool, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return false, err
	}
	return l.states.has(stateFocused), nil
}
