package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// AccessibleApp is one application registered on the desktop's AT-SPI bus.
type AccessibleApp struct {
	Name    string
	BusName string
	Pid     int
}

// AccessibleApps lists the applications registered on the AT-SPI bus, so a
// caller can wait until an app it started can be read.
func (d *Desktop) AccessibleApps(ctx context.Context) ([]AccessibleApp, error) {
	conn, err := d.a11yConn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	root := conn.Object("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
	var children []struct {
		Name string
		Path dbus.ObjectPath
	}
	if err := root.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&children); err != nil {
		return nil, fmt.Errorf("sandbox: the AT-SPI registry did not list its apps: %w", err)
	}
	var apps []AccessibleApp
	for _, c := range children {
		obj := conn.Object(c.Name, c.Path)
		app := AccessibleApp{BusName: c.Name}
		if v, err := obj.GetProperty("org.a11y.atspi.Accessible.Name"); err == nil {
			app.Name, _ = v.Value().(string)
		}
		var pid uint32
		if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, c.Name).Store(&pid); err == nil {
			app.Pid = int(pid)
		}
		apps = append(apps, app)
	}
	return apps, nil
}

// WaitForApp waits until an app whose accessible name contains name (case
// insensitive) is on the AT-SPI bus, and returns it.
func (d *Desktop) WaitForApp(ctx context.Context, name string, timeout time.Duration) (AccessibleApp, error) {
	return d.waitForApp(ctx, fmt.Sprintf("%q", name), timeout, func(a AccessibleApp) bool {
		return strings.Contains(strings.ToLower(a.Name), strings.ToLower(name))
	}, nil)
}

// waitForApp polls the AT-SPI bus until an app that is wanted is on it,
// and returns it. what names the app in the error; gone, when not nil,
// ends the wait early with its error once the app can no longer come.
func (d *Desktop) waitForApp(ctx context.Context, what string, timeout time.Duration, wanted func(AccessibleApp) bool, gone func() error) (AccessibleApp, error) {
	deadline := time.Now().Add(timeout)
	for {
		apps, err := d.AccessibleApps(ctx)
		if err == nil {
			for _, a := range apps {
				if wanted(a) {
					return a, nil
				}
			}
			if gone != nil {
				if err := gone(); err != nil {
					return AccessibleApp{}, err
				}
			}
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("not registered")
			}
			return AccessibleApp{}, fmt.Errorf("sandbox: %s did not appear on the AT-SPI bus within %v: %w", what, timeout, err)
		}
		select {
		case <-ctx.Done():
			return AccessibleApp{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// a11yConn connects to the desktop's AT-SPI bus through its session bus.
func (d *Desktop) a11yConn(ctx context.Context) (*dbus.Conn, error) {
	session, err := dbus.Connect(d.vars["DBUS_SESSION_BUS_ADDRESS"], dbus.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("sandbox: session bus: %w", err)
	}
	var addr string
	err = session.Object("org.a11y.Bus", "/org/a11y/bus").CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr)
	session.Close()
	if err != nil {
		return nil, fmt.Errorf("sandbox: org.a11y.Bus.GetAddress: %w", err)
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("sandbox: AT-SPI bus: %w", err)
	}
	return conn, nil
}
