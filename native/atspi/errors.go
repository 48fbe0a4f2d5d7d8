package atspi

import (
	"context"
	"errors"

	"github.com/nish-driver/nish-driver/engine"
)

// target says what a failing call was about, which decides what a vanished
// object means: a gone window or a stale element.
type target int

const (
	targetApp     target = iota // listing apps and their windows
	targetFrame                 // reading a window
	targetElement               // reading one element
	targetAct                   // acting on one element
)

// mapErr turns a call's failure into an engine error. The peer's own error
// text is kept as the cause only (never shown: it is app text).
//
//   - the context ended, a write timed out, NoReply/Timeout: app_not_responding
//   - the app left the bus (ServiceUnknown, NameHasNoOwner) or closed its
//     private socket: window_gone
//   - the object is gone (UnknownObject; GTK 4 says UnknownMethod): window_gone
//     for a window, stale_element_token for an element
//   - the bus connection dropped: window_gone (the next call reconnects; old
//     element ids do not survive a bus restart)
//   - anything else the app refuses: not_actionable for an act, else internal
func mapErr(err error, conn *wireConn, ctx context.Context, t target) *engine.Error {
	if err == nil {
		return nil
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return ee
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || (ctx != nil && ctx.Err() != nil) {
		return engine.Wrap(engine.CodeAppNotResponding, err, "the app did not answer within the call's time bound")
	}
	if errors.Is(err, errCallRefused) {
		return engine.Wrap(engine.CodeInternal, err, "the driver held back an accessibility call that is not on its list of safe calls")
	}
	if errors.Is(err, errWriteTimeout) {
		return engine.Wrap(engine.CodeAppNotResponding, err, "the app stopped reading its accessibility requests")
	}
	if errors.Is(err, errConnClosed) {
		if conn != nil && errors.Is(conn.closeReason(), errWriteTimeout) {
			return engine.Wrap(engine.CodeAppNotResponding, err, "the app stopped reading its accessibility requests")
		}
		if conn != nil && conn.peer {
			return engine.Wrap(engine.CodeWindowGone, err, "the app closed its accessibility connection")
		}
		return engine.Wrap(engine.CodeWindowGone, err, "the accessibility bus connection dropped")
	}
	var de *dbusError
	if errors.As(err, &de) {
		switch de.Name {
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
			"org.freedesktop.DBus.Error.Disconnected":
			return engine.Wrap(engine.CodeWindowGone, err, "the app is no longer on the accessibility bus")
		case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod":
			if t == targetElement || t == targetAct {
				return engine.Wrap(engine.CodeStaleElementToken, err, "the element no longer exists")
			}
			return engine.Wrap(engine.CodeWindowGone, err, "the window no longer exists")
		case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
			"org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.LimitsExceeded":
			return engine.Wrap(engine.CodeAppNotResponding, err, "the app did not answer")
		}
		if t == targetAct {
			return engine.Wrap(engine.CodeNotActionable, err, "the app refused the accessibility call")
		}
		return engine.Wrap(engine.CodeInternal, err, "the app returned an accessibility error")
	}
	if errors.Is(err, errShortBody) || errors.Is(err, errItemsSig) {
		return engine.Wrap(engine.CodeInternal, err, "the app sent a malformed accessibility reply")
	}
	return engine.Wrap(engine.CodeInternal, err, "an accessibility call failed")
}

// isGone reports whether an error means the object no longer exists.
func isGone(err error) bool {
	var de *dbusError
	if !errors.As(err, &de) {
		return false
	}
	switch de.Name {
	case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod":
		return true
	}
	return false
}
