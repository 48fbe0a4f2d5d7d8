package mock

import (
	"context"

	"github.com/nish-driver/nish-driver/engine"
)

// The mock answers the engine's hit-test (engine.HitTester) as an AT-SPI
// app answers Component.GetAccessibleAtPoint: with the element a click at
// the point would reach (the one its input goes to, elementAt) and the
// ancestors leading to it. A test can make the app change its layout in
// the instant before it answers (BeforeHitTest), as a layout that moved
// between the engine's read and its act.

var _ engine.HitTester = (*Desktop)(nil)

// ElementsAt lists the elements of window id under p (root coordinates,
// device pixels), from the frame's child down to the element a click there
// reaches. A hung app does not answer.
func (d *Desktop) ElementsAt(ctx context.Context, id engine.WindowID, p engine.Point) ([]engine.ElementID, error) {
	d.mu.Lock()
	hook := d.beforeHit
	d.beforeHit = nil
	d.mu.Unlock()
	if hook != nil {
		hook()
	}
	var chain []engine.ElementID
	err := d.appCall(ctx, Call{Method: "ElementsAt", Window: id}, func(w *Window) error {
		if w.app.offBus {
			return nil
		}
		for e := w.elementAt(p); e != nil && e != w.root; e = e.parent {
			chain = append([]engine.ElementID{e.id}, chain...)
		}
		return nil
	})
	return chain, err
}

// BeforeHitTest runs fn once, right before the next hit-test is answered
// (without the desktop's lock): what fn changes is what the hit-test sees,
// after the engine's read.
func (d *Desktop) BeforeHitTest(fn func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.beforeHit = fn
}
