package mutter

import (
	"context"
	"errors"
	"fmt"

	"github.com/godbus/dbus/v5"
)

// Availability says whether window capture through mutter can work here,
// for the doctor: the reason is one of the package's errors (nil when
// available), so a caller maps it to its own reason code with errors.Is.
type Availability struct {
	Available bool
	// Version is the API's Version property (0 when unknown). RecordWindow
	// needs 2; mutter 43 says 4.
	Version int32
	// Reason is why it is not available: ErrNoBus, ErrUnavailable,
	// ErrTooOld, wrapped with the details.
	Reason error
}

// minWindowVersion is the first API version with RecordWindow.
const minWindowVersion = 2

// Probe asks the session bus whether org.gnome.Mutter.ScreenCast answers
// and which version it is. It starts nothing: no session, no cast.
func Probe(ctx context.Context, opts Options) Availability {
	c, err := Dial(ctx, opts)
	if err != nil {
		return Availability{Reason: err}
	}
	defer c.Close()
	return c.Probe(ctx)
}

// Probe is the package's Probe on an open connection.
func (c *Client) Probe(ctx context.Context) Availability {
	ctx, cancel := context.WithTimeout(ctx, c.opts.timeout())
	defer cancel()
	var owned bool
	err := c.conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, busName).Store(&owned)
	if err != nil {
		return Availability{Reason: fmt.Errorf("%w: %v", ErrNoBus, err)}
	}
	if !owned {
		return Availability{Reason: ErrUnavailable}
	}
	var v dbus.Variant
	err = c.object(objectPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0, ifaceCast, "Version").Store(&v)
	if err != nil {
		return Availability{Reason: fmt.Errorf("%w: %v", ErrUnavailable, err)}
	}
	version, ok := v.Value().(int32)
	if !ok {
		return Availability{Reason: fmt.Errorf("%w: its Version is %s, not an int32", ErrUnavailable, v.Signature())}
	}
	if version < minWindowVersion {
		return Availability{Version: version, Reason: fmt.Errorf("%w: version %d", ErrTooOld, version)}
	}
	return Availability{Available: true, Version: version}
}

// isUnavailable says whether a call's error means nobody owns the name.
func isUnavailable(err error) bool {
	var de dbus.Error
	if errors.As(err, &de) {
		return de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" || de.Name == "org.freedesktop.DBus.Error.NameHasNoOwner"
	}
	return false
}
