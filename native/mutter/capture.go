package mutter

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// Stream is a started screen cast's PipeWire stream.
type Stream struct {
	// NodeID is the PipeWire node to read the frames from.
	NodeID uint32
	// Position and Size are the stream's Parameters: the source's place
	// and size in the compositor's logical coordinates. For a window
	// stream they are its monitor's (mutter sizes window streams to the
	// monitor); HasGeometry is false when mutter gave neither.
	Position    image.Point
	Size        image.Point
	HasGeometry bool
}

// Capture records the target in a session of its own, waits for mutter to
// announce the stream's PipeWire node, calls use with it while the cast
// runs, and stops the session whatever happens. The session's set-up is
// bounded by the options' timeout; use gets ctx and bounds itself.
func (c *Client) Capture(ctx context.Context, target Target, use func(context.Context, Stream) error) error {
	setup, cancel := context.WithTimeout(ctx, c.opts.timeout())
	defer cancel()
	session, err := c.createSession(setup)
	if err != nil {
		return err
	}
	defer c.stop(session)
	stream, err := c.startStream(setup, session, target)
	if err != nil {
		return err
	}
	return use(ctx, stream)
}

// createSession makes an empty session (no remote-desktop session: a
// plain screen cast).
func (c *Client) createSession(ctx context.Context) (dbus.ObjectPath, error) {
	var path dbus.ObjectPath
	err := c.object(objectPath).CallWithContext(ctx, ifaceCast+".CreateSession", 0, map[string]dbus.Variant{}).Store(&path)
	if err != nil {
		return "", callError(ctx, "CreateSession", err)
	}
	return path, nil
}

// startStream adds the target's stream to the session, starts the session
// and waits for the stream's PipeWire node. The signals are subscribed to
// before Start, which is when mutter may send them.
func (c *Client) startStream(ctx context.Context, session dbus.ObjectPath, target Target) (Stream, error) {
	method, args := target.record()
	var streamPath dbus.ObjectPath
	if err := c.object(session).CallWithContext(ctx, method, 0, args...).Store(&streamPath); err != nil {
		if target.isWindow() && strings.Contains(err.Error(), "Window not found") {
			if target.kind == focusedWindow {
				return Stream{}, ErrNoFocusedWindow
			}
			return Stream{}, fmt.Errorf("%w: %s", ErrWindowNotFound, target)
		}
		return Stream{}, callError(ctx, method[strings.LastIndexByte(method, '.')+1:], err)
	}
	signals, unsubscribe, err := c.subscribe(ctx, session, streamPath)
	if err != nil {
		return Stream{}, err
	}
	defer unsubscribe()
	if err := c.object(session).CallWithContext(ctx, ifaceSession+".Start", 0).Err; err != nil {
		return Stream{}, callError(ctx, "Start", err)
	}
	node, err := waitNode(ctx, signals, session, streamPath)
	if err != nil {
		return Stream{}, err
	}
	s := Stream{NodeID: node}
	c.readParameters(ctx, streamPath, &s)
	return s, nil
}

// subscribe asks the bus for the session's and the stream's signals and
// returns the channel they arrive on.
func (c *Client) subscribe(ctx context.Context, session, stream dbus.ObjectPath) (<-chan *dbus.Signal, func(), error) {
	rules := [][]dbus.MatchOption{
		{dbus.WithMatchObjectPath(stream), dbus.WithMatchInterface(ifaceStream), dbus.WithMatchMember(signalAdded)},
		{dbus.WithMatchObjectPath(session), dbus.WithMatchInterface(ifaceSession), dbus.WithMatchMember(signalClosed)},
	}
	ch := make(chan *dbus.Signal, 8)
	c.conn.Signal(ch)
	added := 0
	unsubscribe := func() {
		c.conn.RemoveSignal(ch)
		for _, r := range rules[:added] {
			_ = c.conn.RemoveMatchSignalContext(context.Background(), r...)
		}
	}
	for _, r := range rules {
		if err := c.conn.AddMatchSignalContext(ctx, r...); err != nil {
			unsubscribe()
			return nil, nil, fmt.Errorf("%w: AddMatch: %v", ErrNoBus, err)
		}
		added++
	}
	return ch, unsubscribe, nil
}

// waitNode waits for PipeWireStreamAdded on the stream, and fails when
// the session closes or the set-up's time runs out first.
func waitNode(ctx context.Context, signals <-chan *dbus.Signal, session, stream dbus.ObjectPath) (uint32, error) {
	for {
		select {
		case sig, ok := <-signals:
			if !ok {
				return 0, fmt.Errorf("%w: the connection closed", ErrNoBus)
			}
			switch {
			case sig.Path == stream && sig.Name == ifaceStream+"."+signalAdded && len(sig.Body) == 1:
				if node, ok := sig.Body[0].(uint32); ok {
					return node, nil
				}
			case sig.Path == session && sig.Name == ifaceSession+"."+signalClosed:
				return 0, ErrClosed
			}
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return 0, ErrNoStream
			}
			return 0, ctx.Err()
		}
	}
}

// readParameters fills in the stream's position and size when mutter
// gives them; a stream without them is still a stream.
func (c *Client) readParameters(ctx context.Context, stream dbus.ObjectPath, s *Stream) {
	v, err := c.object(stream).GetProperty(propParameter)
	if err != nil {
		return
	}
	params, ok := v.Value().(map[string]dbus.Variant)
	if !ok {
		return
	}
	pos, okPos := pair(params["position"])
	size, okSize := pair(params["size"])
	s.Position, s.Size, s.HasGeometry = pos, size, okPos || okSize
}

// pair reads an (ii) parameter.
func pair(v dbus.Variant) (image.Point, bool) {
	var xy []any
	switch t := v.Value().(type) {
	case []any:
		xy = t
	default:
		return image.Point{}, false
	}
	if len(xy) != 2 {
		return image.Point{}, false
	}
	x, okX := xy[0].(int32)
	y, okY := xy[1].(int32)
	return image.Pt(int(x), int(y)), okX && okY
}

// stopTimeout bounds the Stop sent when a capture ends, which runs even
// when the capture's own context has ended.
const stopTimeout = 2 * time.Second

// stop ends the session. Mutter also closes it when the connection goes.
func (c *Client) stop(session dbus.ObjectPath) {
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	_ = c.object(session).CallWithContext(ctx, ifaceSession+".Stop", 0).Err
}

// callError names a failed call: the API missing, the time out, or
// mutter's own refusal.
func callError(ctx context.Context, call string, err error) error {
	switch {
	case isUnavailable(err):
		return fmt.Errorf("%w: %s: %v", ErrUnavailable, call, err)
	case ctx.Err() != nil:
		return fmt.Errorf("mutter: %s: %w", call, ctx.Err())
	}
	return fmt.Errorf("%w: %s: %v", ErrRefused, call, err)
}
