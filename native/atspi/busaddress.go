package atspi

import (
	"context"
)

// AnnouncedBusAddress asks the bus launcher (org.a11y.Bus on the session
// bus, not an app) where the accessibility bus is, ignoring
// AT_SPI_BUS_ADDRESS: the doctor compares it with what Qt 5 apps read, the
// AT_SPI_BUS property of the X root window.
func (c *Client) AnnouncedBusAddress(ctx context.Context) (string, error) {
	conn, err := c.sessionBus(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	var addr string
	err = conn.Object(a11yBusName, a11yBusPath).CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr)
	if err != nil || addr == "" {
		return "", wrapFailure(KindUnavailable, err, "the session bus has no accessibility bus (org.a11y.Bus)")
	}
	return addr, nil
}
