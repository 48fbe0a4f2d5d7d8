package atspi

import (
	"context"
	"errors"
)

// Kind is what a failure means to the caller; package native turns each
// kind into one of the engine's error codes (native/atspi_types.go).
type Kind int

const (
	// KindInternal: a bug in the driver or a reply it cannot read.
	KindInternal Kind = iota
	// KindUnavailable: the accessibility bus (or the session bus that
	// names it) cannot be reached.
	KindUnavailable
	// KindGone: the app or the window no longer exists, or the bus
	// restarted since the element was read.
	KindGone
	// KindStale: the element no longer exists (its window may).
	KindStale
	// KindNotResponding: the app did not answer in time, or stopped
	// reading its requests.
	KindNotResponding
	// KindRefused: the element offers no way to do it, or the app
	// declined the call.
	KindRefused
	// KindSecure: the element is a secure field.
	KindSecure
	// KindUnsupported: the peer is not something the call applies to.
	KindUnsupported
)

var kindNames = [...]string{
	KindInternal:      "internal",
	KindUnavailable:   "unavailable",
	KindGone:          "gone",
	KindStale:         "stale",
	KindNotResponding: "not responding",
	KindRefused:       "refused",
	KindSecure:        "secure",
	KindUnsupported:   "unsupported",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Error is the package's failure: a kind and a fixed sentence. The
// message never quotes app text (a peer's own error text is kept as the
// cause only, for logs and tests), so it may be shown to the model.
type Error struct {
	Kind    Kind
	Message string
	cause   error
}

func (e *Error) Error() string { return "atspi: " + e.Kind.String() + ": " + e.Message }

// Unwrap exposes the cause for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.cause }

// failure makes an error of a kind with a fixed message.
func failure(k Kind, msg string) *Error { return &Error{Kind: k, Message: msg} }

// wrapFailure is failure with the cause kept.
func wrapFailure(k Kind, cause error, msg string) *Error {
	return &Error{Kind: k, Message: msg, cause: cause}
}

// KindOf is the kind of an error the package returned (KindInternal for
// any other error).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// target says what a failing call was about, which decides what a vanished
// object means: a gone window or a stale element.
type target int

const (
	targetApp     target = iota // listing apps and their windows
	targetFrame                 // reading a window
	targetElement               // reading one element
	targetAct                   // acting on one element
)

// mapErr turns a call's failure into the package's error. The peer's own error
// text is kept as the cause only (never shown: it is app text).
//
//   - the context ended, a write timed out, NoReply/Timeout: KindNotResponding
//   - the app left the bus (ServiceUnknown, NameHasNoOwner, or the daemon's
//     NoReply for a recipient that disconnected) or closed its private
//     socket: KindGone
//   - the object is gone (UnknownObject; GTK 4 says UnknownMethod): KindGone
//     for a window, KindStale for an element
//   - the bus connection dropped: KindGone (the next call reconnects; old
//     element ids do not survive a bus restart)
//   - anything else the app refuses: KindRefused for an act, else
//     KindInternal
func mapErr(err error, conn *wireConn, ctx context.Context, t target) *Error {
	if err == nil {
		return nil
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || (ctx != nil && ctx.Err() != nil) {
		return wrapFailure(KindNotResponding, err, "the app did not answer within the call's time bound")
	}
	if errors.Is(err, errCallRefused) {
		return wrapFailure(KindInternal, err, "the driver held back an accessibility call that is not on its list of safe calls")
	}
	if errors.Is(err, errWriteTimeout) {
		return wrapFailure(KindNotResponding, err, "the app stopped reading its accessibility requests")
	}
	if errors.Is(err, errConnClosed) {
		if conn != nil && errors.Is(conn.closeReason(), errWriteTimeout) {
			return wrapFailure(KindNotResponding, err, "the app stopped reading its accessibility requests")
		}
		if conn != nil && conn.peer {
			return wrapFailure(KindGone, err, "the app closed its accessibility connection")
		}
		return wrapFailure(KindGone, err, "the accessibility bus connection dropped")
	}
	var de *dbusError
	if errors.As(err, &de) {
		if de.recipientLeft() {
			// An app that exits mid-call: the process may not have
			// become a zombie yet, so this is the only sign it is gone.
			return wrapFailure(KindGone, err, "the app left the accessibility bus without answering")
		}
		switch de.Name {
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
			"org.freedesktop.DBus.Error.Disconnected":
			return wrapFailure(KindGone, err, "the app is no longer on the accessibility bus")
		case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod":
			if t == targetElement || t == targetAct {
				return wrapFailure(KindStale, err, "the element no longer exists")
			}
			return wrapFailure(KindGone, err, "the window no longer exists")
		case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
			"org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.LimitsExceeded":
			return wrapFailure(KindNotResponding, err, "the app did not answer")
		}
		if t == targetAct {
			return wrapFailure(KindRefused, err, "the app refused the accessibility call")
		}
		return wrapFailure(KindInternal, err, "the app returned an accessibility error")
	}
	if errors.Is(err, errShortBody) || errors.Is(err, errItemsSig) {
		return wrapFailure(KindInternal, err, "the app sent a malformed accessibility reply")
	}
	return wrapFailure(KindInternal, err, "an accessibility call failed")
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
