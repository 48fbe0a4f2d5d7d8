package engine

import "context"

// A takeover is refused before any dialog when the desktop cannot give one
// (docs/contract.md#takeover): on a Wayland session (until its input
// portal is built) or an X display without XInput 2.1's raw events, no
// hand-back can be heard, and a takeover without a hand-back is never
// granted. Asking the person first would put a line in the dialog that
// the driver could not honour. The capability table says when: the
// input_takeover capability, derived from the backend's parts, is not
// available. start_session then asks only for what it can give and
// reports takeover {on: false, reason, action} with the capability's
// reason code and the fixed sentence of what to do.

// takeoverCapability is the name of the capability a takeover needs.
const takeoverCapability = "input_takeover"

// takeoverRefusal is the input_takeover capability when it is not
// available, and refused false when a takeover may be asked for. The parts
// it rests on (the display server, its extensions) do not change while the
// backend is open, so the answer of a desktop that is ready is kept for
// the driver's life; a desktop that is not ready (its display gone for a
// moment) is asked again next time.
func (d *Driver) takeoverRefusal(ctx context.Context) (c Capability, refused bool) {
	d.takeoverMu.Lock()
	defer d.takeoverMu.Unlock()
	if d.takeoverCap == nil {
		reg := d.backend.Registry(ctx)
		for _, cp := range reg.Capabilities() {
			if cp.Name == takeoverCapability {
				c = cp
			}
		}
		if !reg.Ready() {
			return c, c.Status != StatusAvailable
		}
		d.takeoverCap = &c
	}
	return *d.takeoverCap, d.takeoverCap.Status != StatusAvailable
}
