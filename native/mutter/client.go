package mutter

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/godbus/dbus/v5"
)

// The API's names (org.gnome.Mutter.ScreenCast.xml).
const (
	busName       = "org.gnome.Mutter.ScreenCast"
	objectPath    = "/org/gnome/Mutter/ScreenCast"
	ifaceCast     = "org.gnome.Mutter.ScreenCast"
	ifaceSession  = "org.gnome.Mutter.ScreenCast.Session"
	ifaceStream   = "org.gnome.Mutter.ScreenCast.Stream"
	signalAdded   = "PipeWireStreamAdded"
	signalClosed  = "Closed"
	propParameter = ifaceStream + ".Parameters"
)

// Options say which session bus to use and how long a capture may take.
type Options struct {
	// BusAddress is the session bus's address; when empty it is
	// $DBUS_SESSION_BUS_ADDRESS read through Getenv.
	BusAddress string
	// Getenv reads the environment (default os.Getenv); a test passes its
	// sandbox's variables so that the person's session is never used.
	Getenv func(string) string
	// Timeout bounds a capture's session from CreateSession to the
	// stream's announcement, and the probe (default DefaultTimeout).
	Timeout time.Duration
}

// DefaultTimeout bounds the session's set-up: mutter answers in
// milliseconds and announces the stream once PipeWire has taken it.
const DefaultTimeout = 5 * time.Second

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

func (o Options) address() string {
	if o.BusAddress != "" {
		return o.BusAddress
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return getenv("DBUS_SESSION_BUS_ADDRESS")
}

// Client is one private connection to the session bus. Mutter ties a
// screen-cast session to the connection that made it, and closes it when
// that connection goes away, so a crashed driver leaves no cast running.
type Client struct {
	conn *dbus.Conn
	end  context.CancelFunc
	opts Options
}

// Dial connects to the session bus the options name.
func Dial(ctx context.Context, opts Options) (*Client, error) {
	addr := opts.address()
	if addr == "" {
		return nil, fmt.Errorf("%w: DBUS_SESSION_BUS_ADDRESS is not set", ErrNoBus)
	}
	// godbus ties a connection's life to the context it was made with,
	// so the connection gets one of its own, ended by Close or by a
	// connect that outlasts the bound.
	life, end := context.WithCancel(context.Background())
	type dialed struct {
		conn *dbus.Conn
		err  error
	}
	done := make(chan dialed, 1)
	go func() {
		conn, err := dbus.Connect(addr, dbus.WithContext(life))
		done <- dialed{conn, err}
	}()
	timer := time.NewTimer(opts.timeout())
	defer timer.Stop()
	select {
	case d := <-done:
		if d.err != nil {
			end()
			return nil, fmt.Errorf("%w: %v", ErrNoBus, d.err)
		}
		return &Client{conn: d.conn, end: end, opts: opts}, nil
	case <-timer.C:
		end()
		return nil, fmt.Errorf("%w: no answer within %v", ErrNoBus, opts.timeout())
	case <-ctx.Done():
		end()
		return nil, fmt.Errorf("%w: %v", ErrNoBus, ctx.Err())
	}
}

// Close ends the connection; mutter closes any session still open on it.
func (c *Client) Close() error {
	err := c.conn.Close()
	c.end()
	return err
}

func (c *Client) object(path dbus.ObjectPath) dbus.BusObject {
	return c.conn.Object(busName, path)
}
