package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// The desktop's accessibility switch and what it knows about each app's
// accessibility, as the native backend gives them: the switch the engine
// turns on when a session starts (engine.AccessibilityEnabler), and each
// window's toolkit and presence on the bus (engine.AccessibilityProber).

var (
	_ engine.AccessibilityEnabler = (*Desktop)(nil)
	_ engine.AccessibilityProber  = (*Desktop)(nil)
)

// EnableAccessibility turns the desktop's accessibility switch on and
// reports whether it was on already. A switch broken by
// BreakAccessibilitySwitch fails with backend_unavailable.
func (d *Desktop) EnableAccessibility(ctx context.Context) (bool, error) {
	var wasOn bool
	err := d.plainCall(Call{Method: "EnableAccessibility"}, func() error {
		if d.a11yBroken {
			return engine.Errf(engine.CodeBackendUnavailable, "the mock's accessibility switch does not answer")
		}
		wasOn = d.a11yOn
		d.a11yOn = true
		return nil
	})
	return wasOn, err
}

// AccessibilitySwitch reports whether the desktop's accessibility switch
// is on. A new desktop's is off.
func (d *Desktop) AccessibilitySwitch() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.a11yOn
}

// SetAccessibilitySwitch turns the switch on or off, as another program
// on the desktop could.
func (d *Desktop) SetAccessibilitySwitch(on bool) {
	d.mu.Lock()
	d.a11yOn = on
	d.mu.Unlock()
}

// BreakAccessibilitySwitch makes the switch fail to answer (or answer
// again), for tests of a session that starts anyway.
func (d *Desktop) BreakAccessibilitySwitch(broken bool) {
	d.mu.Lock()
	d.a11yBroken = broken
	d.mu.Unlock()
}

// SetToolkit sets the toolkit family the app is built on (an
// engine.Toolkit constant; "" unknown). New apps are GTK apps.
func (a *App) SetToolkit(family string) {
	a.d.mu.Lock()
	a.toolkit = family
	a.d.mu.Unlock()
}

// SetOffBus takes the app off the accessibility bus (or puts it back): its
// windows then read as their frame alone, as the native backend reads a
// window that matched no accessible frame.
func (a *App) SetOffBus(off bool) {
	a.d.change(func() { a.offBus = off })
}

// AddChromiumWithoutContent starts an app named "Chromium" on the Chromium
// toolkit whose one window is a frame with nothing below it, as Chromium
// reads when started without --force-renderer-accessibility.
func (d *Desktop) AddChromiumWithoutContent(title string) *Window {
	a := d.AddApp("Chromium", "/usr/lib/chromium/chromium")
	a.SetToolkit(engine.ToolkitChromium)
	return a.AddWindow(title, engine.Rect{X: 100, Y: 80, W: 1200, H: 800})
}

// WindowAccessibility reports whether the window's app is on the
// accessibility bus and its toolkit family.
func (d *Desktop) WindowAccessibility(ctx context.Context, id engine.WindowID) (engine.WindowAccessibility, error) {
	var info engine.WindowAccessibility
	err := d.plainCall(Call{Method: "WindowAccessibility", Window: id}, func() error {
		w := d.liveWindow(id)
		if w == nil {
			return errGone(id)
		}
		info = d.accessibilityOf(w.app)
		return nil
	})
	return info, err
}

// emptyTreeProbes lists the doctor's lines for the running apps whose
// first window reads as its frame alone. mu held.
func (d *Desktop) emptyTreeProbes() []engine.Probe {
	var out []engine.Probe
	for _, a := range d.apps {
		if !a.alive {
			continue
		}
		for _, w := range a.windows {
			if w.closed {
				continue
			}
			rows := 1
			if !a.offBus {
				rows += len(w.root.children)
			}
			info := d.accessibilityOf(a)
			if rows == 1 {
				if h := engine.HintFor(info, rows, false); h != nil {
					out = append(out, engine.EmptyTreeProbe(a.name, a.pid, *h))
				}
			}
			break
		}
	}
	return out
}

// SetQtBus sets what the desktop's AT_SPI_BUS check finds (an engine.QtBus
// constant): whether the root window's property names the accessibility
// bus, as Qt 5 apps need. A new desktop's is ok.
func (d *Desktop) SetQtBus(state string) {
	d.mu.Lock()
	d.qtBus = state
	d.mu.Unlock()
}

// qtBusState is the AT_SPI_BUS check's state. mu held.
func (d *Desktop) qtBusState() string {
	if d.qtBus == "" {
		return engine.QtBusOK
	}
	return d.qtBus
}

// accessibilityOf is what the hints know of an app's windows
// (engine.AccessibilityOf, as the native backend reports it). mu held.
func (d *Desktop) accessibilityOf(a *App) engine.WindowAccessibility {
	return engine.AccessibilityOf(!a.offBus, a.toolkit, d.qtBusState)
}
