package atspi

import (
	"context"

	"github.com/godbus/dbus/v5"
)

// The desktop's accessibility switch: property IsEnabled of interface
// org.a11y.Status on object /org/a11y/bus of org.a11y.Bus, on the session
// bus (the bus launcher owns it, not an app). Firefox and Qt 6 watch it and
// turn their trees on while running; Chromium and GTK read it when they
// start. Its neighbour ScreenReaderEnabled is never read or written: on
// GNOME setting it starts the Orca screen reader.

const (
	a11yBusName   = "org.a11y.Bus"
	a11yBusPath   = "/org/a11y/bus"
	statusIface   = "org.a11y.Status"
	isEnabledProp = "IsEnabled"
)

// AccessibilitySwitch reads the switch with one Properties.Get.
func (c *Client) AccessibilitySwitch(ctx context.Context) (bool, error) {
	conn, err := c.sessionBus(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	return readSwitch(ctx, conn)
}

// EnableAccessibility turns the switch on when it is off: one
// Properties.Get, then one Properties.Set only if the Get said false.
// wasOn says whether it was on already.
func (c *Client) EnableAccessibility(ctx context.Context) (wasOn bool, err error) {
	conn, err := c.sessionBus(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	on, err := readSwitch(ctx, conn)
	if err != nil || on {
		return on, err
	}
	call := conn.Object(a11yBusName, a11yBusPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Set", 0,
		statusIface, isEnabledProp, dbus.MakeVariant(true))
	if call.Err != nil {
		return false, wrapFailure(KindUnavailable, call.Err, "cannot turn the accessibility switch on")
	}
	return false, nil
}

func readSwitch(ctx context.Context, conn *dbus.Conn) (bool, error) {
	var v dbus.Variant
	err := conn.Object(a11yBusName, a11yBusPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0,
		statusIface, isEnabledProp).Store(&v)
	if err != nil {
		return false, wrapFailure(KindUnavailable, err, "cannot read the accessibility switch")
	}
	on, ok := v.Value().(bool)
	if !ok {
		return false, failure(KindUnavailable, "the accessibility switch is not a boolean")
	}
	return on, nil
}

// sessionBus connects to the session bus named by DBUS_SESSION_BUS_ADDRESS
// (through Options.Getenv). The caller closes it.
func (c *Client) sessionBus(ctx context.Context) (*dbus.Conn, error) {
	session := c.opts.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if session == "" {
		return nil, failure(KindUnavailable, "no session bus: DBUS_SESSION_BUS_ADDRESS is not set")
	}
	conn, err := dbus.Connect(session, dbus.WithContext(ctx))
	if err != nil {
		return nil, wrapFailure(KindUnavailable, err, "cannot connect to the session bus")
	}
	return conn, nil
}
