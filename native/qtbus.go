package native

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// atSPIBusProperty is the root window property the accessibility bus
// launcher sets to the bus's address; Qt 5 apps read it and nothing else
// to find the bus.
const atSPIBusProperty = "AT_SPI_BUS"

// qtBusState compares the root window's AT_SPI_BUS (read on the display's
// own goroutine) with the address org.a11y.Bus announces on the session bus
// (the launcher, not an app). It reads no app's text.
func (b *Backend) qtBusState(ctx context.Context) string {
	announced, err := b.a.AnnouncedBusAddress(ctx)
	if err != nil {
		return engine.QtBusUnknown
	}
	prop, set, err := b.x.RootTextProperty(atSPIBusProperty)
	if err != nil {
		return engine.QtBusUnknown
	}
	return engine.QtBusState(prop, set, announced)
}

// accessibilityOf is what the hints need about a window: whether its app is
// on the bus, its toolkit, and the AT_SPI_BUS check when that may say why
// it is not (engine.AccessibilityOf).
func (b *Backend) accessibilityOf(ctx context.Context, onBus bool, bus string, pid int) engine.WindowAccessibility {
	return engine.AccessibilityOf(onBus, b.toolkitOf(ctx, bus, pid), func() string { return b.qtBusState(ctx) })
}
