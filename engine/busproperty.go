package engine

import "strings"

// The bus property check: does the X root window's AT_SPI_BUS name the
// accessibility bus the launcher announces? Qt 5 apps find the
// accessibility bus only through the AT_SPI_BUS property
// of the X root window, which the bus launcher sets; they never ask
// org.a11y.Bus. When the property is missing, or names a bus other than the
// one the launcher announces, Qt apps never join the bus, whatever their
// environment says (docs/qt-and-libreoffice.md). The doctor compares the two,
// and the hint for a Qt app off the bus names the same cause.

// States of the AT_SPI_BUS check.
const (
	QtBusOK       = "ok"       // the property names the announced bus
	QtBusMissing  = "missing"  // the root window has no AT_SPI_BUS
	QtBusMismatch = "mismatch" // it names another bus
	QtBusUnknown  = "unknown"  // the announced address or the property could not be read
)

// QtBusState compares the root window's AT_SPI_BUS (prop, set says whether
// it exists) with the address the launcher announces (announced, "" when it
// could not be asked).
func QtBusState(prop string, set bool, announced string) string {
	switch {
	case announced == "":
		return QtBusUnknown
	case !set || strings.TrimRight(strings.TrimSpace(prop), "\x00") == "":
		return QtBusMissing
	case strings.TrimRight(strings.TrimSpace(prop), "\x00") != announced:
		return QtBusMismatch
	}
	return QtBusOK
}

// qtBusFix is the fixed sentence for a missing or wrong property.
const qtBusFix = "Qt 5 apps (KeePassXC, FeatherPad, many KDE apps) cannot find the accessibility bus and never join it. " +
	"Fix: log out and in again, or restart at-spi-bus-launcher so that it sets the property again " +
	"(it does when it starts on the X display); then start the Qt app again. " +
	"QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 does not help without the property."

// qtBusHint is added to the Qt hint of an app off the bus when the check
// fails.
const qtBusHint = "On this desktop the X root window's AT_SPI_BUS property is missing or names another bus: " + qtBusFix

// qtBusMessages is the doctor's text for each state; no part of it comes
// from the property or the bus.
var qtBusMessages = map[string]string{
	QtBusOK:       "the X root window's AT_SPI_BUS names the accessibility bus",
	QtBusMissing:  "the X root window has no AT_SPI_BUS property. " + qtBusFix,
	QtBusMismatch: "the X root window's AT_SPI_BUS names another bus than org.a11y.Bus announces. " + qtBusFix,
	QtBusUnknown:  "not checked: org.a11y.Bus did not say where the accessibility bus is",
}

// QtBusProbe is the doctor's line about the AT_SPI_BUS property.
func QtBusProbe(state string) Probe {
	p := Probe{Label: "accessibility bus for Qt apps (X root window AT_SPI_BUS)", Status: "ok", Message: qtBusMessages[state]}
	switch state {
	case QtBusMissing, QtBusMismatch:
		p.Status = "fail"
	case QtBusUnknown:
		p.Status = "skip"
	}
	return p
}

// qtBusBroken reports whether a check found the property missing or wrong.
func qtBusBroken(state string) bool { return state == QtBusMissing || state == QtBusMismatch }
