package atspi

import "context"

// The accessibility side of the window_keys path (docs/decisions.md,
// "Window keys"): which fields take text only as keys sent to their window,
// and focusing such a field before the keys are sent.

// TakesWindowKeys reports whether text typed into the element goes as key
// events sent to its window: an editable field with a Component, of an app
// whose toolkit takes keys that way (keysToWindow) and ignores text written
// through accessibility. A secure element is KindSecure.
func (c *Client) TakesWindowKeys(ctx context.Context, id ID) (bool, error) {
	l, err := c.inspect(ctx, id)
	if err != nil {
		return false, err
	}
	if l.secure {
		return false, failure(KindSecure, "the element is a secure field")
	}
	if !editableText(l.ifaces, l.states) || l.ifaces&ifComponent == 0 {
		return false, nil
	}
	kit := c.ToolkitName(ctx, l.bus)
	return keysToWindow(kit) && !writesText(kit), nil
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
