package native

import (
	"context"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// Turning accessibility on, and saying why a window reads empty: the
// desktop's switch (atspi/status.go) and, for the engine's hints and the
// doctor, whether a window's app is on the accessibility bus and which
// toolkit it is built on.

var (
	_ engine.AccessibilityEnabler = (*Backend)(nil)
	_ engine.AccessibilityProber  = (*Backend)(nil)
)

// EnableAccessibility turns the desktop's accessibility switch
// (org.a11y.Status IsEnabled) on if it is off.
func (b *Backend) EnableAccessibility(ctx context.Context) (bool, error) {
	on, err := b.a.EnableAccessibility(ctx)
	return on, atspiErr(err)
}

// WindowAccessibility says whether a window matched an accessible frame
// and which toolkit its app is built on.
func (b *Backend) WindowAccessibility(ctx context.Context, w engine.WindowID) (engine.WindowAccessibility, error) {
	win, err := b.frameOf(ctx, w)
	if err != nil {
		return engine.WindowAccessibility{}, err
	}
	return b.accessibilityOf(ctx, win.accessible(), win.bus, win.pid), nil
}

// toolkitOf names an app's toolkit family: what the app says on the bus
// (bus "" for an app not on it), else, or when it says GTK (LibreOffice,
// Firefox and Chromium are GTK apps too), what its process has mapped.
func (b *Backend) toolkitOf(ctx context.Context, bus string, pid int) string {
	said := ""
	if bus != "" {
		said = toolkitFamily(b.a.ToolkitName(ctx, bus))
	}
	if said != "" && said != engine.ToolkitGTK {
		return said
	}
	if mapped := b.mappedToolkit(pid); mapped != "" {
		return mapped
	}
	return said
}

// mappedToolkit is processToolkit remembered per process identity.
func (b *Backend) mappedToolkit(pid int) string {
	id, err := processIdentity(pid)
	if err != nil {
		return ""
	}
	b.mu.Lock()
	kit, ok := b.kits[id]
	b.mu.Unlock()
	if ok {
		return kit
	}
	kit = processToolkit(pid)
	b.mu.Lock()
	if b.kits == nil || len(b.kits) > 1000 {
		b.kits = map[engine.ProcessIdentity]string{}
	}
	b.kits[id] = kit
	b.mu.Unlock()
	return kit
}

// Bounds of the doctor's list of apps with empty trees: the whole list,
// and how many apps it looks at.
const (
	emptyScanBound = 3 * time.Second
	emptyScanApps  = 32
)

// emptyTreeProbes lists, for the doctor, the running apps whose window
// reads as its frame alone: not on the accessibility bus, or a frame with
// no child a client can reach. It looks at each app's topmost window with
// one GetChildren call (no app text is read) and its toolkit name; apps
// that do not answer in time are left out.
func (b *Backend) emptyTreeProbes(ctx context.Context) []engine.Probe {
	ctx, cancel := context.WithTimeout(ctx, emptyScanBound)
	defer cancel()
	wins, err := b.windows(ctx, true)
	if err != nil {
		return nil
	}
	match, err := b.src.matcher(ctx)
	if err != nil {
		return nil
	}
	var out []engine.Probe
	seen := map[int]bool{}
	for _, w := range wins {
		if seen[w.Pid] || len(seen) >= emptyScanApps || ctx.Err() != nil {
			continue
		}
		seen[w.Pid] = true
		f, ok := match(w)
		if !ok {
			continue
		}
		onBus, bus := f.accessible(), ""
		if onBus {
			bare, err := b.a.FrameIsBare(ctx, f.id)
			if err != nil || !bare {
				continue
			}
			bus = f.bus
		}
		info := b.accessibilityOf(ctx, onBus, bus, w.Pid)
		if h := engine.HintFor(info, 1, false); h != nil {
			out = append(out, engine.EmptyTreeProbe(w.App, w.Pid, *h))
		}
	}
	return out
}
