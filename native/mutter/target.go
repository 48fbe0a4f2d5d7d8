package mutter

import (
	"fmt"
	"image"

	"github.com/godbus/dbus/v5"
)

// Target is what a capture records: a window, a monitor or an area.
type Target struct {
	kind      targetKind
	windowID  uint64
	connector string
	area      image.Rectangle
}

type targetKind int

const (
	focusedWindow targetKind = iota
	windowByID
	monitor
	area
)

// FocusedWindow records the window that has focus: the only way to name a
// window the driver knows from AT-SPI alone (see the package comment).
func FocusedWindow() Target { return Target{kind: focusedWindow} }

// WindowByID records the window of mutter's own id (MetaWindow.id).
func WindowByID(id uint64) Target { return Target{kind: windowByID, windowID: id} }

// Monitor records a whole monitor by its connector ("Meta-0" is the
// headless virtual monitor).
func Monitor(connector string) Target { return Target{kind: monitor, connector: connector} }

// Area records a rectangle of the stage, in logical (stage) pixels.
func Area(r image.Rectangle) Target { return Target{kind: area, area: r} }

func (t Target) String() string {
	switch t.kind {
	case windowByID:
		return fmt.Sprintf("window %d", t.windowID)
	case monitor:
		return "monitor " + t.connector
	case area:
		return "area " + t.area.String()
	}
	return "the focused window"
}

// record is the session call that adds the target's stream: its method
// and arguments. The cursor is left out everywhere (cursor-mode hidden,
// mutter's default), since a capture shows the window, not the pointer.
func (t Target) record() (method string, args []any) {
	props := map[string]dbus.Variant{}
	switch t.kind {
	case windowByID:
		props["window-id"] = dbus.MakeVariant(t.windowID)
		return ifaceSession + ".RecordWindow", []any{props}
	case monitor:
		return ifaceSession + ".RecordMonitor", []any{t.connector, props}
	case area:
		r := t.area
		return ifaceSession + ".RecordArea", []any{int32(r.Min.X), int32(r.Min.Y), int32(r.Dx()), int32(r.Dy()), props}
	}
	return ifaceSession + ".RecordWindow", []any{props}
}

// isWindow says whether the target is a window (whose absence mutter
// reports as "Window not found").
func (t Target) isWindow() bool { return t.kind == focusedWindow || t.kind == windowByID }
