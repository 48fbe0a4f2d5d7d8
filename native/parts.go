package native

import (
	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// How the X display's parts stand, which the engine's capability table
// (engine/capabilities.go) derives the capabilities from. This file says
// which extension each part needs and the reason when it is missing; the
// backend reports the parts and never a capability.

// displayParts are the X display's parts as the server's extensions make
// them: the x11 and xinput2 entries and the extensions' features.
func displayParts(ext xlib.Extensions) (x11, xi engine.BackendEntry, features []engine.Feature) {
	// Without X-Resource windows cannot be tied to their processes, and
	// consent is per process: the driver cannot work.
	x11 = entry(engine.PartX11, true, ext.XRes, doctor.ReasonXResMissing)
	xi = entry(engine.PartXInput2, false, hasXInput21(ext), doctor.ReasonXInput2Missing)
	features = []engine.Feature{
		feature(engine.PartXTest, ext.XTest, doctor.ReasonXTestMissing),
		feature(engine.PartCapture, ext.Composite, doctor.ReasonCompositeMissing),
		feature(engine.PartShape, ext.Shape, doctor.ReasonX11ExtensionMissing),
		notificationsPart,
	}
	return x11, xi, features
}

// notificationsPart: freedesktop notifications offer no list of other
// apps' notifications, whatever the display, so the part is unsupported
// in the live backend and the unavailable one alike.
var notificationsPart = engine.Feature{ID: engine.PartNotifications, Status: engine.StatusUnsupported,
	ReasonCode: doctor.ReasonNoPlatformAPI, Action: doctor.Action(doctor.ReasonNoPlatformAPI)}

// hasXInput21 reports XInput 2.1, whose raw events let the driver hear the
// person take control back.
func hasXInput21(ext xlib.Extensions) bool {
	return ext.XInputMajor > 2 || (ext.XInputMajor == 2 && ext.XInputMinor >= 1)
}

// entry is a registry entry, available when ok, else unavailable for
// reason with its action.
func entry(id string, required, ok bool, reason string) engine.BackendEntry {
	if ok {
		return engine.BackendEntry{ID: id, Status: engine.StatusAvailable, Required: required}
	}
	return engine.BackendEntry{ID: id, Status: engine.StatusUnavailable, Required: required, ReasonCode: reason, Action: doctor.Action(reason)}
}

// feature is a part that is no registry entry, available when ok, else
// unavailable for reason with its action.
func feature(id string, ok bool, reason string) engine.Feature {
	if ok {
		return engine.Feature{ID: id, Status: engine.StatusAvailable}
	}
	return engine.Feature{ID: id, Status: engine.StatusUnavailable, ReasonCode: reason, Action: doctor.Action(reason)}
}
