// Package atspi reads and acts on applications' accessibility trees over
// AT-SPI, for the Linux backend (package native assembles it with
// native/xlib into the engine's backend). It knows nothing of the engine:
// it returns its own types (types.go) and errors (errors.go), which
// package native translates.
//
// # How a window is read
//
// A naive client pays one D-Bus round trip per property of every element
// (about half a millisecond each). This package instead:
//
//  1. asks the app for its whole cached tree in one call
//     (org.a11y.atspi.Cache.GetItems: object, parent, index, child count,
//     interfaces, name, role, description and states of every element);
//  2. checks every element's child count against the children the reply
//     named, and reads what is missing (children of containers that manage
//     their descendants, menus, some title-bar buttons, most of a GTK 4
//     app) with GetChildren and property calls, all in flight at once, a
//     round per missing level, within the budget (5,000 elements, depth
//     200);
//  3. reads per-element details, again all in flight at once: extents of
//     showing elements, action names, numeric values and the text of
//     elements whose text is their value. ReadOptions.Details and
//     DetailLimit choose how much; Client.Details reads more later.
//
// Calls go over a small D-Bus client of the package's own (wire.go,
// marshal.go): it writes a batch of calls in one system call and decodes
// the few reply shapes by hand, where a general library costs more than the
// app's own work. An app that offers a private socket (GTK 3) is called on
// it directly, skipping the bus daemon; GTK 4 apps are called through the
// bus. godbus is used only to ask the session bus where the accessibility
// bus is. libatspi (cgo) supplies role and state names; the tests compare
// the reader with libatspi's own synchronous walk (internal/naivewalk).
//
// # Change events
//
// Client.Watch counts one app's AT-SPI change events (structure: children
// added or removed; content: names, values, text, states, extents) without
// reading anything: it registers the event kinds with the registry, asks
// the bus daemon to forward the app's events, and the connection's reader
// goroutine counts them. Watcher.Quiet waits until the app has been quiet
// for a while, WaitChange until it changed at all, Since lists the sources
// of recent changes. See PERF.md for what the toolkits send.
//
// # Failures
//
// Every call has its own context; a stopped app fails only its own calls,
// with KindNotResponding when the context ends, and never blocks the
// connection for others. A vanished object is KindStale, a
// vanished app or window KindGone. After the accessibility bus restarts
// the next call reconnects; ids minted before it are refused (see
// splitID). Errors are *Error values, a Kind and a fixed message that never
// quotes app text; package native turns the kinds into error codes.
//
// # Secure fields
//
// An element is secure when its role is password_text or its attributes
// mark a password input (secure.go). Its value and text are never
// requested from the app; reads mark it Secure, ReadValue returns
// Readback{Secure: true}, and ReadText, InsertText and SetText refuse it
// with KindSecure after a live check.
package atspi
