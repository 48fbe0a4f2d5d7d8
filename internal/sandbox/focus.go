package sandbox

import (
	"context"
	"fmt"
)

// stateFocused is ATSPI_STATE_FOCUSED, a bit of the first state word.
const stateFocused = 12

// Element is one element a test found on the desktop's AT-SPI bus (see
// FindElement), for the few calls tests make on it directly.
type Element struct {
	d   *Desktop
	ref accessibleRef
}

// FindElement finds the first element of app with role role and name name,
// searching as HasElement does ("" matches an element without a name).
func (d *Desktop) FindElement(ctx context.Context, app AccessibleApp, role uint32, name string) (*Element, error) {
	conn, err := d.a11yConn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ref, err := findRef(ctx, conn, app, role, name)
	if err != nil {
		return nil, fmt.Errorf("sandbox: no element of role %d named %q in %q: %w", role, name, app.Name, err)
	}
	return &Element{d: d, ref: ref}, nil
}

// call makes one method call on the element, on a connection of its own.
func (e *Element) call(ctx context.Context, method string, out any, args ...any) error {
	conn, err := e.d.a11yConn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	c := conn.Object(e.ref.Name, e.ref.Path).CallWithContext(ctx, method, 0, args...)
	if out == nil {
		return c.Err
	}
	return c.Store(out)
}

// GrabFocus calls Component.GrabFocus and returns the app's answer.
func (e *Element) GrabFocus(ctx context.Context) (bool, error) {
	var ok bool
	err := e.call(ctx, "org.a11y.atspi.Component.GrabFocus", &ok)
	return ok, err
}

// Focused reads whether the element's states hold focused.
func (e *Element) Focused(ctx context.Context) (bool, error) {
	var states []uint32
	if err := e.call(ctx, "org.a11y.atspi.Accessible.GetState", &states); err != nil {
		return false, err
	}
	return len(states) > 0 && states[0]&(1<<stateFocused) != 0, nil
}

// Text reads the element's whole text (Text.GetText from 0 to the end).
func (e *Element) Text(ctx context.Context) (string, error) {
	var s string
	err := e.call(ctx, "org.a11y.atspi.Text.GetText", &s, int32(0), int32(-1))
	return s, err
}
