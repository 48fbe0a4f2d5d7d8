package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// AT-SPI role numbers (AtspiRole in atspi-constants.h) that tests look for.
const (
	// RolePushButton is a button (ATSPI_ROLE_PUSH_BUTTON).
	RolePushButton uint32 = 43
	// RoleHeading is a heading (ATSPI_ROLE_HEADING), a page's <h1>..<h6>.
	RoleHeading uint32 = 83
	// RoleText is a GTK 3 entry or text view (ATSPI_ROLE_TEXT).
	RoleText uint32 = 61
	// RoleEntry is a browser's text input (ATSPI_ROLE_ENTRY).
	RoleEntry uint32 = 79
)

// findLimit bounds how many elements one search visits, so a search of a
// huge or endless tree (a spreadsheet's cells) ends.
const findLimit = 20000

// errNotFound is a search that visited the whole tree, or findLimit
// elements, without a match.
var errNotFound = errors.New("no such element")

// accessibleRef is one element on the AT-SPI bus.
type accessibleRef struct {
	Name string // bus name of the app that holds it
	Path dbus.ObjectPath
}

// HasElement reports whether the tree of app holds an element with role
// role (an AT-SPI role number) and accessible name name. It searches
// breadth first, so elements near the top (a page's headings) are found
// before deep ones (table cells), and visits at most 20,000 elements.
//
// It is a test helper that is safe on every app: it sends only
// Accessible.GetChildren, Accessible.GetRole and single Properties.Get
// calls of Accessible.Name, never Properties.GetAll (which aborts Chromium
// and Firefox), and it reads no other property.
func (d *Desktop) HasElement(ctx context.Context, app AccessibleApp, role uint32, name string) (bool, error) {
	conn, err := d.a11yConn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	err = findElement(ctx, conn, app, role, name)
	if errors.Is(err, errNotFound) {
		return false, nil
	}
	return err == nil, err
}

// WaitForElement waits until the tree of app holds an element with role
// role and name name (see HasElement), for at most timeout: a page is on
// the bus some time after its app, and its content after its frame.
func (d *Desktop) WaitForElement(ctx context.Context, app AccessibleApp, role uint32, name string, timeout time.Duration) error {
	conn, err := d.a11yConn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline := time.Now().Add(timeout)
	for {
		err := findElement(ctx, conn, app, role, name)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sandbox: no element of role %d named %q in %q within %v: %w", role, name, app.Name, timeout, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// findElement is one breadth-first search of app's tree.
func findElement(ctx context.Context, conn *dbus.Conn, app AccessibleApp, role uint32, name string) error {
	_, err := findRef(ctx, conn, app, role, name)
	return err
}

// findRef is findElement returning the element found.
func findRef(ctx context.Context, conn *dbus.Conn, app AccessibleApp, role uint32, name string) (accessibleRef, error) {
	queue := []accessibleRef{{Name: app.BusName, Path: "/org/a11y/atspi/accessible/root"}}
	for visited := 0; len(queue) > 0 && visited < findLimit; visited++ {
		ref := queue[0]
		queue = queue[1:]
		obj := conn.Object(ref.Name, ref.Path)
		var r uint32
		if err := obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetRole", 0).Store(&r); err != nil {
			if ctx.Err() != nil {
				return accessibleRef{}, ctx.Err()
			}
			continue // an element that went away while the tree changed
		}
		if r == role {
			var v dbus.Variant
			err := obj.CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0,
				"org.a11y.atspi.Accessible", "Name").Store(&v)
			if s, ok := v.Value().(string); err == nil && ok && s == name {
				return ref, nil
			}
		}
		var children []accessibleRef
		if err := obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&children); err != nil {
			continue
		}
		queue = append(queue, children...)
	}
	return accessibleRef{}, errNotFound
}
